package apigateway

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// httpMethods are the HTTP methods a method may have, ANY standing for all of them.
var httpMethods = []string{"ANY", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"}

// method returns the method a request names, or NotFoundException.
func (r *region) method(call *core.Call, apiID, resourceID, verb *string) (*restAPI, *resource, *types.Method, error) {
	a, res, err := r.resource(call, apiID, resourceID)
	if err != nil {
		return nil, nil, nil, err
	}
	m, ok := res.methods[strings.ToUpper(aws.ToString(verb))]
	if !ok {
		return nil, nil, nil, core.NotFoundf("NotFoundException", "Invalid Method identifier specified")
	}
	return a, res, m, nil
}

func (b *Backend) putMethod(call *core.Call, in *apigateway.PutMethodInput) (*apigateway.PutMethodOutput, error) {
	verb := strings.ToUpper(aws.ToString(in.HttpMethod))
	if !slices.Contains(httpMethods, verb) {
		return nil, BadRequest("Invalid HttpMethod specified. Valid options are %s", strings.Join(httpMethods, ","))
	}
	auth := aws.ToString(in.AuthorizationType)
	if auth != "NONE" && auth != "AWS_IAM" {
		return nil, BadRequest("The emulator does not implement authorizers; authorizationType must be NONE or AWS_IAM")
	}
	return core.Locked(b.state, call, func(r *region) (*apigateway.PutMethodOutput, error) {
		_, res, err := r.resource(call, in.RestApiId, in.ResourceId)
		if err != nil {
			return nil, err
		}
		if _, ok := res.methods[verb]; ok {
			return nil, Conflict("Method already exists for this resource")
		}
		m := &types.Method{HttpMethod: aws.String(verb), AuthorizationType: aws.String(auth), ApiKeyRequired: aws.Bool(in.ApiKeyRequired),
			OperationName: in.OperationName, RequestParameters: in.RequestParameters, RequestModels: in.RequestModels,
			AuthorizationScopes: in.AuthorizationScopes}
		res.methods[verb] = m
		out := &apigateway.PutMethodOutput{}
		core.Fill(out, m)
		return out, nil
	})
}

// getMethod answers GetMethod with the method a request names.
func (b *Backend) getMethod(call *core.Call, in *apigateway.GetMethodInput) (*apigateway.GetMethodOutput, error) {
	return Read[apigateway.GetMethodOutput](b.state, call, func(r *region) (*types.Method, error) {
		_, _, m, err := r.method(call, in.RestApiId, in.ResourceId, in.HttpMethod)
		return m, err
	})
}

func (b *Backend) updateMethod(call *core.Call, in *apigateway.UpdateMethodInput) (*apigateway.UpdateMethodOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.UpdateMethodOutput, error) {
		_, res, old, err := r.method(call, in.RestApiId, in.ResourceId, in.HttpMethod)
		if err != nil {
			return nil, err
		}
		m := *old
		m.RequestParameters = cloneMap(old.RequestParameters)
		err = patch(in.PatchOperations, func(p patchOp) error { return patchMethod(&m, p) })
		if err != nil {
			return nil, err
		}
		res.methods[aws.ToString(m.HttpMethod)] = &m
		out := &apigateway.UpdateMethodOutput{}
		core.Fill(out, &m)
		return out, nil
	})
}

// patchMethod applies one patch operation to a method.
func patchMethod(m *types.Method, p patchOp) error {
	switch p.parts[0] {
	case "authorizationType":
		if v := aws.ToString(p.value); v != "NONE" && v != "AWS_IAM" {
			return BadRequest("The emulator does not implement authorizers; authorizationType must be NONE or AWS_IAM")
		}
		m.AuthorizationType = p.value
	case "apiKeyRequired":
		v, err := p.boolean()
		if err != nil {
			return err
		}
		m.ApiKeyRequired = aws.Bool(v)
	case "operationName":
		m.OperationName = p.str()
	case "requestParameters":
		if len(p.parts) != 2 {
			return p.invalidPath()
		}
		if m.RequestParameters == nil {
			m.RequestParameters = map[string]bool{}
		}
		if p.op == types.OpRemove {
			delete(m.RequestParameters, p.parts[1])
			return nil
		}
		v, err := p.boolean()
		if err != nil {
			return err
		}
		m.RequestParameters[p.parts[1]] = v
	default:
		return p.invalidPath()
	}
	return nil
}

func (b *Backend) deleteMethod(call *core.Call, in *apigateway.DeleteMethodInput) (*apigateway.DeleteMethodOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.DeleteMethodOutput, error) {
		_, res, m, err := r.method(call, in.RestApiId, in.ResourceId, in.HttpMethod)
		if err != nil {
			return nil, err
		}
		delete(res.methods, aws.ToString(m.HttpMethod))
		return &apigateway.DeleteMethodOutput{}, nil
	})
}

