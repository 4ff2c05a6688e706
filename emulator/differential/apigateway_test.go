package differential

import (
	"context"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	gwtypes "github.com/aws/aws-sdk-go-v2/service/apigateway/types"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	v2types "github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// gateway is one side's API Gateway clients and the ids its steps follow.
type gateway struct {
	v1                                *apigateway.Client
	v2                                *apigatewayv2.Client
	restID, rootID, resID, deployID   *string
	apiID, wsID, integrationID, route *string
}

// gatewayLambda is the function both sides' integrations name.
const gatewayLambda = "arn:aws:lambda:us-east-1:123456789012:function:orders"

// restSteps is the API Gateway v1 sequence both sides run: a REST API with a resource, a
// method and its Lambda proxy integration, a deployment and stages patched with throttling,
// and the errors AWS documents.
func restSteps() []step[*gateway] {
	ctx := context.Background()
	return []step[*gateway]{
		{"CreateRestApi", func(g *gateway) outcome {
			out, err := g.v1.CreateRestApi(ctx, &apigateway.CreateRestApiInput{Name: aws.String("diff"), Tags: map[string]string{"k": "v"}})
			if err != nil {
				return observe(err, nil)
			}
			g.restID, g.rootID = out.Id, out.RootResourceId
			return observe(nil, map[string]string{"idLength": strconv.Itoa(len(aws.ToString(out.Id))), "keySource": string(out.ApiKeySource),
				"endpoint": string(out.EndpointConfiguration.Types[0])})
		}},
		{"GetRestApiMissing", func(g *gateway) outcome {
			_, err := g.v1.GetRestApi(ctx, &apigateway.GetRestApiInput{RestApiId: aws.String("zzzzzzzzzz")})
			return observe(err, nil)
		}},
		{"GetResourcesRoot", func(g *gateway) outcome {
			out, err := g.v1.GetResources(ctx, &apigateway.GetResourcesInput{RestApiId: g.restID})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"count": strconv.Itoa(len(out.Items)), "path": aws.ToString(out.Items[0].Path)})
		}},
		{"CreateResource", func(g *gateway) outcome {
			out, err := g.v1.CreateResource(ctx, &apigateway.CreateResourceInput{RestApiId: g.restID, ParentId: g.rootID, PathPart: aws.String("orders")})
			if err != nil {
				return observe(err, nil)
			}
			g.resID = out.Id
			return observe(nil, map[string]string{"path": aws.ToString(out.Path)})
		}},
		{"CreateResourceTwice", func(g *gateway) outcome {
			_, err := g.v1.CreateResource(ctx, &apigateway.CreateResourceInput{RestApiId: g.restID, ParentId: g.rootID, PathPart: aws.String("orders")})
			return observe(err, nil)
		}},
		{"CreateDeploymentWithoutMethods", func(g *gateway) outcome {
			_, err := g.v1.CreateDeployment(ctx, &apigateway.CreateDeploymentInput{RestApiId: g.restID})
			return observe(err, nil)
		}},
		{"PutMethod", func(g *gateway) outcome {
			out, err := g.v1.PutMethod(ctx, &apigateway.PutMethodInput{RestApiId: g.restID, ResourceId: g.resID, HttpMethod: aws.String("GET"),
				AuthorizationType: aws.String("NONE")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"method": aws.ToString(out.HttpMethod), "auth": aws.ToString(out.AuthorizationType)})
		}},
		{"PutMethodTwice", func(g *gateway) outcome {
			_, err := g.v1.PutMethod(ctx, &apigateway.PutMethodInput{RestApiId: g.restID, ResourceId: g.resID, HttpMethod: aws.String("GET"),
				AuthorizationType: aws.String("NONE")})
			return observe(err, nil)
		}},
		{"PutIntegration", func(g *gateway) outcome {
			out, err := g.v1.PutIntegration(ctx, &apigateway.PutIntegrationInput{RestApiId: g.restID, ResourceId: g.resID, HttpMethod: aws.String("GET"),
				Type: gwtypes.IntegrationTypeAwsProxy, IntegrationHttpMethod: aws.String("POST"),
				Uri: aws.String("arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/" + gatewayLambda + "/invocations")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"type": string(out.Type), "timeout": strconv.Itoa(int(out.TimeoutInMillis))})
		}},
		{"PutIntegrationMissingMethod", func(g *gateway) outcome {
			_, err := g.v1.PutIntegration(ctx, &apigateway.PutIntegrationInput{RestApiId: g.restID, ResourceId: g.resID, HttpMethod: aws.String("POST"),
				Type: gwtypes.IntegrationTypeMock})
			return observe(err, nil)
		}},
		{"CreateDeployment", func(g *gateway) outcome {
			out, err := g.v1.CreateDeployment(ctx, &apigateway.CreateDeploymentInput{RestApiId: g.restID, StageName: aws.String("prod")})
			if err != nil {
				return observe(err, nil)
			}
			g.deployID = out.Id
			return observe(nil, nil)
		}},
		{"CreateStageTwice", func(g *gateway) outcome {
			_, err := g.v1.CreateStage(ctx, &apigateway.CreateStageInput{RestApiId: g.restID, StageName: aws.String("prod"), DeploymentId: g.deployID})
			return observe(err, nil)
		}},
		{"UpdateStageThrottling", func(g *gateway) outcome {
			out, err := g.v1.UpdateStage(ctx, &apigateway.UpdateStageInput{RestApiId: g.restID, StageName: aws.String("prod"),
				PatchOperations: []gwtypes.PatchOperation{
					{Op: gwtypes.OpReplace, Path: aws.String("/*/*/throttling/rateLimit"), Value: aws.String("100")},
					{Op: gwtypes.OpReplace, Path: aws.String("/variables/color"), Value: aws.String("blue")},
				}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"rate": strconv.FormatFloat(out.MethodSettings["*/*"].ThrottlingRateLimit, 'f', -1, 64),
				"color": out.Variables["color"]})
		}},
		{"DeleteDeploymentInUse", func(g *gateway) outcome {
			_, err := g.v1.DeleteDeployment(ctx, &apigateway.DeleteDeploymentInput{RestApiId: g.restID, DeploymentId: g.deployID})
			return observe(err, nil)
		}},
		{"GetStageMissing", func(g *gateway) outcome {
			_, err := g.v1.GetStage(ctx, &apigateway.GetStageInput{RestApiId: g.restID, StageName: aws.String("nope")})
			return observe(err, nil)
		}},
		{"DeleteRestApi", func(g *gateway) outcome {
			_, err := g.v1.DeleteRestApi(ctx, &apigateway.DeleteRestApiInput{RestApiId: g.restID})
			return observe(err, nil)
		}},
	}
}

