package apigatewayv2

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/services/apigateway"
)

// lambdaURI is the form of an AWS_PROXY integration's URI: a Lambda function's ARN (with an
// optional qualifier), or the apigateway invocation URI that wraps one.
var lambdaURI = regexp.MustCompile(`^(arn:aws[a-z-]*:apigateway:[a-z0-9-]+:lambda:path/2015-03-31/functions/)?arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:[A-Za-z0-9_-]+(:[A-Za-z0-9$_-]+)?(/invocations)?$`)

// listenerARN is the form of the URI of a private integration: an Application or Network Load
// Balancer listener, or a Cloud Map service.
var listenerARN = regexp.MustCompile(`^arn:aws[a-z-]*:(elasticloadbalancing:[a-z0-9-]+:\d{12}:listener/(app|net)/[^/]+/[0-9a-f]+/[0-9a-f]+|servicediscovery:[a-z0-9-]+:\d{12}:service/srv-[a-z0-9]+)$`)

// checkIntegration checks an integration of a as API Gateway does, after an update has merged
// its changes: its type for the API's protocol, its URI for its type, its payload format
// version and its timeout.
func (r *region) checkIntegration(call *core.Call, a *api, in *types.Integration) error {
	switch in.IntegrationType {
	case types.IntegrationTypeAwsProxy:
		if !lambdaURI.MatchString(aws.ToString(in.IntegrationUri)) {
			return badRequest("Invalid integration URI specified: %s. AWS_PROXY integrations must target a Lambda function ARN", aws.ToString(in.IntegrationUri))
		}
	case types.IntegrationTypeHttpProxy:
		if err := r.checkHTTPTarget(call, a, in); err != nil {
			return err
		}
	case types.IntegrationTypeHttp, types.IntegrationTypeAws, types.IntegrationTypeMock:
		if !a.isWebSocket() {
			return badRequest("Integration type %s is not supported for HTTP APIs. Use AWS_PROXY or HTTP_PROXY", in.IntegrationType)
		}
	default:
		return badRequest("Invalid integration type: %s", in.IntegrationType)
	}
	if version := aws.ToString(in.PayloadFormatVersion); version != "1.0" && version != "2.0" {
		return badRequest("Invalid PayloadFormatVersion: %s. Valid values are 1.0 and 2.0", version)
	}
	if !a.isWebSocket() && in.IntegrationType == types.IntegrationTypeHttpProxy && aws.ToString(in.PayloadFormatVersion) != "1.0" {
		return badRequest("HTTP_PROXY integrations support only PayloadFormatVersion 1.0")
	}
	limit := int32(30000)
	if a.isWebSocket() {
		limit = 29000
	}
	if t := aws.ToInt32(in.TimeoutInMillis); t < 50 || t > limit {
		return badRequest("Invalid TimeoutInMillis: %d. It must be between 50 and %d", t, limit)
	}
	return nil
}

// checkHTTPTarget checks an HTTP_PROXY integration: a method, and a URL on the internet, or,
// through a VPC link of the account, a load balancer listener ARN.
func (r *region) checkHTTPTarget(call *core.Call, a *api, in *types.Integration) error {
	uri := aws.ToString(in.IntegrationUri)
	if !a.isWebSocket() && aws.ToString(in.IntegrationMethod) == "" {
		return badRequest("IntegrationMethod is required for HTTP_PROXY integrations")
	}
	if in.ConnectionType == types.ConnectionTypeVpcLink {
		if !listenerARN.MatchString(uri) {
			return badRequest("Invalid integration URI specified: %s. Private integrations must target a load balancer listener or a Cloud Map service ARN", uri)
		}
		link := aws.ToString(in.ConnectionId)
		if _, ok := r.vpcLinks[link]; !ok {
			return notFound(call, "VpcLink", link)
		}
		return nil
	}
	if in.ConnectionId != nil {
		return badRequest("ConnectionId is supported only with ConnectionType VPC_LINK")
	}
	u, err := url.Parse(uri)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return badRequest("Invalid integration URI specified: %s. HTTP_PROXY integrations must target an HTTP or HTTPS URL", uri)
	}
	return nil
}

// defaults fills in what API Gateway sets when a request leaves it out: an internet
// connection, payload format 1.0 for WebSocket APIs and HTTP proxies (Lambda proxies of HTTP
// APIs must name theirs), the longest timeout, and POST to invoke Lambda.
func defaults(a *api, in *types.Integration) {
	if in.ConnectionType == "" {
		in.ConnectionType = types.ConnectionTypeInternet
	}
	if in.PayloadFormatVersion == nil && (a.isWebSocket() || in.IntegrationType == types.IntegrationTypeHttpProxy) {
		in.PayloadFormatVersion = aws.String("1.0")
	}
	if in.TimeoutInMillis == nil {
		in.TimeoutInMillis = aws.Int32(30000)
		if a.isWebSocket() {
			in.TimeoutInMillis = aws.Int32(29000)
		}
	}
	if in.IntegrationType == types.IntegrationTypeAwsProxy && in.IntegrationMethod == nil {
		in.IntegrationMethod = aws.String("POST")
	}
	if in.IntegrationMethod != nil {
		in.IntegrationMethod = aws.String(strings.ToUpper(*in.IntegrationMethod))
	}
	if a.isWebSocket() && in.PassthroughBehavior == "" && in.IntegrationType != types.IntegrationTypeAwsProxy && in.IntegrationType != types.IntegrationTypeHttpProxy {
		in.PassthroughBehavior = types.PassthroughBehaviorWhenNoMatch
	}
}