// cloneMap returns a copy of m, nil when m is nil, so that an update never changes a map a
// response being encoded holds.
func cloneMap[V any](m map[string]V) map[string]V {
	if m == nil {
		return nil
	}
	return maps.Clone(m)
}

// awsURI is the form of an AWS or AWS_PROXY integration's URI:
// arn:aws:apigateway:<region>:<service>:path/... or :action/....
var awsURI = regexp.MustCompile(`^arn:aws[a-z-]*:apigateway:[a-z0-9-]+:[a-z0-9.-]+:(path|action)/.+$`)

// lambdaURI is the form of the URI that invokes a Lambda function.
var lambdaURI = regexp.MustCompile(`^arn:aws[a-z-]*:apigateway:[a-z0-9-]+:lambda:path/2015-03-31/functions/arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:[A-Za-z0-9_-]+(:[A-Za-z0-9$_-]+)?/invocations$`)

// checkIntegration checks an integration as API Gateway does: its type, its URI for the type,
// its integration HTTP method, its VPC link and its timeout.
func (r *region) checkIntegration(call *core.Call, it *types.Integration) error {
	uri := aws.ToString(it.Uri)
	switch it.Type {
	case types.IntegrationTypeAwsProxy, types.IntegrationTypeAws:
		if !awsURI.MatchString(uri) {
			return BadRequest("AWS ARN for integration must contain path or action")
		}
		if it.Type == types.IntegrationTypeAwsProxy && !lambdaURI.MatchString(uri) {
			return BadRequest("Integrations of type 'AWS_PROXY' currently only supports Lambda function and Firehose stream invocations.")
		}
	case types.IntegrationTypeHttp, types.IntegrationTypeHttpProxy:
		if err := r.checkHTTPURI(call, it); err != nil {
			return err
		}
	case types.IntegrationTypeMock:
	default:
		return BadRequest("Invalid integration type specified: %s", it.Type)
	}
	if it.Type != types.IntegrationTypeMock {
		if !slices.Contains(httpMethods, aws.ToString(it.HttpMethod)) {
			return BadRequest("Enumeration value for HttpMethod must be non-empty")
		}
		if lambdaURI.MatchString(uri) && aws.ToString(it.HttpMethod) != "POST" {
			return BadRequest("Lambda function invocations require integration HTTP method POST")
		}
	}
	if it.TimeoutInMillis < 50 || it.TimeoutInMillis > 29000 {
		return BadRequest("Timeout should be between 50 ms and 29000 ms")
	}
	return nil
}

// checkHTTPURI checks the URI of an HTTP or HTTP_PROXY integration: an http or https URL,
// reached through a VPC link of the account when the connection type is VPC_LINK.
func (r *region) checkHTTPURI(call *core.Call, it *types.Integration) error {
	uri := aws.ToString(it.Uri)
	if !strings.HasPrefix(uri, "http://") && !strings.HasPrefix(uri, "https://") {
		return BadRequest("Invalid HTTP endpoint specified for URI")
	}
	if it.ConnectionType != types.ConnectionTypeVpcLink {
		if it.ConnectionId != nil {
			return BadRequest("connectionId is only supported with connectionType VPC_LINK")
		}
		return nil
	}
	id := aws.ToString(it.ConnectionId)
	if _, ok := r.vpcLinks[id]; !ok && !strings.HasPrefix(id, "${stageVariables.") {
		return NotFound(call, "VPC link", id)
	}
	return nil
}

