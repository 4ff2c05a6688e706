package apigatewayv2

import (
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/services/apigateway"
)

// httpRouteKey is the form of an HTTP API's route keys other than $default: a method (or ANY)
// and a path that starts with a slash, whose last segment may be a greedy {proxy+}.
var httpRouteKey = regexp.MustCompile(`^(ANY|GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (/[^ ]*)$`)

// checkRouteKey checks a route key against the API's protocol: "$default" or "METHOD /path" for
// HTTP APIs, any non-empty key of at most 128 characters for WebSocket APIs.
func (a *api) checkRouteKey(key string) error {
	if key == "" || len(key) > 128 {
		return badRequest("RouteKey must be between 1 and 128 characters")
	}
	if a.isWebSocket() || key == "$default" {
		return nil
	}
	if !httpRouteKey.MatchString(key) {
		return badRequest("Unable to parse route key: %s. Route keys must be $default or an HTTP method and a resource path, such as GET /pets", key)
	}
	return nil
}

// checkTarget checks a route's target: integrations/<id> of an integration of the API.
func (a *api) checkTarget(target *string) error {
	if target == nil {
		return nil
	}
	id, ok := strings.CutPrefix(*target, "integrations/")
	if _, exists := a.integrations[id]; !ok || !exists {
		return badRequest("Invalid target: %s. Targets must be of the form integrations/<integration id> of this API", *target)
	}
	return nil
}

// checkAuthorization checks a route's authorization: NONE, or AWS_IAM (signed requests, no
// authorizer), which a WebSocket API allows on its $connect route only. Authorizers (JWT,
// CUSTOM) are not emulated.
func (a *api) checkAuthorization(key string, auth types.AuthorizationType, authorizer *string) error {
	if authorizer != nil || auth != types.AuthorizationTypeNone && auth != types.AuthorizationTypeAwsIam {
		return badRequest("The emulator does not implement authorizers; AuthorizationType must be NONE or AWS_IAM")
	}
	if auth == types.AuthorizationTypeAwsIam && a.isWebSocket() && key != "$connect" {
		return badRequest("Currently, authorization is restricted to the $connect route only")
	}
	return nil
}

// routeKeyTaken returns ConflictException when another route of the API than except has key.
func (a *api) routeKeyTaken(key, except string) error {
	for id, rt := range a.routes {
		if id != except && aws.ToString(rt.RouteKey) == key {
			return conflict("Route with key %s already exists for this API", key)
		}
	}
	return nil
}

func (b *Backend) createRoute(call *core.Call, in *apigatewayv2.CreateRouteInput) (*apigatewayv2.CreateRouteOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.CreateRouteOutput, error) {
		a, err := r.lookup(call, aws.ToString(in.ApiId))
		if err != nil {
			return nil, err
		}
		key := aws.ToString(in.RouteKey)
		if err := a.checkRouteKey(key); err != nil {
			return nil, err
		}
		if err := a.routeKeyTaken(key, ""); err != nil {
			return nil, err
		}
		if err := a.checkTarget(in.Target); err != nil {
			return nil, err
		}
		auth := in.AuthorizationType
		if auth == "" {
			auth = types.AuthorizationTypeNone
		}
		if err := a.checkAuthorization(aws.ToString(in.RouteKey), auth, in.AuthorizerId); err != nil {
			return nil, err
		}
		rt := &types.Route{
			RouteId: aws.String(core.LowerAlnumID(7)), RouteKey: in.RouteKey, Target: in.Target, AuthorizationType: auth,
			ApiKeyRequired: aws.Bool(aws.ToBool(in.ApiKeyRequired)), ApiGatewayManaged: aws.Bool(false),
			OperationName: in.OperationName, RequestParameters: in.RequestParameters, RequestModels: in.RequestModels,
			ModelSelectionExpression: in.ModelSelectionExpression, RouteResponseSelectionExpression: in.RouteResponseSelectionExpression,
			AuthorizationScopes: in.AuthorizationScopes,
		}
		return store[apigatewayv2.CreateRouteOutput](routes, r, call, a, *rt.RouteId, rt)
	})
}

// getRoute answers GetRoute with the route a request names.
func (b *Backend) getRoute(call *core.Call, in *apigatewayv2.GetRouteInput) (*apigatewayv2.GetRouteOutput, error) {
	return apigateway.Read[apigatewayv2.GetRouteOutput](b.state, call, routes.one(call, in.ApiId, in.RouteId))
}

// getRoutes answers GetRoutes with a page of the API's routes, by id.
func (b *Backend) getRoutes(call *core.Call, in *apigatewayv2.GetRoutesInput) (*apigatewayv2.GetRoutesOutput, error) {
	return apigateway.List[apigatewayv2.GetRoutesOutput](b.state, call, routes.all(call, in.ApiId), page, in.NextToken, in.MaxResults)
}

func (b *Backend) updateRoute(call *core.Call, in *apigatewayv2.UpdateRouteInput) (*apigatewayv2.UpdateRouteOutput, error) {
	return update[apigatewayv2.UpdateRouteOutput](routes, b, call, in.ApiId, in.RouteId, func(_ *region, a *api, rt *types.Route) error {
		if in.RouteKey != nil {
			if err := a.checkRouteKey(*in.RouteKey); err != nil {
				return err
			}
			if err := a.routeKeyTaken(*in.RouteKey, aws.ToString(rt.RouteId)); err != nil {
				return err
			}
			rt.RouteKey = in.RouteKey
		}
		if err := a.checkTarget(in.Target); err != nil {
			return err
		}
		if in.AuthorizationType != "" || in.AuthorizerId != nil {
			if err := a.checkAuthorization(aws.ToString(rt.RouteKey), in.AuthorizationType, in.AuthorizerId); err != nil {
				return err
			}
			rt.AuthorizationType = in.AuthorizationType
		}
		rt.Target = first(in.Target, rt.Target)
		rt.ApiKeyRequired = first(in.ApiKeyRequired, rt.ApiKeyRequired)
		rt.OperationName = first(in.OperationName, rt.OperationName)
		rt.ModelSelectionExpression = first(in.ModelSelectionExpression, rt.ModelSelectionExpression)
		rt.RouteResponseSelectionExpression = first(in.RouteResponseSelectionExpression, rt.RouteResponseSelectionExpression)
		if in.RequestParameters != nil {
			rt.RequestParameters = in.RequestParameters
		}
		if in.RequestModels != nil {
			rt.RequestModels = in.RequestModels
		}
		return nil
	})
}

func (b *Backend) deleteRoute(call *core.Call, in *apigatewayv2.DeleteRouteInput) (*apigatewayv2.DeleteRouteOutput, error) {
	return remove[apigatewayv2.DeleteRouteOutput](routes, b, call, in.ApiId, in.RouteId, func(r *region, a *api, rt *types.Route) error {
		delete(a.routes, aws.ToString(rt.RouteId))
		for _, s := range a.stages {
			delete(s.cfg.RouteSettings, aws.ToString(rt.RouteKey))
		}
		r.changed(call, a)
		return nil
	})
}
