package emulator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"
	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"github.com/runner-codes/infra-operator/emulator"
)

// apiGatewayEnv is an emulator with the clients API Gateway tests use.
type apiGatewayEnv struct {
	e   *emulator.Server
	v2  *apigatewayv2.Client
	acm *acm.Client
	ec2 *ec2.Client
	url string
}

// apiGatewayClients starts an emulator with a frozen clock and returns its clients of us-east-1.
func apiGatewayClients(t *testing.T, opts emulator.Options) apiGatewayEnv {
	t.Helper()
	e, url := start(t, opts)
	e.Clock.Freeze()
	cfg := sdkConfig(t, url, "AKID", 1)
	return apiGatewayEnv{e: e, v2: apigatewayv2.NewFromConfig(cfg), acm: acm.NewFromConfig(cfg), ec2: ec2.NewFromConfig(cfg), url: url}
}

// certificate requests a certificate for domain from the emulated ACM and returns its ARN.
func (env apiGatewayEnv) certificate(t *testing.T, domain string) *string {
	t.Helper()
	out, err := env.acm.RequestCertificate(context.Background(), &acm.RequestCertificateInput{DomainName: aws.String(domain), ValidationMethod: "DNS"})
	if err != nil {
		t.Fatal(err)
	}
	return out.CertificateArn
}

// httpAPI creates an HTTP API and returns its id.
func (env apiGatewayEnv) httpAPI(t *testing.T, name string) *string {
	t.Helper()
	out, err := env.v2.CreateApi(context.Background(), &apigatewayv2.CreateApiInput{Name: aws.String(name), ProtocolType: types.ProtocolTypeHttp})
	if err != nil {
		t.Fatal(err)
	}
	return out.ApiId
}

// lambdaARN is the function the integrations of the tests target.
const lambdaARN = "arn:aws:lambda:us-east-1:000000000000:function:orders"

