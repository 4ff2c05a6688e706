package differential

import (
	"context"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	gwtypes "github.com/aws/aws-sdk-go-v2/service/apigateway/types"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	v2types "github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// gatewayChanges is one side's clients for the update sequence and the ids its steps follow.
type gatewayChanges struct {
	v1                        *apigateway.Client
	v2                        *apigatewayv2.Client
	acm                       *acm.Client
	certARN, apiID, mappingID *string
}

// updateSteps is the sequence of the API Gateway operations an operator uses to change what it
// made: removing an HTTP API's CORS configuration and a stage's access log settings, changing
// v1 and v2 custom domain names in place and moving an API mapping to another key.
func updateSteps() []step[*gatewayChanges] {
	ctx := context.Background()
	return []step[*gatewayChanges]{
		{"RequestCertificate", func(g *gatewayChanges) outcome {
			out, err := g.acm.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("api.example.com"),
				SubjectAlternativeNames: []string{"rest.example.com"}})
			if err != nil {
				return observe(err, nil)
			}
			g.certARN = out.CertificateArn
			return observe(nil, nil)
		}},
		{"CreateApiWithStage", func(g *gatewayChanges) outcome {
			out, err := g.v2.CreateApi(ctx, &apigatewayv2.CreateApiInput{Name: aws.String("changes"), ProtocolType: v2types.ProtocolTypeHttp,
				CorsConfiguration: &v2types.Cors{AllowOrigins: []string{"https://example.com"}}})
			if err != nil {
				return observe(err, nil)
			}
			g.apiID = out.ApiId
			_, err = g.v2.CreateStage(ctx, &apigatewayv2.CreateStageInput{ApiId: g.apiID, StageName: aws.String("prod"),
				AccessLogSettings: &v2types.AccessLogSettings{DestinationArn: aws.String("arn:aws:logs:us-east-1:123456789012:log-group:api"),
					Format: aws.String("$context.requestId")}})
			return observe(err, nil)
		}},
		{"DeleteCorsConfiguration", func(g *gatewayChanges) outcome {
			if _, err := g.v2.DeleteCorsConfiguration(ctx, &apigatewayv2.DeleteCorsConfigurationInput{ApiId: g.apiID}); err != nil {
				return observe(err, nil)
			}
			out, err := g.v2.GetApi(ctx, &apigatewayv2.GetApiInput{ApiId: g.apiID})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"cors": strconv.FormatBool(out.CorsConfiguration != nil)})
		}},
		{"DeleteAccessLogSettings", func(g *gatewayChanges) outcome {
			if _, err := g.v2.DeleteAccessLogSettings(ctx, &apigatewayv2.DeleteAccessLogSettingsInput{ApiId: g.apiID, StageName: aws.String("prod")}); err != nil {
				return observe(err, nil)
			}
			out, err := g.v2.GetStage(ctx, &apigatewayv2.GetStageInput{ApiId: g.apiID, StageName: aws.String("prod")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"accessLog": strconv.FormatBool(out.AccessLogSettings != nil)})
		}},
		{"CreateDomainNameV2", func(g *gatewayChanges) outcome {
			_, err := g.v2.CreateDomainName(ctx, &apigatewayv2.CreateDomainNameInput{DomainName: aws.String("api.example.com"),
				DomainNameConfigurations: []v2types.DomainNameConfiguration{{CertificateArn: g.certARN, EndpointType: v2types.EndpointTypeRegional}}})
			return observe(err, nil)
		}},
		{"UpdateDomainNameV2", func(g *gatewayChanges) outcome {
			out, err := g.v2.UpdateDomainName(ctx, &apigatewayv2.UpdateDomainNameInput{DomainName: aws.String("api.example.com"),
				DomainNameConfigurations: []v2types.DomainNameConfiguration{{CertificateArn: g.certARN, EndpointType: v2types.EndpointTypeRegional,
					SecurityPolicy: v2types.SecurityPolicyTls12}}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"policy": string(out.DomainNameConfigurations[0].SecurityPolicy)})
		}},
		{"CreateApiMapping", func(g *gatewayChanges) outcome {
			out, err := g.v2.CreateApiMapping(ctx, &apigatewayv2.CreateApiMappingInput{DomainName: aws.String("api.example.com"), ApiId: g.apiID,
				Stage: aws.String("prod"), ApiMappingKey: aws.String("v1")})
			if err != nil {
				return observe(err, nil)
			}
			g.mappingID = out.ApiMappingId
			return observe(nil, map[string]string{"key": aws.ToString(out.ApiMappingKey)})
		}},
		{"UpdateApiMapping", func(g *gatewayChanges) outcome {
			out, err := g.v2.UpdateApiMapping(ctx, &apigatewayv2.UpdateApiMappingInput{DomainName: aws.String("api.example.com"), ApiId: g.apiID,
				ApiMappingId: g.mappingID, ApiMappingKey: aws.String("v2")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"key": aws.ToString(out.ApiMappingKey), "stage": aws.ToString(out.Stage)})
		}},
		{"CreateDomainNameV1", func(g *gatewayChanges) outcome {
			_, err := g.v1.CreateDomainName(ctx, &apigateway.CreateDomainNameInput{DomainName: aws.String("rest.example.com"),
				RegionalCertificateArn: g.certARN, EndpointConfiguration: &gwtypes.EndpointConfiguration{Types: []gwtypes.EndpointType{gwtypes.EndpointTypeRegional}}})
			return observe(err, nil)
		}},
		{"UpdateDomainNameV1", func(g *gatewayChanges) outcome {
			out, err := g.v1.UpdateDomainName(ctx, &apigateway.UpdateDomainNameInput{DomainName: aws.String("rest.example.com"),
				PatchOperations: []gwtypes.PatchOperation{{Op: gwtypes.OpReplace, Path: aws.String("/securityPolicy"), Value: aws.String("TLS_1_2")}}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"policy": string(out.SecurityPolicy)})
		}},
		{"UpdateDomainNameV1Missing", func(g *gatewayChanges) outcome {
			_, err := g.v1.UpdateDomainName(ctx, &apigateway.UpdateDomainNameInput{DomainName: aws.String("missing.example.com"),
				PatchOperations: []gwtypes.PatchOperation{{Op: gwtypes.OpReplace, Path: aws.String("/securityPolicy"), Value: aws.String("TLS_1_2")}}})
			return observe(err, nil)
		}},
	}
}

