package apigatewayv2

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/services/apigateway"
)

// api is one HTTP or WebSocket API with what belongs to it.
type api struct {
	cfg          types.Api // as GetApi shows it, but for tags
	arn          string
	routes       map[string]*types.Route       // by id
	integrations map[string]*types.Integration // by id
	stages       map[string]*stage             // by name
	deployments  map[string]*types.Deployment  // by id
}

// apiARN returns the ARN of the API id, which API Gateway's ARNs give without an account.
func apiARN(scope core.Scope, id string) string {
	return apigateway.ARN(scope, "/apis/"+id)
}

// lookup returns the API id names, or NotFoundException. The caller holds the backend's mutex.
func (r *region) lookup(call *core.Call, id string) (*api, error) {
	a, ok := r.apis[id]
	if !ok {
		return nil, notFound(call, "API", id)
	}
	return a, nil
}

// view returns the API as the API Gateway answers show it, with its tags.
func (r *region) view(a *api) *types.Api {
	out := a.cfg
	out.Tags = r.tags.Map(a.arn)
	return &out
}

// checkSelection checks the route selection expression an API of protocol is given: WebSocket
// APIs require one, HTTP APIs accept only ${request.method} ${request.path}.
func checkSelection(protocol types.ProtocolType, expr *string) error {
	if protocol == types.ProtocolTypeWebsocket {
		if aws.ToString(expr) == "" {
			return badRequest("RouteSelectionExpression is required for WEBSOCKET APIs")
		}
		return nil
	}
	if expr != nil && *expr != httpSelection {
		return badRequest("Unsupported RouteSelectionExpression: %s. HTTP APIs only support %s", *expr, httpSelection)
	}
	return nil
}

// httpSelection is the route selection expression of every HTTP API.
const httpSelection = "${request.method} ${request.path}"

// checkCORS refuses a CORS configuration on a WebSocket API, and checks the one of an HTTP API:
// AllowCredentials cannot go with a wildcard origin, and MaxAge is at most a day.
func checkCORS(protocol types.ProtocolType, cors *types.Cors) error {
	if cors == nil {
		return nil
	}
	if protocol != types.ProtocolTypeHttp {
		return badRequest("CorsConfiguration is supported only for HTTP APIs")
	}
	if aws.ToBool(cors.AllowCredentials) && slices.Contains(cors.AllowOrigins, "*") {
		return badRequest("allow-credentials is not supported when allow-origin is *")
	}
	if age := aws.ToInt32(cors.MaxAge); age < -1 || age > 86400 {
		return badRequest("Invalid maxAge: %d. maxAge must be between -1 and 86400", age)
	}
	return nil
}

// endpoint returns the API's endpoint: https://<id>.execute-api.<region>.amazonaws.com, or
// wss:// for a WebSocket API.
func endpoint(scope core.Scope, id string, protocol types.ProtocolType) string {
	scheme := "https://"
	if protocol == types.ProtocolTypeWebsocket {
		scheme = "wss://"
	}
	return scheme + id + ".execute-api." + scope.Region + ".amazonaws.com"
}

func (b *Backend) createAPI(call *core.Call, in *apigatewayv2.CreateApiInput) (*apigatewayv2.CreateApiOutput, error) {
	name := aws.ToString(in.Name)
	if name == "" || len(name) > 128 {
		return nil, badRequest("Name must be between 1 and 128 characters")
	}
	if in.ProtocolType != types.ProtocolTypeHttp && in.ProtocolType != types.ProtocolTypeWebsocket {
		return nil, badRequest("Invalid protocol type: %s. Valid values are HTTP and WEBSOCKET", in.ProtocolType)
	}
	if err := checkSelection(in.ProtocolType, in.RouteSelectionExpression); err != nil {
		return nil, err
	}
	if err := checkCORS(in.ProtocolType, in.CorsConfiguration); err != nil {
		return nil, err
	}
	if in.Target != nil || in.RouteKey != nil || in.CredentialsArn != nil {
		return nil, badRequest("The emulator does not implement quick create (Target, RouteKey, CredentialsArn)")
	}
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.CreateApiOutput, error) {
		id := core.LowerAlnumID(10)
		selection := in.RouteSelectionExpression
		if in.ProtocolType == types.ProtocolTypeHttp {
			selection = aws.String(httpSelection)
		}
		keys := in.ApiKeySelectionExpression
		if keys == nil {
			keys = aws.String("$request.header.x-api-key")
		}
		a := &api{arn: apiARN(r.scope, id), routes: map[string]*types.Route{}, integrations: map[string]*types.Integration{},
			stages: map[string]*stage{}, deployments: map[string]*types.Deployment{}}
		a.cfg = types.Api{
			ApiId: aws.String(id), Name: aws.String(name), ProtocolType: in.ProtocolType, RouteSelectionExpression: selection,
			ApiKeySelectionExpression: keys, ApiEndpoint: aws.String(endpoint(r.scope, id, in.ProtocolType)),
			CorsConfiguration: in.CorsConfiguration, CreatedDate: aws.Time(call.Now), Description: in.Description,
			DisableExecuteApiEndpoint: aws.Bool(aws.ToBool(in.DisableExecuteApiEndpoint)),
			DisableSchemaValidation:   in.DisableSchemaValidation, Version: in.Version, IpAddressType: in.IpAddressType,
		}
		if a.cfg.IpAddressType == "" {
			a.cfg.IpAddressType = types.IpAddressTypeIpv4
		}
		return apigateway.Created[apigatewayv2.CreateApiOutput](r.tags, in.Tags, a.arn, r.apis, id, a, r.view)
	})
}