func (b *Backend) putIntegration(call *core.Call, in *apigateway.PutIntegrationInput) (*apigateway.PutIntegrationOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.PutIntegrationOutput, error) {
		_, _, m, err := r.method(call, in.RestApiId, in.ResourceId, in.HttpMethod)
		if err != nil {
			return nil, err
		}
		it := &types.Integration{
			Type: in.Type, Uri: in.Uri, HttpMethod: in.IntegrationHttpMethod, ConnectionType: in.ConnectionType,
			ConnectionId: in.ConnectionId, Credentials: in.Credentials, RequestParameters: in.RequestParameters,
			RequestTemplates: in.RequestTemplates, PassthroughBehavior: in.PassthroughBehavior, ContentHandling: in.ContentHandling,
			CacheNamespace: in.CacheNamespace, CacheKeyParameters: in.CacheKeyParameters, TlsConfig: in.TlsConfig,
			TimeoutInMillis: 29000, ResponseTransferMode: in.ResponseTransferMode,
		}
		if in.TimeoutInMillis != nil {
			it.TimeoutInMillis = *in.TimeoutInMillis
		}
		if it.HttpMethod != nil {
			it.HttpMethod = aws.String(strings.ToUpper(*it.HttpMethod))
		}
		if it.ConnectionType == "" {
			it.ConnectionType = types.ConnectionTypeInternet
		}
		if it.PassthroughBehavior == nil {
			it.PassthroughBehavior = aws.String("WHEN_NO_MATCH")
		}
		if it.CacheNamespace == nil {
			it.CacheNamespace = in.ResourceId
		}
		if it.CacheKeyParameters == nil {
			it.CacheKeyParameters = []string{}
		}
		if it.ResponseTransferMode == "" {
			it.ResponseTransferMode = types.ResponseTransferModeBuffered
		}
		if err := r.checkIntegration(call, it); err != nil {
			return nil, err
		}
		m.MethodIntegration = it
		out := &apigateway.PutIntegrationOutput{}
		core.Fill(out, it)
		return out, nil
	})
}

// integration returns the integration of the method a request names, or NotFoundException.
func (r *region) integration(call *core.Call, apiID, resourceID, verb *string) (*types.Method, error) {
	_, _, m, err := r.method(call, apiID, resourceID, verb)
	if err != nil {
		return nil, err
	}
	if m.MethodIntegration == nil {
		return nil, core.NotFoundf("NotFoundException", "Invalid Integration identifier specified")
	}
	return m, nil
}

// getIntegration answers GetIntegration with the integration of the method a request names.
func (b *Backend) getIntegration(call *core.Call, in *apigateway.GetIntegrationInput) (*apigateway.GetIntegrationOutput, error) {
	return Read[apigateway.GetIntegrationOutput](b.state, call, func(r *region) (*types.Integration, error) {
		m, err := r.integration(call, in.RestApiId, in.ResourceId, in.HttpMethod)
		return View(m, err, func(m *types.Method) *types.Integration { return m.MethodIntegration })
	})
}

func (b *Backend) updateIntegration(call *core.Call, in *apigateway.UpdateIntegrationInput) (*apigateway.UpdateIntegrationOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.UpdateIntegrationOutput, error) {
		m, err := r.integration(call, in.RestApiId, in.ResourceId, in.HttpMethod)
		if err != nil {
			return nil, err
		}
		it := *m.MethodIntegration
		it.RequestParameters, it.RequestTemplates = cloneMap(it.RequestParameters), cloneMap(it.RequestTemplates)
		if err := patch(in.PatchOperations, func(p patchOp) error { return patchIntegration(&it, p) }); err != nil {
			return nil, err
		}
		if err := r.checkIntegration(call, &it); err != nil {
			return nil, err
		}
		m.MethodIntegration = &it
		out := &apigateway.UpdateIntegrationOutput{}
		core.Fill(out, &it)
		return out, nil
	})
}

// patchIntegration applies one patch operation to an integration.
func patchIntegration(it *types.Integration, p patchOp) error {
	switch p.parts[0] {
	case "uri":
		it.Uri = p.str()
	case "httpMethod":
		it.HttpMethod = aws.String(strings.ToUpper(aws.ToString(p.str())))
	case "connectionId":
		it.ConnectionId = p.str()
	case "connectionType":
		it.ConnectionType = types.ConnectionType(aws.ToString(p.value))
		if it.ConnectionType == types.ConnectionTypeInternet {
			it.ConnectionId = nil
		}
	case "credentials":
		it.Credentials = p.str()
	case "passthroughBehavior":
		it.PassthroughBehavior = p.str()
	case "cacheNamespace":
		it.CacheNamespace = p.str()
	case "timeoutInMillis":
		return set(&it.TimeoutInMillis, p.integer)
	case "requestParameters":
		if len(p.parts) != 2 {
			return p.invalidPath()
		}
		it.RequestParameters = p.setEntry(it.RequestParameters)
	case "requestTemplates":
		if len(p.parts) != 2 {
			return p.invalidPath()
		}
		it.RequestTemplates = p.setEntry(it.RequestTemplates)
	default:
		return p.invalidPath()
	}
	return nil
}

func (b *Backend) deleteIntegration(call *core.Call, in *apigateway.DeleteIntegrationInput) (*apigateway.DeleteIntegrationOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.DeleteIntegrationOutput, error) {
		m, err := r.integration(call, in.RestApiId, in.ResourceId, in.HttpMethod)
		if err != nil {
			return nil, err
		}
		m.MethodIntegration = nil
		return &apigateway.DeleteIntegrationOutput{}, nil
	})
}
