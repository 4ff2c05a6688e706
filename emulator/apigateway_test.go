package emulator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"

	"github.com/runner-codes/infra-operator/emulator"
)

// restClient starts an emulator with a frozen clock and returns it with an API Gateway v1
// client of us-east-1.
func restClient(t *testing.T, opts emulator.Options) (apiGatewayEnv, *apigateway.Client) {
	t.Helper()
	env := apiGatewayClients(t, opts)
	return env, apigateway.NewFromConfig(sdkConfig(t, env.url, "AKID", 1))
}

// restAPI creates a REST API and returns it.
func restAPI(t *testing.T, c *apigateway.Client, name string) *apigateway.CreateRestApiOutput {
	t.Helper()
	out, err := c.CreateRestApi(context.Background(), &apigateway.CreateRestApiInput{Name: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// replace is a JSON Patch replace operation.
func replace(path, value string) types.PatchOperation {
	return types.PatchOperation{Op: types.OpReplace, Path: aws.String(path), Value: aws.String(value)}
}

// lambdaInvocation is the URI that invokes lambdaARN.
const lambdaInvocation = "arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/" + lambdaARN + "/invocations"

// TestAPIGatewayRestAPI checks REST APIs: ids, the root resource, endpoint configuration,
// patch updates, pagination, and deletion.
func TestAPIGatewayRestAPI(t *testing.T) {
	_, c := restClient(t, emulator.Options{})
	ctx := context.Background()
	created, err := c.CreateRestApi(ctx, &apigateway.CreateRestApiInput{Name: aws.String("orders"),
		EndpointConfiguration: &types.EndpointConfiguration{Types: []types.EndpointType{types.EndpointTypeRegional}},
		Tags:                  map[string]string{"team": "a"}})
	if err != nil {
		t.Fatal(err)
	}
	id := aws.ToString(created.Id)
	if len(id) != 10 || strings.ToLower(id) != id || created.RootResourceId == nil || created.ApiKeySource != types.ApiKeySourceTypeHeader {
		t.Errorf("CreateRestApi = id %q, root %v, key source %s", id, created.RootResourceId, created.ApiKeySource)
	}
	resources, err := c.GetResources(ctx, &apigateway.GetResourcesInput{RestApiId: created.Id})
	if err != nil || len(resources.Items) != 1 || aws.ToString(resources.Items[0].Path) != "/" || aws.ToString(resources.Items[0].Id) != aws.ToString(created.RootResourceId) {
		t.Fatalf("GetResources of a new API = %v, %v", resources, err)
	}
	edge := restAPI(t, c, "edge")
	// IpAddressType is newer than the API model; it must still reach the SDK under its lowerCamel key.
	if edge.EndpointConfiguration == nil || edge.EndpointConfiguration.Types[0] != types.EndpointTypeEdge ||
		edge.EndpointConfiguration.IpAddressType != types.IpAddressTypeIpv4 {
		t.Errorf("default endpoint configuration %+v", edge.EndpointConfiguration)
	}
	updated, err := c.UpdateRestApi(ctx, &apigateway.UpdateRestApiInput{RestApiId: created.Id, PatchOperations: []types.PatchOperation{
		replace("/name", "orders-v2"), replace("/description", "d"), {Op: types.OpAdd, Path: aws.String("/binaryMediaTypes/image~1png")}}})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(updated.Name) != "orders-v2" || aws.ToString(updated.Description) != "d" || len(updated.BinaryMediaTypes) != 1 || updated.BinaryMediaTypes[0] != "image/png" {
		t.Errorf("UpdateRestApi = %q %q %v", aws.ToString(updated.Name), aws.ToString(updated.Description), updated.BinaryMediaTypes)
	}
	_, err = c.UpdateRestApi(ctx, &apigateway.UpdateRestApiInput{RestApiId: created.Id, PatchOperations: []types.PatchOperation{replace("/id", "x")}})
	wantCode(t, "patching the id", err, "BadRequestException")
	got, err := c.GetRestApi(ctx, &apigateway.GetRestApiInput{RestApiId: created.Id})
	if err != nil || aws.ToString(got.Name) != "orders-v2" || got.Tags["team"] != "a" {
		t.Fatalf("GetRestApi = %v, %v", got, err)
	}
	page1, err := c.GetRestApis(ctx, &apigateway.GetRestApisInput{Limit: aws.Int32(1)})
	if err != nil {
		t.Fatal(err)
	}
	page2, err := c.GetRestApis(ctx, &apigateway.GetRestApisInput{Limit: aws.Int32(1), Position: page1.Position})
	if err != nil || len(page1.Items) != 1 || len(page2.Items) != 1 || page2.Position != nil {
		t.Fatalf("GetRestApis pages = %v then %v, %v", page1, page2, err)
	}
	if _, err := c.DeleteRestApi(ctx, &apigateway.DeleteRestApiInput{RestApiId: created.Id}); err != nil {
		t.Fatal(err)
	}
	_, err = c.GetRestApi(ctx, &apigateway.GetRestApiInput{RestApiId: created.Id})
	wantCode(t, "deleted API", err, "NotFoundException")
	if err == nil || !strings.Contains(err.Error(), "Invalid API identifier specified 000000000000:"+id) {
		t.Errorf("deleted API error %v", err)
	}
}

// TestAPIGatewayResources checks resources, methods and integrations: paths, sibling
// conflicts, method conflicts, integration types and URIs, patches, and subtree deletion.
func TestAPIGatewayResources(t *testing.T) {
	_, c := restClient(t, emulator.Options{})
	ctx := context.Background()
	api := restAPI(t, c, "orders")
	orders, err := c.CreateResource(ctx, &apigateway.CreateResourceInput{RestApiId: api.Id, ParentId: api.RootResourceId, PathPart: aws.String("orders")})
	if err != nil {
		t.Fatal(err)
	}
	item, err := c.CreateResource(ctx, &apigateway.CreateResourceInput{RestApiId: api.Id, ParentId: orders.Id, PathPart: aws.String("{id}")})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(item.Path) != "/orders/{id}" || aws.ToString(item.ParentId) != aws.ToString(orders.Id) {
		t.Errorf("CreateResource = path %q, parent %q", aws.ToString(item.Path), aws.ToString(item.ParentId))
	}
	_, err = c.CreateResource(ctx, &apigateway.CreateResourceInput{RestApiId: api.Id, ParentId: api.RootResourceId, PathPart: aws.String("orders")})
	wantCode(t, "sibling with the same path part", err, "ConflictException")
	_, err = c.CreateResource(ctx, &apigateway.CreateResourceInput{RestApiId: api.Id, ParentId: api.RootResourceId, PathPart: aws.String("a/b")})
	wantCode(t, "path part with a slash", err, "BadRequestException")
	_, err = c.CreateResource(ctx, &apigateway.CreateResourceInput{RestApiId: api.Id, ParentId: aws.String("nothing"), PathPart: aws.String("x")})
	wantCode(t, "missing parent", err, "NotFoundException")
	if _, err := c.PutMethod(ctx, &apigateway.PutMethodInput{RestApiId: api.Id, ResourceId: item.Id, HttpMethod: aws.String("GET"),
		AuthorizationType: aws.String("NONE")}); err != nil {
		t.Fatal(err)
	}
	_, err = c.PutMethod(ctx, &apigateway.PutMethodInput{RestApiId: api.Id, ResourceId: item.Id, HttpMethod: aws.String("GET"), AuthorizationType: aws.String("NONE")})
	wantCode(t, "method twice", err, "ConflictException")
	_, err = c.GetIntegration(ctx, &apigateway.GetIntegrationInput{RestApiId: api.Id, ResourceId: item.Id, HttpMethod: aws.String("GET")})
	wantCode(t, "method without an integration", err, "NotFoundException")
	for name, in := range map[string]*apigateway.PutIntegrationInput{
		"proxy without a method":  {Type: types.IntegrationTypeAwsProxy, Uri: aws.String(lambdaInvocation)},
		"proxy with GET":          {Type: types.IntegrationTypeAwsProxy, Uri: aws.String(lambdaInvocation), IntegrationHttpMethod: aws.String("GET")},
		"proxy to a bare ARN":     {Type: types.IntegrationTypeAwsProxy, Uri: aws.String(lambdaARN), IntegrationHttpMethod: aws.String("POST")},
		"HTTP without a URL":      {Type: types.IntegrationTypeHttpProxy, Uri: aws.String("example.com"), IntegrationHttpMethod: aws.String("GET")},
		"timeout above the limit": {Type: types.IntegrationTypeMock, TimeoutInMillis: aws.Int32(30000)},
	} {
		in.RestApiId, in.ResourceId, in.HttpMethod = api.Id, item.Id, aws.String("GET")
		_, err := c.PutIntegration(ctx, in)
		wantCode(t, name, err, "BadRequestException")
	}
	integ, err := c.PutIntegration(ctx, &apigateway.PutIntegrationInput{RestApiId: api.Id, ResourceId: item.Id, HttpMethod: aws.String("GET"),
		Type: types.IntegrationTypeAwsProxy, Uri: aws.String(lambdaInvocation), IntegrationHttpMethod: aws.String("POST")})
	if err != nil {
		t.Fatal(err)
	}
	if integ.TimeoutInMillis != 29000 || integ.ConnectionType != types.ConnectionTypeInternet || aws.ToString(integ.PassthroughBehavior) != "WHEN_NO_MATCH" {
		t.Errorf("PutIntegration defaults: timeout %d, connection %s, passthrough %q", integ.TimeoutInMillis, integ.ConnectionType, aws.ToString(integ.PassthroughBehavior))
	}
	upd, err := c.UpdateIntegration(ctx, &apigateway.UpdateIntegrationInput{RestApiId: api.Id, ResourceId: item.Id, HttpMethod: aws.String("GET"),
		PatchOperations: []types.PatchOperation{replace("/timeoutInMillis", "5000")}})
	if err != nil || upd.TimeoutInMillis != 5000 {
		t.Fatalf("UpdateIntegration = %v, %v", upd, err)
	}
	method, err := c.UpdateMethod(ctx, &apigateway.UpdateMethodInput{RestApiId: api.Id, ResourceId: item.Id, HttpMethod: aws.String("GET"),
		PatchOperations: []types.PatchOperation{replace("/apiKeyRequired", "true")}})
	if err != nil || !aws.ToBool(method.ApiKeyRequired) {
		t.Fatalf("UpdateMethod = %v, %v", method, err)
	}
	got, err := c.GetMethod(ctx, &apigateway.GetMethodInput{RestApiId: api.Id, ResourceId: item.Id, HttpMethod: aws.String("GET")})
	if err != nil || got.MethodIntegration == nil || got.MethodIntegration.TimeoutInMillis != 5000 {
		t.Fatalf("GetMethod = %v, %v", got, err)
	}
	gi, err := c.GetIntegration(ctx, &apigateway.GetIntegrationInput{RestApiId: api.Id, ResourceId: item.Id, HttpMethod: aws.String("GET")})
	if err != nil || aws.ToString(gi.Uri) != lambdaInvocation {
		t.Fatalf("GetIntegration = %v, %v", gi, err)
	}
	embedded, err := c.GetResources(ctx, &apigateway.GetResourcesInput{RestApiId: api.Id, Embed: []string{"methods"}})
	if err != nil || len(embedded.Items) != 3 || embedded.Items[2].ResourceMethods["GET"].MethodIntegration == nil {
		t.Fatalf("GetResources with methods = %v, %v", embedded, err)
	}
	res, err := c.GetResource(ctx, &apigateway.GetResourceInput{RestApiId: api.Id, ResourceId: item.Id})
	if err != nil || aws.ToString(res.Path) != "/orders/{id}" {
		t.Fatalf("GetResource = %v, %v", res, err)
	}
	if _, err := c.DeleteIntegration(ctx, &apigateway.DeleteIntegrationInput{RestApiId: api.Id, ResourceId: item.Id, HttpMethod: aws.String("GET")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteMethod(ctx, &apigateway.DeleteMethodInput{RestApiId: api.Id, ResourceId: item.Id, HttpMethod: aws.String("GET")}); err != nil {
		t.Fatal(err)
	}
	_, err = c.DeleteResource(ctx, &apigateway.DeleteResourceInput{RestApiId: api.Id, ResourceId: api.RootResourceId})
	wantCode(t, "deleting the root", err, "BadRequestException")
	if _, err := c.DeleteResource(ctx, &apigateway.DeleteResourceInput{RestApiId: api.Id, ResourceId: orders.Id}); err != nil {
		t.Fatal(err)
	}
	left, err := c.GetResources(ctx, &apigateway.GetResourcesInput{RestApiId: api.Id})
	if err != nil || len(left.Items) != 1 {
		t.Fatalf("GetResources after deleting /orders = %v, %v", left, err)
	}
}

// deployableAPI returns a REST API with GET / and GET /orders integrated with mocks.
func deployableAPI(t *testing.T, c *apigateway.Client) *apigateway.CreateRestApiOutput {
	t.Helper()
	ctx := context.Background()
	api := restAPI(t, c, "orders")
	orders, err := c.CreateResource(ctx, &apigateway.CreateResourceInput{RestApiId: api.Id, ParentId: api.RootResourceId, PathPart: aws.String("orders")})
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range []*string{api.RootResourceId, orders.Id} {
		if _, err := c.PutMethod(ctx, &apigateway.PutMethodInput{RestApiId: api.Id, ResourceId: res, HttpMethod: aws.String("GET"),
			AuthorizationType: aws.String("NONE")}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.PutIntegration(ctx, &apigateway.PutIntegrationInput{RestApiId: api.Id, ResourceId: res, HttpMethod: aws.String("GET"),
			Type: types.IntegrationTypeMock}); err != nil {
			t.Fatal(err)
		}
	}
	return api
}

// TestAPIGatewayStages checks deployments and stages: a deployment needs methods, a stage a
// deployment, and UpdateStage patches variables, tracing, access logs and method settings.
func TestAPIGatewayStages(t *testing.T) {
	_, c := restClient(t, emulator.Options{})
	ctx := context.Background()
	empty := restAPI(t, c, "empty")
	_, err := c.CreateDeployment(ctx, &apigateway.CreateDeploymentInput{RestApiId: empty.Id})
	wantCode(t, "deploying an API without methods", err, "BadRequestException")
	api := deployableAPI(t, c)
	d, err := c.CreateDeployment(ctx, &apigateway.CreateDeploymentInput{RestApiId: api.Id, StageName: aws.String("prod"), Description: aws.String("first"),
		Variables: map[string]string{"v": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	stage, err := c.GetStage(ctx, &apigateway.GetStageInput{RestApiId: api.Id, StageName: aws.String("prod")})
	if err != nil || aws.ToString(stage.DeploymentId) != aws.ToString(d.Id) || stage.Variables["v"] != "1" {
		t.Fatalf("stage made by CreateDeployment = %v, %v", stage, err)
	}
	_, err = c.CreateStage(ctx, &apigateway.CreateStageInput{RestApiId: api.Id, StageName: aws.String("dev"), DeploymentId: aws.String("nope")})
	wantCode(t, "stage of a missing deployment", err, "NotFoundException")
	_, err = c.CreateStage(ctx, &apigateway.CreateStageInput{RestApiId: api.Id, StageName: aws.String("prod"), DeploymentId: d.Id})
	wantCode(t, "duplicate stage", err, "ConflictException")
	dev, err := c.CreateStage(ctx, &apigateway.CreateStageInput{RestApiId: api.Id, StageName: aws.String("dev"), DeploymentId: d.Id,
		Tags: map[string]string{"env": "dev"}})
	if err != nil || dev.Tags["env"] != "dev" {
		t.Fatalf("CreateStage = %v, %v", dev, err)
	}
	updated, err := c.UpdateStage(ctx, &apigateway.UpdateStageInput{RestApiId: api.Id, StageName: aws.String("dev"), PatchOperations: []types.PatchOperation{
		replace("/tracingEnabled", "true"), replace("/variables/color", "blue"),
		replace("/*/*/throttling/rateLimit", "100"), replace("/*/*/throttling/burstLimit", "50"),
		replace("/~1/GET/metrics/enabled", "true"), replace("/orders/GET/throttling/rateLimit", "7"),
		replace("/accessLogSettings/destinationArn", "arn:aws:logs:us-east-1:000000000000:log-group:access"),
		replace("/accessLogSettings/format", "$context.requestId"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	all := updated.MethodSettings["*/*"]
	if !updated.TracingEnabled || updated.Variables["color"] != "blue" || all.ThrottlingRateLimit != 100 || all.ThrottlingBurstLimit != 50 ||
		!updated.MethodSettings["/GET"].MetricsEnabled || updated.MethodSettings["orders/GET"].ThrottlingRateLimit != 7 || aws.ToString(updated.AccessLogSettings.Format) != "$context.requestId" {
		t.Errorf("UpdateStage = tracing %v, variables %v, settings %+v, logs %+v", updated.TracingEnabled, updated.Variables, updated.MethodSettings, updated.AccessLogSettings)
	}
	for name, op := range map[string]types.PatchOperation{
		"setting of a missing method": replace("/~1none/GET/throttling/rateLimit", "1"),
		"unknown path":                replace("/stageName", "x"),
		"rate that is not a number":   replace("/*/*/throttling/rateLimit", "fast"),
		"logs to S3":                  replace("/accessLogSettings/destinationArn", "arn:aws:s3:::logs"),
	} {
		_, err := c.UpdateStage(ctx, &apigateway.UpdateStageInput{RestApiId: api.Id, StageName: aws.String("dev"), PatchOperations: []types.PatchOperation{op}})
		wantCode(t, name, err, "BadRequestException")
	}
	stages, err := c.GetStages(ctx, &apigateway.GetStagesInput{RestApiId: api.Id})
	if err != nil || len(stages.Item) != 2 {
		t.Fatalf("GetStages = %v, %v", stages, err)
	}
	_, err = c.DeleteDeployment(ctx, &apigateway.DeleteDeploymentInput{RestApiId: api.Id, DeploymentId: d.Id})
	wantCode(t, "deployment in use", err, "BadRequestException")
	gd, err := c.GetDeployment(ctx, &apigateway.GetDeploymentInput{RestApiId: api.Id, DeploymentId: d.Id})
	if err != nil || aws.ToString(gd.Description) != "first" {
		t.Fatalf("GetDeployment = %v, %v", gd, err)
	}
	for _, name := range []string{"dev", "prod"} {
		if _, err := c.DeleteStage(ctx, &apigateway.DeleteStageInput{RestApiId: api.Id, StageName: aws.String(name)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.DeleteDeployment(ctx, &apigateway.DeleteDeploymentInput{RestApiId: api.Id, DeploymentId: d.Id}); err != nil {
		t.Fatal(err)
	}
	list, err := c.GetDeployments(ctx, &apigateway.GetDeploymentsInput{RestApiId: api.Id})
	if err != nil || len(list.Items) != 0 {
		t.Fatalf("GetDeployments = %v, %v", list, err)
	}
}

// TestAPIGatewayDomains checks custom domain names against the emulated ACM (regional
// certificates in the API's region, edge ones in us-east-1), base path mappings, VPC links on
// the clock, and tags by ARN.
func TestAPIGatewayDomains(t *testing.T) {
	env, c := restClient(t, emulator.Options{Transitions: map[string]time.Duration{"APIGateway": 3 * time.Second}})
	ctx := context.Background()
	regional := &types.EndpointConfiguration{Types: []types.EndpointType{types.EndpointTypeRegional}}
	_, err := c.CreateDomainName(ctx, &apigateway.CreateDomainNameInput{DomainName: aws.String("api.example.com"), EndpointConfiguration: regional,
		RegionalCertificateArn: aws.String("arn:aws:acm:us-east-1:000000000000:certificate/none")})
	wantCode(t, "missing certificate", err, "BadRequestException")
	cert := env.certificate(t, "api.example.com")
	dn, err := c.CreateDomainName(ctx, &apigateway.CreateDomainNameInput{DomainName: aws.String("api.example.com"), EndpointConfiguration: regional,
		RegionalCertificateArn: cert, Tags: map[string]string{"a": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(aws.ToString(dn.RegionalDomainName), ".execute-api.us-east-1.amazonaws.com") || aws.ToString(dn.RegionalHostedZoneId) != "Z1UJRXOUMOOFQ8" ||
		dn.DomainNameStatus != types.DomainNameStatusAvailable {
		t.Errorf("CreateDomainName = %q %q %s", aws.ToString(dn.RegionalDomainName), aws.ToString(dn.RegionalHostedZoneId), dn.DomainNameStatus)
	}
	edge, err := c.CreateDomainName(ctx, &apigateway.CreateDomainNameInput{DomainName: aws.String("www.example.com"), CertificateArn: cert})
	if err != nil || !strings.HasSuffix(aws.ToString(edge.DistributionDomainName), ".cloudfront.net") {
		t.Fatalf("edge CreateDomainName = %v, %v", edge, err)
	}
	_, err = c.CreateDomainName(ctx, &apigateway.CreateDomainNameInput{DomainName: aws.String("api.example.com"), EndpointConfiguration: regional, RegionalCertificateArn: cert})
	wantCode(t, "duplicate domain name", err, "ConflictException")
	api := deployableAPI(t, c)
	if _, err := c.CreateDeployment(ctx, &apigateway.CreateDeploymentInput{RestApiId: api.Id, StageName: aws.String("prod")}); err != nil {
		t.Fatal(err)
	}
	m, err := c.CreateBasePathMapping(ctx, &apigateway.CreateBasePathMappingInput{DomainName: dn.DomainName, RestApiId: api.Id, Stage: aws.String("prod")})
	if err != nil || aws.ToString(m.BasePath) != "(none)" {
		t.Fatalf("CreateBasePathMapping = %v, %v", m, err)
	}
	_, err = c.CreateBasePathMapping(ctx, &apigateway.CreateBasePathMappingInput{DomainName: dn.DomainName, RestApiId: api.Id})
	wantCode(t, "duplicate base path", err, "ConflictException")
	if _, err := c.GetBasePathMapping(ctx, &apigateway.GetBasePathMappingInput{DomainName: dn.DomainName, BasePath: aws.String("(none)")}); err != nil {
		t.Fatal(err)
	}
	mappings, err := c.GetBasePathMappings(ctx, &apigateway.GetBasePathMappingsInput{DomainName: dn.DomainName})
	if err != nil || len(mappings.Items) != 1 {
		t.Fatalf("GetBasePathMappings = %v, %v", mappings, err)
	}
	link, err := c.CreateVpcLink(ctx, &apigateway.CreateVpcLinkInput{Name: aws.String("l"),
		TargetArns: []string{"arn:aws:elasticloadbalancing:us-east-1:000000000000:loadbalancer/net/web/0123456789abcdef"}})
	if err != nil || link.Status != types.VpcLinkStatusPending {
		t.Fatalf("CreateVpcLink = %v, %v", link, err)
	}
	env.e.Clock.Advance(3 * time.Second)
	gl, err := c.GetVpcLink(ctx, &apigateway.GetVpcLinkInput{VpcLinkId: link.Id})
	if err != nil || gl.Status != types.VpcLinkStatusAvailable {
		t.Fatalf("GetVpcLink after the transition = %v, %v", gl, err)
	}
	links, err := c.GetVpcLinks(ctx, &apigateway.GetVpcLinksInput{})
	if err != nil || len(links.Items) != 1 {
		t.Fatalf("GetVpcLinks = %v, %v", links, err)
	}
	apiARN := aws.String("arn:aws:apigateway:us-east-1::/restapis/" + aws.ToString(api.Id))
	for _, arn := range []*string{apiARN, aws.String(aws.ToString(apiARN) + "/stages/prod"), aws.String("arn:aws:apigateway:us-east-1::/domainnames/api.example.com")} {
		if _, err := c.TagResource(ctx, &apigateway.TagResourceInput{ResourceArn: arn, Tags: map[string]string{"a": "1", "b": "2"}}); err != nil {
			t.Fatalf("tag %s: %v", aws.ToString(arn), err)
		}
		if _, err := c.UntagResource(ctx, &apigateway.UntagResourceInput{ResourceArn: arn, TagKeys: []string{"a"}}); err != nil {
			t.Fatal(err)
		}
		tags, err := c.GetTags(ctx, &apigateway.GetTagsInput{ResourceArn: arn})
		if err != nil || len(tags.Tags) != 1 || tags.Tags["b"] != "2" {
			t.Errorf("GetTags %s = %v, %v", aws.ToString(arn), tags, err)
		}
	}
	_, err = c.GetTags(ctx, &apigateway.GetTagsInput{ResourceArn: aws.String("arn:aws:apigateway:us-east-1::/restapis/zzzzzzzzzz")})
	wantCode(t, "tags of a missing API", err, "NotFoundException")
	gd, err := c.GetDomainName(ctx, &apigateway.GetDomainNameInput{DomainName: dn.DomainName})
	if err != nil || aws.ToString(gd.RegionalCertificateArn) != aws.ToString(cert) || gd.Tags["b"] != "2" {
		t.Fatalf("GetDomainName = %v, %v", gd, err)
	}
	domains, err := c.GetDomainNames(ctx, &apigateway.GetDomainNamesInput{})
	if err != nil || len(domains.Items) != 2 {
		t.Fatalf("GetDomainNames = %v, %v", domains, err)
	}
	if _, err := c.DeleteBasePathMapping(ctx, &apigateway.DeleteBasePathMappingInput{DomainName: dn.DomainName, BasePath: aws.String("(none)")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteVpcLink(ctx, &apigateway.DeleteVpcLinkInput{VpcLinkId: link.Id}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteDomainName(ctx, &apigateway.DeleteDomainNameInput{DomainName: dn.DomainName}); err != nil {
		t.Fatal(err)
	}
	_, err = c.GetDomainName(ctx, &apigateway.GetDomainNameInput{DomainName: dn.DomainName})
	wantCode(t, "deleted domain name", err, "NotFoundException")
}

// TestAPIGatewayRouting checks that v1 and v2, both signed "apigateway", each get their own
// requests (v2's paths start with /v2/), and that operations neither implements answer the
// unknown-operation error rather than an answer of the other.
func TestAPIGatewayRouting(t *testing.T) {
	env, c := restClient(t, emulator.Options{})
	ctx := context.Background()
	rest := restAPI(t, c, "rest")
	_, err := env.v2.GetApi(ctx, &apigatewayv2.GetApiInput{ApiId: rest.Id})
	wantCode(t, "a REST API through v2", err, "NotFoundException")
	_, err = c.GetApiKeys(ctx, &apigateway.GetApiKeysInput{})
	wantCode(t, "v1 GetApiKeys", err, "NotImplemented")
	_, err = env.v2.GetAuthorizers(ctx, &apigatewayv2.GetAuthorizersInput{ApiId: rest.Id})
	wantCode(t, "v2 GetAuthorizers", err, "NotImplemented")
	calls := env.e.Calls.Snapshot()
	if calls["APIGateway"]["GetApiKeys"]["NotImplemented"] != 1 || calls["APIGatewayV2"]["GetAuthorizers"]["NotImplemented"] != 1 {
		t.Errorf("calls were not counted against their own service: %v %v", calls["APIGateway"], calls["APIGatewayV2"])
	}
}

// TestAPIGatewayUpdateDomainName checks that UpdateDomainName moves a regional domain name to
// another certificate ACM holds, refuses one it does not and the edge-optimized certificate
// path, and changes the security policy.
func TestAPIGatewayUpdateDomainName(t *testing.T) {
	env, c := restClient(t, emulator.Options{})
	ctx := context.Background()
	first, second := env.certificate(t, "api.example.com"), env.certificate(t, "api.example.com")
	dn, err := c.CreateDomainName(ctx, &apigateway.CreateDomainNameInput{DomainName: aws.String("api.example.com"), RegionalCertificateArn: first,
		EndpointConfiguration: &types.EndpointConfiguration{Types: []types.EndpointType{types.EndpointTypeRegional}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.UpdateDomainName(ctx, &apigateway.UpdateDomainNameInput{DomainName: dn.DomainName,
		PatchOperations: []types.PatchOperation{replace("/regionalCertificateArn", "arn:aws:acm:us-east-1:000000000000:certificate/none")}})
	wantCode(t, "missing certificate", err, "BadRequestException")
	_, err = c.UpdateDomainName(ctx, &apigateway.UpdateDomainNameInput{DomainName: dn.DomainName,
		PatchOperations: []types.PatchOperation{replace("/certificateArn", aws.ToString(second))}})
	wantCode(t, "edge certificate of a regional name", err, "BadRequestException")
	out, err := c.UpdateDomainName(ctx, &apigateway.UpdateDomainNameInput{DomainName: dn.DomainName,
		PatchOperations: []types.PatchOperation{replace("/regionalCertificateArn", aws.ToString(second)), replace("/securityPolicy", "TLS_1_0")}})
	if err != nil || aws.ToString(out.RegionalCertificateArn) != aws.ToString(second) || out.SecurityPolicy != types.SecurityPolicyTls10 {
		t.Fatalf("UpdateDomainName = %+v, %v", out, err)
	}
	got, err := c.GetDomainName(ctx, &apigateway.GetDomainNameInput{DomainName: dn.DomainName})
	if err != nil || aws.ToString(got.RegionalCertificateArn) != aws.ToString(second) {
		t.Fatalf("GetDomainName after the update = %+v, %v", got, err)
	}
	_, err = c.UpdateDomainName(ctx, &apigateway.UpdateDomainNameInput{DomainName: aws.String("missing.example.com"),
		PatchOperations: []types.PatchOperation{replace("/securityPolicy", "TLS_1_2")}})
	wantCode(t, "missing domain name", err, "NotFoundException")
}