// httpSteps is the API Gateway v2 sequence both sides run: HTTP and WebSocket APIs, a Lambda
// proxy integration, routes, an auto-deploy stage, and the errors AWS documents.
func httpSteps() []step[*gateway] {
	ctx := context.Background()
	return []step[*gateway]{
		{"CreateApi", func(g *gateway) outcome {
			out, err := g.v2.CreateApi(ctx, &apigatewayv2.CreateApiInput{Name: aws.String("diff"), ProtocolType: v2types.ProtocolTypeHttp,
				CorsConfiguration: &v2types.Cors{AllowOrigins: []string{"https://example.com"}}})
			if err != nil {
				return observe(err, nil)
			}
			g.apiID = out.ApiId
			return observe(nil, map[string]string{"idLength": strconv.Itoa(len(aws.ToString(out.ApiId))),
				"selection": aws.ToString(out.RouteSelectionExpression)})
		}},
		{"CreateWebSocketApi", func(g *gateway) outcome {
			out, err := g.v2.CreateApi(ctx, &apigatewayv2.CreateApiInput{Name: aws.String("chat"), ProtocolType: v2types.ProtocolTypeWebsocket,
				RouteSelectionExpression: aws.String("$request.body.action")})
			if err != nil {
				return observe(err, nil)
			}
			g.wsID = out.ApiId
			return observe(nil, map[string]string{"selection": aws.ToString(out.RouteSelectionExpression)})
		}},
		{"GetApiMissing", func(g *gateway) outcome {
			_, err := g.v2.GetApi(ctx, &apigatewayv2.GetApiInput{ApiId: aws.String("zzzzzzzzzz")})
			return observe(err, nil)
		}},
		{"CreateIntegration", func(g *gateway) outcome {
			out, err := g.v2.CreateIntegration(ctx, &apigatewayv2.CreateIntegrationInput{ApiId: g.apiID, IntegrationType: v2types.IntegrationTypeAwsProxy,
				IntegrationUri: aws.String(gatewayLambda), PayloadFormatVersion: aws.String("2.0")})
			if err != nil {
				return observe(err, nil)
			}
			g.integrationID = out.IntegrationId
			return observe(nil, map[string]string{"type": string(out.IntegrationType), "payload": aws.ToString(out.PayloadFormatVersion)})
		}},
		{"CreateRoute", func(g *gateway) outcome {
			out, err := g.v2.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: g.apiID, RouteKey: aws.String("GET /orders"),
				Target: aws.String("integrations/" + aws.ToString(g.integrationID))})
			if err != nil {
				return observe(err, nil)
			}
			g.route = out.RouteId
			return observe(nil, map[string]string{"key": aws.ToString(out.RouteKey), "auth": string(out.AuthorizationType)})
		}},
		{"CreateRouteBadKey", func(g *gateway) outcome {
			_, err := g.v2.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: g.apiID, RouteKey: aws.String("FETCH orders")})
			return observe(err, nil)
		}},
		{"CreateWebSocketRoute", func(g *gateway) outcome {
			out, err := g.v2.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: g.wsID, RouteKey: aws.String("$connect")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"key": aws.ToString(out.RouteKey)})
		}},
		{"CreateStage", func(g *gateway) outcome {
			out, err := g.v2.CreateStage(ctx, &apigatewayv2.CreateStageInput{ApiId: g.apiID, StageName: aws.String("$default"), AutoDeploy: aws.Bool(true),
				DefaultRouteSettings: &v2types.RouteSettings{ThrottlingBurstLimit: aws.Int32(10), ThrottlingRateLimit: aws.Float64(5)}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"auto": strconv.FormatBool(aws.ToBool(out.AutoDeploy)),
				"burst": strconv.Itoa(int(aws.ToInt32(out.DefaultRouteSettings.ThrottlingBurstLimit)))})
		}},
		{"GetStageMissing", func(g *gateway) outcome {
			_, err := g.v2.GetStage(ctx, &apigatewayv2.GetStageInput{ApiId: g.apiID, StageName: aws.String("nope")})
			return observe(err, nil)
		}},
		{"GetRoutes", func(g *gateway) outcome {
			out, err := g.v2.GetRoutes(ctx, &apigatewayv2.GetRoutesInput{ApiId: g.apiID})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"count": strconv.Itoa(len(out.Items))})
		}},
		{"DeleteRoute", func(g *gateway) outcome {
			_, err := g.v2.DeleteRoute(ctx, &apigatewayv2.DeleteRouteInput{ApiId: g.apiID, RouteId: g.route})
			return observe(err, nil)
		}},
		{"DeleteApi", func(g *gateway) outcome {
			_, err := g.v2.DeleteApi(ctx, &apigatewayv2.DeleteApiInput{ApiId: g.apiID})
			return observe(err, nil)
		}},
	}
}