// TestAPIGatewayUpdatesAgainstMoto runs the update sequence on the emulator and on moto_server.
func TestAPIGatewayUpdatesAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	side := func(url string) *gatewayChanges {
		cfg := sdkConfig(t, url)
		return &gatewayChanges{v1: apigateway.NewFromConfig(cfg), v2: apigatewayv2.NewFromConfig(cfg), acm: acm.NewFromConfig(cfg)}
	}
	compare(t, side(emu.URL), side(peerURL), "moto "+motoVersion, updateSteps(), map[string]string{
		"DeleteAccessLogSettings": "moto does not implement DeleteAccessLogSettings (404); AWS deletes the stage's access log " +
			"settings, so GetStage then has none (DeleteAccessLogSettings, API Gateway v2 API Reference)",
		"UpdateDomainNameV2": "moto does not implement UpdateDomainName (500); AWS replaces the domain's configurations, here " +
			"its security policy (UpdateDomainName, API Gateway v2 API Reference)",
		"UpdateApiMapping": "moto does not implement UpdateApiMapping (500); AWS changes the mapping's key in place and keeps " +
			"what the request does not name, the stage (UpdateApiMapping, API Gateway v2 API Reference)",
		"UpdateDomainNameV1": "moto does not implement UpdateDomainName for REST domains (500); AWS applies the patch " +
			"operation to the domain name (UpdateDomainName, API Gateway v1 API Reference)",
		"UpdateDomainNameV1Missing": "follows from UpdateDomainNameV1: moto answers 500 where AWS answers NotFoundException",
	})
}