// getAPI answers GetApi with the API a request names.
func (b *Backend) getAPI(call *core.Call, in *apigatewayv2.GetApiInput) (*apigatewayv2.GetApiOutput, error) {
	return apigateway.Read[apigatewayv2.GetApiOutput](b.state, call, func(r *region) (*types.Api, error) {
		a, err := r.lookup(call, aws.ToString(in.ApiId))
		return apigateway.View(a, err, r.view)
	})
}

// getAPIs answers GetApis with a page of the region's APIs, by id.
func (b *Backend) getAPIs(call *core.Call, in *apigatewayv2.GetApisInput) (*apigatewayv2.GetApisOutput, error) {
	return apigateway.List[apigatewayv2.GetApisOutput](b.state, call, func(r *region) ([]types.Api, error) { return apigateway.Views(r.apis, r.view), nil },
		page, in.NextToken, in.MaxResults)
}

func (b *Backend) updateAPI(call *core.Call, in *apigatewayv2.UpdateApiInput) (*apigatewayv2.UpdateApiOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.UpdateApiOutput, error) {
		a, err := r.lookup(call, aws.ToString(in.ApiId))
		if err != nil {
			return nil, err
		}
		cfg := a.cfg
		if in.Name != nil {
			if *in.Name == "" || len(*in.Name) > 128 {
				return nil, badRequest("Name must be between 1 and 128 characters")
			}
			cfg.Name = in.Name
		}
		if in.RouteSelectionExpression != nil {
			if err := checkSelection(cfg.ProtocolType, in.RouteSelectionExpression); err != nil {
				return nil, err
			}
			cfg.RouteSelectionExpression = in.RouteSelectionExpression
		}
		if in.CorsConfiguration != nil {
			if err := checkCORS(cfg.ProtocolType, in.CorsConfiguration); err != nil {
				return nil, err
			}
			cfg.CorsConfiguration = in.CorsConfiguration
		}
		if in.Target != nil || in.RouteKey != nil || in.CredentialsArn != nil {
			return nil, badRequest("The emulator does not implement quick create (Target, RouteKey, CredentialsArn)")
		}
		cfg.Description = first(in.Description, cfg.Description)
		cfg.Version = first(in.Version, cfg.Version)
		cfg.ApiKeySelectionExpression = first(in.ApiKeySelectionExpression, cfg.ApiKeySelectionExpression)
		cfg.DisableExecuteApiEndpoint = first(in.DisableExecuteApiEndpoint, cfg.DisableExecuteApiEndpoint)
		cfg.DisableSchemaValidation = first(in.DisableSchemaValidation, cfg.DisableSchemaValidation)
		if in.IpAddressType != "" {
			cfg.IpAddressType = in.IpAddressType
		}
		a.cfg = cfg
		out := &apigatewayv2.UpdateApiOutput{}
		core.Fill(out, r.view(a))
		return out, nil
	})
}

func (b *Backend) deleteCORS(call *core.Call, in *apigatewayv2.DeleteCorsConfigurationInput) (*apigatewayv2.DeleteCorsConfigurationOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.DeleteCorsConfigurationOutput, error) {
		a, err := r.lookup(call, aws.ToString(in.ApiId))
		if err != nil {
			return nil, err
		}
		if a.cfg.CorsConfiguration == nil {
			return nil, notFound(call, "CorsConfiguration", aws.ToString(in.ApiId))
		}
		a.cfg.CorsConfiguration = nil
		return &apigatewayv2.DeleteCorsConfigurationOutput{}, nil
	})
}

// first returns the new value of a setting an update gives, else the old one.
func first[T any](update, old *T) *T {
	if update != nil {
		return update
	}
	return old
}

func (b *Backend) deleteAPI(call *core.Call, in *apigatewayv2.DeleteApiInput) (*apigatewayv2.DeleteApiOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.DeleteApiOutput, error) {
		id := aws.ToString(in.ApiId)
		a, err := r.lookup(call, id)
		if err != nil {
			return nil, err
		}
		for _, d := range r.domains {
			for _, m := range d.mappings {
				if aws.ToString(m.ApiId) == id {
					return nil, conflict("API %s is mapped to domain name %s. Delete the API mapping first", id, aws.ToString(d.cfg.DomainName))
				}
			}
		}
		for name := range a.stages {
			r.tags.Delete(stageARN(r.scope, id, name))
		}
		r.tags.Delete(a.arn)
		delete(r.apis, id)
		return &apigatewayv2.DeleteApiOutput{}, nil
	})
}

// sortedValues returns the values of m in the order of their keys.
func sortedValues[V any](m map[string]*V) []V {
	return apigateway.Views(m, func(v *V) *V { return v })
}

// isWebSocket reports whether the API is a WebSocket API.
func (a *api) isWebSocket() bool { return a.cfg.ProtocolType == types.ProtocolTypeWebsocket }

// ofAPI returns the function that lists, with items, what the API apiID holds in a region, for
// apigateway.List.
func ofAPI[T any](call *core.Call, apiID *string, items func(r *region, a *api) []T) func(r *region) ([]T, error) {
	return func(r *region) ([]T, error) {
		a, err := r.lookup(call, aws.ToString(apiID))
		if err != nil {
			return nil, err
		}
		return items(r, a), nil
	}
}