// TestAPIGatewayV2API checks the lifecycle of HTTP and WebSocket APIs: their ids, endpoints,
// route selection expressions and CORS, listing with pagination, updates and deletion.
func TestAPIGatewayV2API(t *testing.T) {
	env := apiGatewayClients(t, emulator.Options{})
	ctx := context.Background()
	created, err := env.v2.CreateApi(ctx, &apigatewayv2.CreateApiInput{Name: aws.String("orders"), ProtocolType: types.ProtocolTypeHttp,
		CorsConfiguration: &types.Cors{AllowOrigins: []string{"https://example.com"}, AllowMethods: []string{"GET"}},
		Tags:              map[string]string{"team": "a"}})
	if err != nil {
		t.Fatal(err)
	}
	id := aws.ToString(created.ApiId)
	if len(id) != 10 || strings.ToLower(id) != id {
		t.Errorf("ApiId %q is not 10 lower-case alphanumerics", id)
	}
	if got, want := aws.ToString(created.ApiEndpoint), "https://"+id+".execute-api.us-east-1.amazonaws.com"; got != want {
		t.Errorf("ApiEndpoint %q, want %q", got, want)
	}
	if got := aws.ToString(created.RouteSelectionExpression); got != "${request.method} ${request.path}" {
		t.Errorf("RouteSelectionExpression %q", got)
	}
	got, err := env.v2.GetApi(ctx, &apigatewayv2.GetApiInput{ApiId: created.ApiId})
	if err != nil {
		t.Fatal(err)
	}
	if got.Tags["team"] != "a" || got.CorsConfiguration == nil || got.CorsConfiguration.AllowOrigins[0] != "https://example.com" {
		t.Errorf("GetApi = tags %v, cors %+v", got.Tags, got.CorsConfiguration)
	}
	ws, err := env.v2.CreateApi(ctx, &apigatewayv2.CreateApiInput{Name: aws.String("chat"), ProtocolType: types.ProtocolTypeWebsocket,
		RouteSelectionExpression: aws.String("$request.body.action")})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(aws.ToString(ws.ApiEndpoint), "wss://") {
		t.Errorf("WebSocket ApiEndpoint %q", aws.ToString(ws.ApiEndpoint))
	}
	for name, in := range map[string]*apigatewayv2.CreateApiInput{
		"websocket without selection": {Name: aws.String("x"), ProtocolType: types.ProtocolTypeWebsocket},
		"websocket with cors": {Name: aws.String("x"), ProtocolType: types.ProtocolTypeWebsocket, RouteSelectionExpression: aws.String("$request.body.a"),
			CorsConfiguration: &types.Cors{AllowOrigins: []string{"*"}}},
		"bad protocol": {Name: aws.String("x"), ProtocolType: "REST"},
		"credentials with wildcard": {Name: aws.String("x"), ProtocolType: types.ProtocolTypeHttp,
			CorsConfiguration: &types.Cors{AllowOrigins: []string{"*"}, AllowCredentials: aws.Bool(true)}},
	} {
		_, err := env.v2.CreateApi(ctx, in)
		wantCode(t, name, err, "BadRequestException")
	}
	first, err := env.v2.GetApis(ctx, &apigatewayv2.GetApisInput{MaxResults: aws.String("1")})
	if err != nil {
		t.Fatal(err)
	}
	second, err := env.v2.GetApis(ctx, &apigatewayv2.GetApisInput{MaxResults: aws.String("1"), NextToken: first.NextToken})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Items) != 1 || len(second.Items) != 1 || second.NextToken != nil || aws.ToString(first.Items[0].ApiId) == aws.ToString(second.Items[0].ApiId) {
		t.Errorf("GetApis pages: %d items then %d, next %v", len(first.Items), len(second.Items), second.NextToken)
	}
	updated, err := env.v2.UpdateApi(ctx, &apigatewayv2.UpdateApiInput{ApiId: created.ApiId, Name: aws.String("orders-v2"), Description: aws.String("d")})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(updated.Name) != "orders-v2" || aws.ToString(updated.Description) != "d" || updated.CorsConfiguration == nil {
		t.Errorf("UpdateApi = %q %q cors %v", aws.ToString(updated.Name), aws.ToString(updated.Description), updated.CorsConfiguration)
	}
	_, err = env.v2.UpdateApi(ctx, &apigatewayv2.UpdateApiInput{ApiId: ws.ApiId, CorsConfiguration: &types.Cors{AllowOrigins: []string{"*"}}})
	wantCode(t, "CORS on a WebSocket API", err, "BadRequestException")
	if _, err := env.v2.DeleteApi(ctx, &apigatewayv2.DeleteApiInput{ApiId: created.ApiId}); err != nil {
		t.Fatal(err)
	}
	_, err = env.v2.GetApi(ctx, &apigatewayv2.GetApiInput{ApiId: created.ApiId})
	wantCode(t, "deleted API", err, "NotFoundException")
	if err == nil || !strings.Contains(err.Error(), "Invalid API identifier specified 000000000000:"+id) {
		t.Errorf("deleted API error %v", err)
	}
}

