package emulator_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestAPIGatewayV2Changes checks the v2 calls that change what exists in place: an HTTP API's
// CORS configuration deleted, a stage's access logging turned off, a domain name's certificate
// replaced, an API mapping moved to
// another stage and key, and AWS_IAM authorization on routes (on a WebSocket API, $connect
// only).
func TestAPIGatewayV2Changes(t *testing.T) {
	env := apiGatewayClients(t, emulator.Options{})
	ctx := context.Background()
	api, err := env.v2.CreateApi(ctx, &apigatewayv2.CreateApiInput{Name: aws.String("orders"), ProtocolType: types.ProtocolTypeHttp,
		CorsConfiguration: &types.Cors{AllowOrigins: []string{"https://example.com"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.v2.DeleteCorsConfiguration(ctx, &apigatewayv2.DeleteCorsConfigurationInput{ApiId: api.ApiId}); err != nil {
		t.Fatal(err)
	}
	if got, err := env.v2.GetApi(ctx, &apigatewayv2.GetApiInput{ApiId: api.ApiId}); err != nil || got.CorsConfiguration != nil {
		t.Errorf("GetApi after DeleteCorsConfiguration = %+v, %v", got, err)
	}
	_, err = env.v2.DeleteCorsConfiguration(ctx, &apigatewayv2.DeleteCorsConfigurationInput{ApiId: api.ApiId})
	wantCode(t, "deleting a missing CORS configuration", err, "NotFoundException")

	it, err := env.v2.CreateIntegration(ctx, &apigatewayv2.CreateIntegrationInput{ApiId: api.ApiId, IntegrationType: types.IntegrationTypeAwsProxy,
		IntegrationUri: aws.String(lambdaARN), PayloadFormatVersion: aws.String("2.0")})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := env.v2.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: api.ApiId, RouteKey: aws.String("GET /orders"),
		Target: aws.String("integrations/" + aws.ToString(it.IntegrationId)), AuthorizationType: types.AuthorizationTypeAwsIam})
	if err != nil || rt.AuthorizationType != types.AuthorizationTypeAwsIam {
		t.Fatalf("CreateRoute with AWS_IAM = %+v, %v", rt, err)
	}
	up, err := env.v2.UpdateRoute(ctx, &apigatewayv2.UpdateRouteInput{ApiId: api.ApiId, RouteId: rt.RouteId, AuthorizationType: types.AuthorizationTypeNone})
	if err != nil || up.AuthorizationType != types.AuthorizationTypeNone {
		t.Errorf("UpdateRoute to NONE = %+v, %v", up, err)
	}
	_, err = env.v2.UpdateRoute(ctx, &apigatewayv2.UpdateRouteInput{ApiId: api.ApiId, RouteId: rt.RouteId, AuthorizationType: types.AuthorizationTypeJwt})
	wantCode(t, "a JWT authorizer", err, "BadRequestException")
	ws, err := env.v2.CreateApi(ctx, &apigatewayv2.CreateApiInput{Name: aws.String("chat"), ProtocolType: types.ProtocolTypeWebsocket,
		RouteSelectionExpression: aws.String("$request.body.action")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = env.v2.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: ws.ApiId, RouteKey: aws.String("sendmessage"), AuthorizationType: types.AuthorizationTypeAwsIam})
	wantCode(t, "AWS_IAM on a WebSocket route other than $connect", err, "BadRequestException")
	if _, err := env.v2.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: ws.ApiId, RouteKey: aws.String("$connect"), AuthorizationType: types.AuthorizationTypeAwsIam}); err != nil {
		t.Errorf("AWS_IAM on $connect: %v", err)
	}

	first, second := env.certificate(t, "api.example.com"), env.certificate(t, "api.example.com")
	dn, err := env.v2.CreateDomainName(ctx, &apigatewayv2.CreateDomainNameInput{DomainName: aws.String("api.example.com"),
		DomainNameConfigurations: []types.DomainNameConfiguration{{CertificateArn: first}}})
	if err != nil {
		t.Fatal(err)
	}
	target := dn.DomainNameConfigurations[0].ApiGatewayDomainName
	_, err = env.v2.UpdateDomainName(ctx, &apigatewayv2.UpdateDomainNameInput{DomainName: dn.DomainName,
		DomainNameConfigurations: []types.DomainNameConfiguration{{CertificateArn: aws.String("arn:aws:acm:us-east-1:000000000000:certificate/none")}}})
	wantCode(t, "a missing certificate", err, "BadRequestException")
	ud, err := env.v2.UpdateDomainName(ctx, &apigatewayv2.UpdateDomainNameInput{DomainName: dn.DomainName,
		DomainNameConfigurations: []types.DomainNameConfiguration{{CertificateArn: second}}})
	if err != nil {
		t.Fatal(err)
	}
	if c := ud.DomainNameConfigurations[0]; aws.ToString(c.CertificateArn) != aws.ToString(second) || aws.ToString(c.ApiGatewayDomainName) != aws.ToString(target) ||
		c.EndpointType != types.EndpointTypeRegional {
		t.Errorf("UpdateDomainName = %+v", c)
	}
	for _, stage := range []string{"prod", "beta"} {
		if _, err := env.v2.CreateStage(ctx, &apigatewayv2.CreateStageInput{ApiId: api.ApiId, StageName: aws.String(stage)}); err != nil {
			t.Fatal(err)
		}
	}
	logs := &types.AccessLogSettings{DestinationArn: aws.String("arn:aws:logs:us-east-1:000000000000:log-group:access"), Format: aws.String("$context.requestId")}
	if _, err := env.v2.UpdateStage(ctx, &apigatewayv2.UpdateStageInput{ApiId: api.ApiId, StageName: aws.String("prod"), AccessLogSettings: logs}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.v2.DeleteAccessLogSettings(ctx, &apigatewayv2.DeleteAccessLogSettingsInput{ApiId: api.ApiId, StageName: aws.String("prod")}); err != nil {
		t.Fatal(err)
	}
	if st, err := env.v2.GetStage(ctx, &apigatewayv2.GetStageInput{ApiId: api.ApiId, StageName: aws.String("prod")}); err != nil || st.AccessLogSettings != nil {
		t.Errorf("stage after DeleteAccessLogSettings = %+v, %v", st, err)
	}
	m, err := env.v2.CreateApiMapping(ctx, &apigatewayv2.CreateApiMappingInput{DomainName: dn.DomainName, ApiId: api.ApiId, Stage: aws.String("prod")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = env.v2.UpdateApiMapping(ctx, &apigatewayv2.UpdateApiMappingInput{DomainName: dn.DomainName, ApiMappingId: m.ApiMappingId, ApiId: api.ApiId,
		Stage: aws.String("gone")})
	wantCode(t, "mapping to a missing stage", err, "NotFoundException")
	um, err := env.v2.UpdateApiMapping(ctx, &apigatewayv2.UpdateApiMappingInput{DomainName: dn.DomainName, ApiMappingId: m.ApiMappingId, ApiId: api.ApiId,
		Stage: aws.String("beta"), ApiMappingKey: aws.String("v2")})
	if err != nil || aws.ToString(um.Stage) != "beta" || aws.ToString(um.ApiMappingKey) != "v2" {
		t.Fatalf("UpdateApiMapping = %+v, %v", um, err)
	}
	gm, err := env.v2.GetApiMapping(ctx, &apigatewayv2.GetApiMappingInput{DomainName: dn.DomainName, ApiMappingId: m.ApiMappingId})
	if err != nil || aws.ToString(gm.Stage) != "beta" || aws.ToString(gm.ApiMappingKey) != "v2" {
		t.Errorf("GetApiMapping after the update = %+v, %v", gm, err)
	}
}