func (b *Backend) createIntegration(call *core.Call, in *apigatewayv2.CreateIntegrationInput) (*apigatewayv2.CreateIntegrationOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.CreateIntegrationOutput, error) {
		a, err := r.lookup(call, aws.ToString(in.ApiId))
		if err != nil {
			return nil, err
		}
		it := &types.Integration{
			IntegrationId: aws.String(core.LowerAlnumID(7)), IntegrationType: in.IntegrationType, IntegrationUri: in.IntegrationUri,
			IntegrationMethod: in.IntegrationMethod, ConnectionType: in.ConnectionType, ConnectionId: in.ConnectionId,
			PayloadFormatVersion: in.PayloadFormatVersion, TimeoutInMillis: in.TimeoutInMillis, Description: in.Description,
			CredentialsArn: in.CredentialsArn, RequestParameters: in.RequestParameters, RequestTemplates: in.RequestTemplates,
			ResponseParameters: in.ResponseParameters, TemplateSelectionExpression: in.TemplateSelectionExpression,
			ContentHandlingStrategy: in.ContentHandlingStrategy, PassthroughBehavior: in.PassthroughBehavior,
			IntegrationSubtype: in.IntegrationSubtype, ApiGatewayManaged: aws.Bool(false),
		}
		if in.TlsConfig != nil {
			it.TlsConfig = &types.TlsConfig{ServerNameToVerify: in.TlsConfig.ServerNameToVerify}
		}
		defaults(a, it)
		if err := r.checkIntegration(call, a, it); err != nil {
			return nil, err
		}
		return store[apigatewayv2.CreateIntegrationOutput](integrations, r, call, a, *it.IntegrationId, it)
	})
}

// getIntegration answers GetIntegration with the integration a request names.
func (b *Backend) getIntegration(call *core.Call, in *apigatewayv2.GetIntegrationInput) (*apigatewayv2.GetIntegrationOutput, error) {
	return apigateway.Read[apigatewayv2.GetIntegrationOutput](b.state, call, integrations.one(call, in.ApiId, in.IntegrationId))
}

// getIntegrations answers GetIntegrations with a page of the API's integrations, by id.
func (b *Backend) getIntegrations(call *core.Call, in *apigatewayv2.GetIntegrationsInput) (*apigatewayv2.GetIntegrationsOutput, error) {
	return apigateway.List[apigatewayv2.GetIntegrationsOutput](b.state, call, integrations.all(call, in.ApiId), page, in.NextToken, in.MaxResults)
}

func (b *Backend) updateIntegration(call *core.Call, in *apigatewayv2.UpdateIntegrationInput) (*apigatewayv2.UpdateIntegrationOutput, error) {
	return update[apigatewayv2.UpdateIntegrationOutput](integrations, b, call, in.ApiId, in.IntegrationId, func(r *region, a *api, it *types.Integration) error {
		if in.IntegrationType != "" {
			it.IntegrationType = in.IntegrationType
		}
		if in.ConnectionType != "" {
			it.ConnectionType = in.ConnectionType
			if in.ConnectionType == types.ConnectionTypeInternet {
				it.ConnectionId = nil
			}
		}
		it.IntegrationUri = first(in.IntegrationUri, it.IntegrationUri)
		it.IntegrationMethod = first(in.IntegrationMethod, it.IntegrationMethod)
		it.ConnectionId = first(in.ConnectionId, it.ConnectionId)
		it.PayloadFormatVersion = first(in.PayloadFormatVersion, it.PayloadFormatVersion)
		it.TimeoutInMillis = first(in.TimeoutInMillis, it.TimeoutInMillis)
		it.Description = first(in.Description, it.Description)
		it.CredentialsArn = first(in.CredentialsArn, it.CredentialsArn)
		if in.RequestParameters != nil {
			it.RequestParameters = in.RequestParameters
		}
		defaults(a, it)
		return r.checkIntegration(call, a, it)
	})
}

func (b *Backend) deleteIntegration(call *core.Call, in *apigatewayv2.DeleteIntegrationInput) (*apigatewayv2.DeleteIntegrationOutput, error) {
	return remove[apigatewayv2.DeleteIntegrationOutput](integrations, b, call, in.ApiId, in.IntegrationId, func(r *region, a *api, it *types.Integration) error {
		target := "integrations/" + aws.ToString(it.IntegrationId)
		for _, rt := range a.routes {
			if aws.ToString(rt.Target) == target {
				return conflict("Integration %s is used by route %s. Remove it from the route first", aws.ToString(it.IntegrationId), aws.ToString(rt.RouteKey))
			}
		}
		delete(a.integrations, aws.ToString(it.IntegrationId))
		r.changed(call, a)
		return nil
	})
}