// TestAPIGatewayV2Routes checks routes and integrations: route key rules per protocol,
// duplicate keys, targets naming integrations, integration types and URIs, and that an
// integration in use cannot be deleted.
func TestAPIGatewayV2Routes(t *testing.T) {
	env := apiGatewayClients(t, emulator.Options{})
	ctx := context.Background()
	api := env.httpAPI(t, "orders")
	integ, err := env.v2.CreateIntegration(ctx, &apigatewayv2.CreateIntegrationInput{ApiId: api, IntegrationType: types.IntegrationTypeAwsProxy,
		IntegrationUri: aws.String(lambdaARN), PayloadFormatVersion: aws.String("2.0")})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToInt32(integ.TimeoutInMillis) != 30000 || integ.ConnectionType != types.ConnectionTypeInternet || aws.ToString(integ.IntegrationMethod) != "POST" {
		t.Errorf("integration defaults: timeout %d, connection %s, method %q", aws.ToInt32(integ.TimeoutInMillis), integ.ConnectionType, aws.ToString(integ.IntegrationMethod))
	}
	for name, in := range map[string]*apigatewayv2.CreateIntegrationInput{
		"no payload version": {IntegrationType: types.IntegrationTypeAwsProxy, IntegrationUri: aws.String(lambdaARN)},
		"not a function":     {IntegrationType: types.IntegrationTypeAwsProxy, IntegrationUri: aws.String("arn:aws:s3:::b"), PayloadFormatVersion: aws.String("2.0")},
		"HTTP on HTTP API":   {IntegrationType: types.IntegrationTypeHttp, IntegrationUri: aws.String("https://example.com"), IntegrationMethod: aws.String("GET")},
		"proxy without URL":  {IntegrationType: types.IntegrationTypeHttpProxy, IntegrationUri: aws.String("example"), IntegrationMethod: aws.String("GET"), PayloadFormatVersion: aws.String("1.0")},
	} {
		in.ApiId = api
		_, err := env.v2.CreateIntegration(ctx, in)
		wantCode(t, name, err, "BadRequestException")
	}
	target := aws.String("integrations/" + aws.ToString(integ.IntegrationId))
	route, err := env.v2.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: api, RouteKey: aws.String("GET /orders/{id}"), Target: target})
	if err != nil {
		t.Fatal(err)
	}
	if route.AuthorizationType != types.AuthorizationTypeNone {
		t.Errorf("AuthorizationType %q", route.AuthorizationType)
	}
	if _, err := env.v2.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: api, RouteKey: aws.String("$default"), Target: target}); err != nil {
		t.Fatal(err)
	}
	_, err = env.v2.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: api, RouteKey: aws.String("GET /orders/{id}")})
	wantCode(t, "duplicate route key", err, "ConflictException")
	for _, key := range []string{"$connect", "FETCH /x", "GET orders", ""} {
		_, err = env.v2.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: api, RouteKey: aws.String(key)})
		wantCode(t, "route key "+key, err, "BadRequestException")
	}
	_, err = env.v2.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: api, RouteKey: aws.String("POST /x"), Target: aws.String("integrations/nope")})
	wantCode(t, "unknown target", err, "BadRequestException")
	ws, err := env.v2.CreateApi(ctx, &apigatewayv2.CreateApiInput{Name: aws.String("chat"), ProtocolType: types.ProtocolTypeWebsocket,
		RouteSelectionExpression: aws.String("$request.body.action")})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"$connect", "$disconnect", "$default", "sendMessage"} {
		if _, err := env.v2.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: ws.ApiId, RouteKey: aws.String(key)}); err != nil {
			t.Errorf("WebSocket route %s: %v", key, err)
		}
	}
	updated, err := env.v2.UpdateRoute(ctx, &apigatewayv2.UpdateRouteInput{ApiId: api, RouteId: route.RouteId, RouteKey: aws.String("PUT /orders/{id}")})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(updated.RouteKey) != "PUT /orders/{id}" || aws.ToString(updated.Target) != aws.ToString(target) {
		t.Errorf("UpdateRoute = %q -> %q", aws.ToString(updated.RouteKey), aws.ToString(updated.Target))
	}
	got, err := env.v2.GetRoute(ctx, &apigatewayv2.GetRouteInput{ApiId: api, RouteId: route.RouteId})
	if err != nil || aws.ToString(got.RouteKey) != "PUT /orders/{id}" {
		t.Fatalf("GetRoute = %v, %v", got, err)
	}
	routes, err := env.v2.GetRoutes(ctx, &apigatewayv2.GetRoutesInput{ApiId: api})
	if err != nil || len(routes.Items) != 2 {
		t.Fatalf("GetRoutes = %v, %v", routes, err)
	}
	_, err = env.v2.DeleteIntegration(ctx, &apigatewayv2.DeleteIntegrationInput{ApiId: api, IntegrationId: integ.IntegrationId})
	wantCode(t, "integration in use", err, "ConflictException")
	upd, err := env.v2.UpdateIntegration(ctx, &apigatewayv2.UpdateIntegrationInput{ApiId: api, IntegrationId: integ.IntegrationId, TimeoutInMillis: aws.Int32(5000)})
	if err != nil || aws.ToInt32(upd.TimeoutInMillis) != 5000 || aws.ToString(upd.IntegrationUri) != lambdaARN {
		t.Fatalf("UpdateIntegration = %v, %v", upd, err)
	}
	gi, err := env.v2.GetIntegration(ctx, &apigatewayv2.GetIntegrationInput{ApiId: api, IntegrationId: integ.IntegrationId})
	if err != nil || aws.ToInt32(gi.TimeoutInMillis) != 5000 {
		t.Fatalf("GetIntegration = %v, %v", gi, err)
	}
	for _, r := range routes.Items {
		if _, err := env.v2.DeleteRoute(ctx, &apigatewayv2.DeleteRouteInput{ApiId: api, RouteId: r.RouteId}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := env.v2.DeleteIntegration(ctx, &apigatewayv2.DeleteIntegrationInput{ApiId: api, IntegrationId: integ.IntegrationId}); err != nil {
		t.Fatal(err)
	}
	list, err := env.v2.GetIntegrations(ctx, &apigatewayv2.GetIntegrationsInput{ApiId: api})
	if err != nil || len(list.Items) != 0 {
		t.Fatalf("GetIntegrations after delete = %v, %v", list, err)
	}
}

// TestAPIGatewayV2Stages checks stages and deployments: an auto-deploy stage gets a new
// deployment on every route change, route settings must name routes, throttling and access
// logs are kept, and a deployment a stage uses cannot be deleted.
func TestAPIGatewayV2Stages(t *testing.T) {
	env := apiGatewayClients(t, emulator.Options{})
	ctx := context.Background()
	api := env.httpAPI(t, "orders")
	_, err := env.v2.CreateDeployment(ctx, &apigatewayv2.CreateDeploymentInput{ApiId: api})
	wantCode(t, "deployment without routes", err, "BadRequestException")
	auto, err := env.v2.CreateStage(ctx, &apigatewayv2.CreateStageInput{ApiId: api, StageName: aws.String("$default"), AutoDeploy: aws.Bool(true),
		DefaultRouteSettings: &types.RouteSettings{ThrottlingBurstLimit: aws.Int32(100), ThrottlingRateLimit: aws.Float64(50)},
		AccessLogSettings: &types.AccessLogSettings{DestinationArn: aws.String("arn:aws:logs:us-east-1:000000000000:log-group:access"),
			Format: aws.String("$context.requestId")}, Tags: map[string]string{"env": "prod"}})
	if err != nil {
		t.Fatal(err)
	}
	firstDeployment := aws.ToString(auto.DeploymentId)
	if firstDeployment == "" || aws.ToFloat64(auto.DefaultRouteSettings.ThrottlingRateLimit) != 50 || auto.Tags["env"] != "prod" {
		t.Errorf("CreateStage = deployment %q, settings %+v, tags %v", firstDeployment, auto.DefaultRouteSettings, auto.Tags)
	}
	_, err = env.v2.CreateStage(ctx, &apigatewayv2.CreateStageInput{ApiId: api, StageName: aws.String("$default")})
	wantCode(t, "duplicate stage", err, "ConflictException")
	_, err = env.v2.CreateStage(ctx, &apigatewayv2.CreateStageInput{ApiId: api, StageName: aws.String("x"),
		RouteSettings: map[string]types.RouteSettings{"GET /none": {ThrottlingRateLimit: aws.Float64(1)}}})
	wantCode(t, "route settings of a missing route", err, "NotFoundException")
	_, err = env.v2.CreateStage(ctx, &apigatewayv2.CreateStageInput{ApiId: api, StageName: aws.String("x"),
		AccessLogSettings: &types.AccessLogSettings{DestinationArn: aws.String("arn:aws:s3:::logs"), Format: aws.String("$context.requestId")}})
	wantCode(t, "access logs to S3", err, "BadRequestException")
	route, err := env.v2.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: api, RouteKey: aws.String("GET /orders")})
	if err != nil {
		t.Fatal(err)
	}
	stage, err := env.v2.GetStage(ctx, &apigatewayv2.GetStageInput{ApiId: api, StageName: aws.String("$default")})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(stage.DeploymentId) == firstDeployment || aws.ToString(stage.DeploymentId) == "" {
		t.Errorf("auto-deploy stage kept deployment %q after a route change", firstDeployment)
	}
	manual, err := env.v2.CreateStage(ctx, &apigatewayv2.CreateStageInput{ApiId: api, StageName: aws.String("prod"),
		StageVariables: map[string]string{"v": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := env.v2.CreateDeployment(ctx, &apigatewayv2.CreateDeploymentInput{ApiId: api, StageName: manual.StageName, Description: aws.String("first")})
	if err != nil {
		t.Fatal(err)
	}
	if d.DeploymentStatus != types.DeploymentStatusDeployed || aws.ToBool(d.AutoDeployed) {
		t.Errorf("CreateDeployment = %s, auto %v", d.DeploymentStatus, aws.ToBool(d.AutoDeployed))
	}
	_, err = env.v2.CreateDeployment(ctx, &apigatewayv2.CreateDeploymentInput{ApiId: api, StageName: aws.String("$default")})
	wantCode(t, "deployment to an auto-deploy stage", err, "BadRequestException")
	upd, err := env.v2.UpdateStage(ctx, &apigatewayv2.UpdateStageInput{ApiId: api, StageName: manual.StageName,
		RouteSettings: map[string]types.RouteSettings{"GET /orders": {ThrottlingBurstLimit: aws.Int32(5), ThrottlingRateLimit: aws.Float64(2)}}})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(upd.DeploymentId) != aws.ToString(d.DeploymentId) || aws.ToInt32(upd.RouteSettings["GET /orders"].ThrottlingBurstLimit) != 5 || upd.StageVariables["v"] != "1" {
		t.Errorf("UpdateStage = deployment %q, settings %v, variables %v", aws.ToString(upd.DeploymentId), upd.RouteSettings, upd.StageVariables)
	}
	_, err = env.v2.UpdateStage(ctx, &apigatewayv2.UpdateStageInput{ApiId: api, StageName: manual.StageName,
		DefaultRouteSettings: &types.RouteSettings{LoggingLevel: types.LoggingLevelInfo}})
	wantCode(t, "execution logging on an HTTP API", err, "BadRequestException")
	_, err = env.v2.DeleteDeployment(ctx, &apigatewayv2.DeleteDeploymentInput{ApiId: api, DeploymentId: d.DeploymentId})
	wantCode(t, "deployment in use", err, "BadRequestException")
	got, err := env.v2.GetDeployment(ctx, &apigatewayv2.GetDeploymentInput{ApiId: api, DeploymentId: d.DeploymentId})
	if err != nil || aws.ToString(got.Description) != "first" {
		t.Fatalf("GetDeployment = %v, %v", got, err)
	}
	stages, err := env.v2.GetStages(ctx, &apigatewayv2.GetStagesInput{ApiId: api})
	if err != nil || len(stages.Items) != 2 {
		t.Fatalf("GetStages = %v, %v", stages, err)
	}
	if _, err := env.v2.DeleteRoute(ctx, &apigatewayv2.DeleteRouteInput{ApiId: api, RouteId: route.RouteId}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.v2.DeleteStage(ctx, &apigatewayv2.DeleteStageInput{ApiId: api, StageName: manual.StageName}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.v2.DeleteDeployment(ctx, &apigatewayv2.DeleteDeploymentInput{ApiId: api, DeploymentId: d.DeploymentId}); err != nil {
		t.Fatal(err)
	}
	deployments, err := env.v2.GetDeployments(ctx, &apigatewayv2.GetDeploymentsInput{ApiId: api})
	if err != nil {
		t.Fatal(err)
	}
	// The auto-deploy stage was deployed when made, on the route's creation and on its deletion.
	if len(deployments.Items) != 3 {
		t.Errorf("GetDeployments = %d items, want 3 automatic ones", len(deployments.Items))
	}
}

// TestAPIGatewayV2VpcLinks checks VPC links against the emulated EC2, their PENDING ->
// AVAILABLE lifecycle on the clock, private integrations through them, and that a link in use
// cannot be deleted.
func TestAPIGatewayV2VpcLinks(t *testing.T) {
	env := apiGatewayClients(t, emulator.Options{Transitions: map[string]time.Duration{"APIGatewayV2": 5 * time.Second}})
	ctx := context.Background()
	vpc := createVpc(t, env.ec2, "10.0.0.0/16")
	subnet := createSubnet(t, env.ec2, vpc, "10.0.1.0/24")
	other := createSubnet(t, env.ec2, createVpc(t, env.ec2, "10.1.0.0/16"), "10.1.1.0/24")
	_, err := env.v2.CreateVpcLink(ctx, &apigatewayv2.CreateVpcLinkInput{Name: aws.String("l"), SubnetIds: []string{"subnet-0000000000000000f"}})
	wantCode(t, "missing subnet", err, "BadRequestException")
	_, err = env.v2.CreateVpcLink(ctx, &apigatewayv2.CreateVpcLinkInput{Name: aws.String("l"), SubnetIds: []string{subnet, other}})
	wantCode(t, "subnets of two VPCs", err, "BadRequestException")
	link, err := env.v2.CreateVpcLink(ctx, &apigatewayv2.CreateVpcLinkInput{Name: aws.String("l"), SubnetIds: []string{subnet},
		Tags: map[string]string{"k": "v"}})
	if err != nil {
		t.Fatal(err)
	}
	if link.VpcLinkStatus != types.VpcLinkStatusPending {
		t.Errorf("new VPC link is %s", link.VpcLinkStatus)
	}
	env.e.Clock.Advance(5 * time.Second)
	got, err := env.v2.GetVpcLink(ctx, &apigatewayv2.GetVpcLinkInput{VpcLinkId: link.VpcLinkId})
	if err != nil || got.VpcLinkStatus != types.VpcLinkStatusAvailable || got.Tags["k"] != "v" {
		t.Fatalf("GetVpcLink after the transition = %v, %v", got, err)
	}
	api := env.httpAPI(t, "private")
	listener := "arn:aws:elasticloadbalancing:us-east-1:000000000000:listener/app/web/0123456789abcdef/0123456789abcdef"
	_, err = env.v2.CreateIntegration(ctx, &apigatewayv2.CreateIntegrationInput{ApiId: api, IntegrationType: types.IntegrationTypeHttpProxy,
		IntegrationMethod: aws.String("ANY"), IntegrationUri: aws.String(listener), ConnectionType: types.ConnectionTypeVpcLink,
		ConnectionId: aws.String("nope00"), PayloadFormatVersion: aws.String("1.0")})
	wantCode(t, "unknown VPC link", err, "NotFoundException")
	if _, err := env.v2.CreateIntegration(ctx, &apigatewayv2.CreateIntegrationInput{ApiId: api, IntegrationType: types.IntegrationTypeHttpProxy,
		IntegrationMethod: aws.String("ANY"), IntegrationUri: aws.String(listener), ConnectionType: types.ConnectionTypeVpcLink,
		ConnectionId: link.VpcLinkId, PayloadFormatVersion: aws.String("1.0")}); err != nil {
		t.Fatal(err)
	}
	_, err = env.v2.DeleteVpcLink(ctx, &apigatewayv2.DeleteVpcLinkInput{VpcLinkId: link.VpcLinkId})
	wantCode(t, "VPC link in use", err, "ConflictException")
	links, err := env.v2.GetVpcLinks(ctx, &apigatewayv2.GetVpcLinksInput{})
	if err != nil || len(links.Items) != 1 {
		t.Fatalf("GetVpcLinks = %v, %v", links, err)
	}
	if _, err := env.v2.DeleteApi(ctx, &apigatewayv2.DeleteApiInput{ApiId: api}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.v2.DeleteVpcLink(ctx, &apigatewayv2.DeleteVpcLinkInput{VpcLinkId: link.VpcLinkId}); err != nil {
		t.Fatal(err)
	}
}

// TestAPIGatewayV2Domains checks custom domain names against the emulated ACM, API mappings to
// existing stages, and tags on APIs, stages and domain names by ARN.
func TestAPIGatewayV2Domains(t *testing.T) {
	env := apiGatewayClients(t, emulator.Options{})
	ctx := context.Background()
	_, err := env.v2.CreateDomainName(ctx, &apigatewayv2.CreateDomainNameInput{DomainName: aws.String("api.example.com"),
		DomainNameConfigurations: []types.DomainNameConfiguration{{CertificateArn: aws.String("arn:aws:acm:us-east-1:000000000000:certificate/none")}}})
	wantCode(t, "missing certificate", err, "BadRequestException")
	cert := env.certificate(t, "api.example.com")
	dn, err := env.v2.CreateDomainName(ctx, &apigatewayv2.CreateDomainNameInput{DomainName: aws.String("api.example.com"),
		DomainNameConfigurations: []types.DomainNameConfiguration{{CertificateArn: cert}}})
	if err != nil {
		t.Fatal(err)
	}
	conf := dn.DomainNameConfigurations[0]
	if conf.EndpointType != types.EndpointTypeRegional || !strings.HasSuffix(aws.ToString(conf.ApiGatewayDomainName), ".execute-api.us-east-1.amazonaws.com") ||
		aws.ToString(conf.HostedZoneId) != "Z1UJRXOUMOOFQ8" || conf.DomainNameStatus != types.DomainNameStatusAvailable ||
		// IpAddressType is newer than the API model; it must still reach the SDK under its lowerCamel key.
		conf.IpAddressType != types.IpAddressTypeIpv4 {
		t.Errorf("domain name configuration %+v", conf)
	}
	_, err = env.v2.CreateDomainName(ctx, &apigatewayv2.CreateDomainNameInput{DomainName: aws.String("api.example.com"),
		DomainNameConfigurations: []types.DomainNameConfiguration{{CertificateArn: cert}}})
	wantCode(t, "duplicate domain name", err, "ConflictException")
	api := env.httpAPI(t, "orders")
	_, err = env.v2.CreateApiMapping(ctx, &apigatewayv2.CreateApiMappingInput{DomainName: dn.DomainName, ApiId: api, Stage: aws.String("prod")})
	wantCode(t, "mapping to a missing stage", err, "NotFoundException")
	if _, err := env.v2.CreateStage(ctx, &apigatewayv2.CreateStageInput{ApiId: api, StageName: aws.String("prod")}); err != nil {
		t.Fatal(err)
	}
	m, err := env.v2.CreateApiMapping(ctx, &apigatewayv2.CreateApiMappingInput{DomainName: dn.DomainName, ApiId: api, Stage: aws.String("prod"),
		ApiMappingKey: aws.String("orders")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = env.v2.CreateApiMapping(ctx, &apigatewayv2.CreateApiMappingInput{DomainName: dn.DomainName, ApiId: api, Stage: aws.String("prod"),
		ApiMappingKey: aws.String("orders")})
	wantCode(t, "duplicate mapping key", err, "ConflictException")
	_, err = env.v2.DeleteApi(ctx, &apigatewayv2.DeleteApiInput{ApiId: api})
	wantCode(t, "deleting a mapped API", err, "ConflictException")
	gm, err := env.v2.GetApiMapping(ctx, &apigatewayv2.GetApiMappingInput{DomainName: dn.DomainName, ApiMappingId: m.ApiMappingId})
	if err != nil || aws.ToString(gm.ApiMappingKey) != "orders" {
		t.Fatalf("GetApiMapping = %v, %v", gm, err)
	}
	ms, err := env.v2.GetApiMappings(ctx, &apigatewayv2.GetApiMappingsInput{DomainName: dn.DomainName})
	if err != nil || len(ms.Items) != 1 {
		t.Fatalf("GetApiMappings = %v, %v", ms, err)
	}
	apiARN := aws.String("arn:aws:apigateway:us-east-1::/apis/" + aws.ToString(api))
	// DomainNameArn is newer than the API model the emulator encodes with, so it is not sent.
	domainARN := aws.String("arn:aws:apigateway:us-east-1::/domainnames/api.example.com")
	for _, arn := range []*string{apiARN, aws.String(aws.ToString(apiARN) + "/stages/prod"), domainARN} {
		if _, err := env.v2.TagResource(ctx, &apigatewayv2.TagResourceInput{ResourceArn: arn, Tags: map[string]string{"a": "1", "b": "2"}}); err != nil {
			t.Fatalf("tag %s: %v", aws.ToString(arn), err)
		}
		if _, err := env.v2.UntagResource(ctx, &apigatewayv2.UntagResourceInput{ResourceArn: arn, TagKeys: []string{"a"}}); err != nil {
			t.Fatal(err)
		}
		tags, err := env.v2.GetTags(ctx, &apigatewayv2.GetTagsInput{ResourceArn: arn})
		if err != nil || len(tags.Tags) != 1 || tags.Tags["b"] != "2" {
			t.Errorf("GetTags %s = %v, %v", aws.ToString(arn), tags, err)
		}
	}
	_, err = env.v2.TagResource(ctx, &apigatewayv2.TagResourceInput{ResourceArn: aws.String("arn:aws:apigateway:us-east-1::/apis/zzzzzzzzzz"), Tags: map[string]string{"a": "1"}})
	wantCode(t, "tagging a missing API", err, "NotFoundException")
	_, err = env.v2.TagResource(ctx, &apigatewayv2.TagResourceInput{ResourceArn: apiARN, Tags: map[string]string{"aws:x": "1"}})
	wantCode(t, "reserved tag key", err, "BadRequestException")
	gd, err := env.v2.GetDomainName(ctx, &apigatewayv2.GetDomainNameInput{DomainName: dn.DomainName})
	if err != nil || aws.ToString(gd.ApiMappingSelectionExpression) != "$request.basepath" || gd.Tags["b"] != "2" {
		t.Fatalf("GetDomainName = %v, %v", gd, err)
	}
	domains, err := env.v2.GetDomainNames(ctx, &apigatewayv2.GetDomainNamesInput{})
	if err != nil || len(domains.Items) != 1 {
		t.Fatalf("GetDomainNames = %v, %v", domains, err)
	}
	if _, err := env.v2.DeleteApiMapping(ctx, &apigatewayv2.DeleteApiMappingInput{DomainName: dn.DomainName, ApiMappingId: m.ApiMappingId}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.v2.DeleteDomainName(ctx, &apigatewayv2.DeleteDomainNameInput{DomainName: dn.DomainName}); err != nil {
		t.Fatal(err)
	}
	_, err = env.v2.GetDomainName(ctx, &apigatewayv2.GetDomainNameInput{DomainName: dn.DomainName})
	wantCode(t, "deleted domain name", err, "NotFoundException")
}