// TestAPIGatewayAgainstMoto runs the v1 and v2 sequences on the emulator and on moto_server.
func TestAPIGatewayAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	side := func(url string) *gateway {
		cfg := sdkConfig(t, url)
		return &gateway{v1: apigateway.NewFromConfig(cfg), v2: apigatewayv2.NewFromConfig(cfg)}
	}
	emuSide, peerSide := side(emu.URL), side(peerURL)
	compare(t, emuSide, peerSide, "moto "+motoVersion, restSteps(), map[string]string{
		"CreateResourceTwice": "moto creates a second resource with its sibling's path part; AWS answers ConflictException " +
			"(Another resource with the same parent already has this name)",
		"PutMethodTwice": "moto replaces an existing method; AWS answers ConflictException (Method already exists for this resource)",
		"PutIntegration": "moto reports timeoutInMillis 0 when the request names none; AWS applies its default of 29000 ms " +
			"(PutIntegration, timeoutInMillis: default 29,000 milliseconds)",
	})
	compare(t, emuSide, peerSide, "moto "+motoVersion, httpSteps(), map[string]string{
		"CreateApi": "moto gives 8-character API ids and the selection expression $request.method $request.path; AWS gives " +
			"10-character ids and ${request.method} ${request.path}, the only expression of HTTP APIs (Working with routes for HTTP APIs)",
		"CreateRouteBadKey": "moto accepts any route key on an HTTP API; AWS requires $default or an HTTP method and a path " +
			"starting with / (Working with routes for HTTP APIs) and answers BadRequestException",
		"GetRoutes": "follows from CreateRouteBadKey: moto lists the route with the invalid key it accepted",
	})
}
