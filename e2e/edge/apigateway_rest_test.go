package edge_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	securityv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// restRoutes reads the methods of REST API id, by "METHOD /path", and the paths of its
// resources.
func (h *harness) restRoutes(t testing.TB, id string) (map[string]types.Method, []string) {
	t.Helper()
	out, err := h.rest.GetResources(context.Background(), &apigateway.GetResourcesInput{RestApiId: aws.String(id), Embed: []string{"methods"}, Limit: aws.Int32(500)})
	if err != nil {
		t.Fatalf("get the resources of REST API %s: %v", id, err)
	}
	methods := map[string]types.Method{}
	var paths []string
	for _, r := range out.Items {
		paths = append(paths, aws.ToString(r.Path))
		for verb, m := range r.ResourceMethods {
			methods[verb+" "+aws.ToString(r.Path)] = m
		}
	}
	slices.Sort(paths)
	return methods, paths
}

// restStage reads stage name of REST API id.
func (h *harness) restStage(t testing.TB, id, name string) *apigateway.GetStageOutput {
	t.Helper()
	out, err := h.rest.GetStage(context.Background(), &apigateway.GetStageInput{RestApiId: aws.String(id), StageName: aws.String(name)})
	if err != nil {
		t.Fatalf("get stage %s of REST API %s: %v", name, id, err)
	}
	return out
}

// restDeployments reads the deployments of REST API id.
func (h *harness) restDeployments(t testing.TB, id string) []types.Deployment {
	t.Helper()
	out, err := h.rest.GetDeployments(context.Background(), &apigateway.GetDeploymentsInput{RestApiId: aws.String(id)})
	if err != nil {
		t.Fatalf("get the deployments of REST API %s: %v", id, err)
	}
	return out.Items
}

// resourceID returns the id of the resource at path of REST API id.
func (h *harness) resourceID(t testing.TB, id, path string) string {
	t.Helper()
	out, err := h.rest.GetResources(context.Background(), &apigateway.GetResourcesInput{RestApiId: aws.String(id), Limit: aws.Int32(500)})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range out.Items {
		if aws.ToString(r.Path) == path {
			return aws.ToString(r.Id)
		}
	}
	t.Fatalf("REST API %s has no resource %s", id, path)
	return ""
}

// invokeStatement returns the statement of function fn's resource policy whose Sid is sid, nil
// when there is none.
func (h *harness) invokeStatement(t testing.TB, fn, sid string) map[string]any {
	t.Helper()
	out, err := h.fn.GetPolicy(context.Background(), &lambda.GetPolicyInput{FunctionName: aws.String(fn)})
	if err != nil {
		if strings.Contains(err.Error(), "ResourceNotFoundException") {
			return nil
		}
		t.Fatalf("get the policy of function %s: %v", fn, err)
	}
	var doc struct{ Statement []map[string]any }
	if err := json.Unmarshal([]byte(aws.ToString(out.Policy)), &doc); err != nil {
		t.Fatal(err)
	}
	for _, s := range doc.Statement {
		if s["Sid"] == sid {
			return s
		}
	}
	return nil
}

// restCalls returns the API Gateway v1 calls the emulator counted, by operation.
func (h *harness) restCalls() map[string]int {
	return kubetest.Calls(h.emu.Calls.Snapshot(), "APIGateway")
}

// writes returns the calls of calls that change something (every operation but Get...).
func writes(calls map[string]int) map[string]int {
	out := map[string]int{}
	for op, n := range calls {
		if !strings.HasPrefix(op, "Get") {
			out[op] = n
		}
	}
	return out
}

// TestAPIGatewayREST applies the REST example in front of the seed's api-handler function: the
// API reaches Ready with the resource tree, methods and integrations of its routes, a deployment
// of them served by the prod stage with its variables and throttling, and the function's policy
// lets the API invoke it; a steady-state sync only reads; a route added and one removed make a
// new deployment the stage serves (the old one is deleted), with the stage's new variables and
// access log; drift made through the SDK (a method deleted, a foreign resource and method, a
// foreign stage, the stage pointed at another deployment, its throttling changed) is reverted
// with a DriftDetected event; deleting the object deletes the API and the invoke statement.
func TestAPIGatewayREST(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	fn := h.apiHandler(t)
	h.apply(t, "apigateway-rest.yaml", "default")
	a := kubetest.WaitReady(t, h.c, &v1alpha1.APIGateway{ObjectMeta: seedMeta("pets-api")})
	id := a.Status.APIID
	t.Cleanup(func() { t.Logf("API Gateway calls: %v", h.restCalls()) })

	endpoint := "https://" + id + ".execute-api.us-east-1.amazonaws.com"
	if s := a.Status; s.APIEndpoint != endpoint || s.ARN != "arn:aws:apigateway:us-east-1::/restapis/"+id ||
		!strings.HasPrefix(s.ExecutionARN, "arn:aws:execute-api:us-east-1:") || !strings.HasSuffix(s.ExecutionARN, ":"+id) || s.DeploymentID == "" ||
		len(s.Stages) != 1 || s.Stages[0].URL != endpoint+"/prod" || s.Stages[0].DeploymentID != s.DeploymentID {
		t.Errorf("status = %+v", s)
	}
	methods, paths := h.restRoutes(t, id)
	if want := []string{"/", "/pets", "/pets/{id}", "/status"}; !slices.Equal(paths, want) {
		t.Errorf("resources = %v, want %v", paths, want)
	}
	invocation := "arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/" + fn + "/invocations"
	for _, key := range []string{"GET /pets", "POST /pets", "GET /pets/{id}"} {
		it := methods[key].MethodIntegration
		if aws.ToString(methods[key].AuthorizationType) != "NONE" || it == nil || it.Type != types.IntegrationTypeAwsProxy ||
			aws.ToString(it.Uri) != invocation || aws.ToString(it.HttpMethod) != "POST" || it.TimeoutInMillis != 29000 {
			t.Errorf("%s = %+v with integration %+v, want AWS_PROXY POST to %s", key, methods[key], it, invocation)
		}
	}
	if it := methods["GET /status"].MethodIntegration; it == nil || it.Type != types.IntegrationTypeHttpProxy ||
		aws.ToString(it.Uri) != "https://status.example.com/health" || aws.ToString(it.HttpMethod) != "GET" || it.TimeoutInMillis != 5000 {
		t.Errorf("GET /status integration = %+v, want HTTP_PROXY GET to the status URL in 5000ms", it)
	}
	if len(methods) != 4 {
		t.Errorf("methods = %v, want the 4 routes", slices.Sorted(func(yield func(string) bool) {
			for k := range methods {
				yield(k)
			}
		}))
	}
	stage := h.restStage(t, id, "prod")
	if m := stage.MethodSettings["*/*"]; aws.ToString(stage.DeploymentId) != a.Status.DeploymentID || stage.Variables["environment"] != "production" ||
		aws.ToString(stage.Description) != "Production" || m.ThrottlingRateLimit != 100 || m.ThrottlingBurstLimit != 200 {
		t.Errorf("stage prod = deployment %s, variables %v, description %q, throttling %+v", aws.ToString(stage.DeploymentId), stage.Variables,
			aws.ToString(stage.Description), m)
	}
	deps := h.restDeployments(t, id)
	if len(deps) != 1 || !strings.HasPrefix(aws.ToString(deps[0].Description), "infra-operator routes ") {
		t.Errorf("deployments = %+v, want one with the routes' fingerprint", deps)
	}
	sid := "infra-operator-apigateway-" + id
	if s := h.invokeStatement(t, fn, sid); s == nil || !strings.Contains(mustJSON(t, s), a.Status.ExecutionARN+"/*") {
		t.Errorf("invoke statement = %v, want one for %s/*", s, a.Status.ExecutionARN)
	}

	// Steady state: a sync reads and writes nothing.
	h.emu.Calls.Reset()
	kubetest.ResyncUntil(t, h.c, a, "a sync", func() bool { return h.restCalls()["GetRestApi"] > 0 })
	time.Sleep(500 * time.Millisecond)
	if w := writes(h.restCalls()); len(w) != 0 {
		t.Errorf("API Gateway writes at steady state = %v, want none", w)
	}

	// A route added and one removed: a new deployment, which the stage serves; the old one is
	// deleted. The stage's variables and access log change with them.
	old := a.Status.DeploymentID
	logs := "arn:aws:logs:us-east-1:123456789012:log-group:pets-access"
	kubetest.Update(t, h.c, a, func(a *v1alpha1.APIGateway) {
		a.Spec.Routes = slices.DeleteFunc(a.Spec.Routes, func(r v1alpha1.Route) bool { return r.RouteKey == "GET /status" })
		a.Spec.Routes = append(a.Spec.Routes, v1alpha1.Route{RouteKey: "DELETE /pets/{id}", AuthorizationType: "AWS_IAM",
			Integration: v1alpha1.Integration{URL: "https://backend.example.com/pets/{id}"}})
		a.Spec.Stages[0].Variables = map[string]string{"tier": "gold"}
		a.Spec.Stages[0].AccessLog = &v1alpha1.AccessLog{DestinationARN: logs, Format: "$context.requestId"}
	})
	a = kubetest.WaitFor(t, h.c, a, kubetest.Timeout, "a new deployment", func(a *v1alpha1.APIGateway) bool {
		return isReady(a) && a.Status.DeploymentID != old && a.Status.ObservedGeneration == a.Generation
	})
	methods, paths = h.restRoutes(t, id)
	if m := methods["DELETE /pets/{id}"]; aws.ToString(m.AuthorizationType) != "AWS_IAM" || m.MethodIntegration == nil ||
		aws.ToString(m.MethodIntegration.HttpMethod) != "DELETE" {
		t.Errorf("DELETE /pets/{id} = %+v, want AWS_IAM with an HTTP proxy DELETE", m)
	}
	if want := []string{"/", "/pets", "/pets/{id}"}; !slices.Equal(paths, want) || len(methods) != 4 {
		t.Errorf("resources = %v with %d methods, want %v with 4 (GET /status removed)", paths, len(methods), want)
	}
	stage = h.restStage(t, id, "prod")
	if aws.ToString(stage.DeploymentId) != a.Status.DeploymentID {
		t.Errorf("stage prod serves %s, want the new deployment %s", aws.ToString(stage.DeploymentId), a.Status.DeploymentID)
	}
	if l := stage.AccessLogSettings; len(stage.Variables) != 1 || stage.Variables["tier"] != "gold" || l == nil || aws.ToString(l.DestinationArn) != logs ||
		aws.ToString(l.Format) != "$context.requestId" {
		t.Errorf("stage prod = variables %v, access log %+v; want tier=gold only and the log group", stage.Variables, l)
	}
	if deps := h.restDeployments(t, id); len(deps) != 1 || aws.ToString(deps[0].Id) != a.Status.DeploymentID {
		t.Errorf("deployments = %+v, want only the new one", deps)
	}

	// Drift: the stage pointed at a deployment made outside, its throttling changed, a method
	// deleted, a foreign resource with a method, and a foreign stage.
	ctx := context.Background()
	foreign, err := h.rest.CreateDeployment(ctx, &apigateway.CreateDeploymentInput{RestApiId: aws.String(id), Description: aws.String("by hand")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.rest.UpdateStage(ctx, &apigateway.UpdateStageInput{RestApiId: aws.String(id), StageName: aws.String("prod"), PatchOperations: []types.PatchOperation{
		{Op: types.OpReplace, Path: aws.String("/deploymentId"), Value: foreign.Id},
		{Op: types.OpReplace, Path: aws.String("/*/*/throttling/rateLimit"), Value: aws.String("1")},
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.rest.DeleteMethod(ctx, &apigateway.DeleteMethodInput{RestApiId: aws.String(id), ResourceId: aws.String(h.resourceID(t, id, "/pets")), HttpMethod: aws.String("GET")}); err != nil {
		t.Fatal(err)
	}
	admin, err := h.rest.CreateResource(ctx, &apigateway.CreateResourceInput{RestApiId: aws.String(id), ParentId: aws.String(h.resourceID(t, id, "/")), PathPart: aws.String("admin")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.rest.PutMethod(ctx, &apigateway.PutMethodInput{RestApiId: aws.String(id), ResourceId: admin.Id, HttpMethod: aws.String("GET"), AuthorizationType: aws.String("NONE")}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.rest.CreateStage(ctx, &apigateway.CreateStageInput{RestApiId: aws.String(id), StageName: aws.String("hack"), DeploymentId: foreign.Id}); err != nil {
		t.Fatal(err)
	}
	reverted := func() bool {
		methods, paths := h.restRoutes(t, id)
		stage := h.restStage(t, id, "prod")
		stages, err := h.rest.GetStages(ctx, &apigateway.GetStagesInput{RestApiId: aws.String(id)})
		_, hasGet := methods["GET /pets"]
		return hasGet && !slices.Contains(paths, "/admin") && aws.ToString(stage.DeploymentId) == a.Status.DeploymentID &&
			stage.MethodSettings["*/*"].ThrottlingRateLimit == 100 && len(h.restDeployments(t, id)) == 1 && err == nil && len(stages.Item) == 1
	}
	kubetest.ResyncUntil(t, h.c, a, "drift reverted", reverted)
	kubetest.WaitEvent(t, h.c, a, condition.ReasonDriftDetected, "routes")

	// Deleting the object deletes the API and withdraws the invoke statement.
	kubetest.Delete(t, h.c, a)
	if _, err := h.rest.GetRestApi(ctx, &apigateway.GetRestApiInput{RestApiId: aws.String(id)}); !isNotFound(err) {
		t.Errorf("GetRestApi after the delete: %v, want NotFoundException", err)
	}
	if s := h.invokeStatement(t, fn, sid); s != nil {
		t.Errorf("invoke statement left after the delete: %v", s)
	}
}

// TestAPIGatewayRESTDomain serves a REST API's stage at a custom domain name with an
// ACMCertificate the security family has issued: the domain name is created (regional, TLS 1.2,
// the certificate, the ownership tags) with a base path mapping of the stage, the status gives
// the name DNS must point at; a mapping deleted outside is put back; another certificate is
// put on the domain name in place; a domain name that exists
// and is not the object's is refused with DomainNameTaken and left alone; deleting the object
// deletes the API and its domain name.
func TestAPIGatewayRESTDomain(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	cert := &securityv1alpha1.ACMCertificate{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "catalog-cert"}}
	cert.Spec.ProviderRef.Name = "aws"
	cert.Spec.DomainName, cert.Spec.ValidationMethod = "*.catalog.example.com", "DNS"
	kubetest.Create(t, h.c, cert)
	cert = kubetest.WaitReady(t, h.c, cert)
	a := restAPIObject(ns, "catalog", "api.catalog.example.com", cert.Name)
	kubetest.Create(t, h.c, a)
	a = kubetest.WaitReady(t, h.c, a)
	t.Cleanup(func() { t.Logf("API Gateway calls: %v", h.restCalls()) })

	dn, err := h.rest.GetDomainName(ctx, &apigateway.GetDomainNameInput{DomainName: aws.String("api.catalog.example.com")})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(dn.RegionalCertificateArn) != cert.Status.ARN || dn.SecurityPolicy != types.SecurityPolicyTls12 || dn.Tags["aws-infra-operator.runner.codes/owner-uid"] == "" {
		t.Errorf("domain name = certificate %s, policy %s, tags %v; want %s, TLS_1_2 and the ownership tags", aws.ToString(dn.RegionalCertificateArn),
			dn.SecurityPolicy, dn.Tags, cert.Status.ARN)
	}
	if d := a.Status.CustomDomain; d == nil || d.URL != "https://api.catalog.example.com/v1" || d.TargetDomainName != aws.ToString(dn.RegionalDomainName) ||
		d.HostedZoneID != aws.ToString(dn.RegionalHostedZoneId) {
		t.Errorf("status.customDomain = %+v", d)
	}
	mapped := func() bool {
		out, err := h.rest.GetBasePathMappings(ctx, &apigateway.GetBasePathMappingsInput{DomainName: aws.String("api.catalog.example.com")})
		return err == nil && len(out.Items) == 1 && aws.ToString(out.Items[0].BasePath) == "v1" &&
			aws.ToString(out.Items[0].RestApiId) == a.Status.APIID && aws.ToString(out.Items[0].Stage) == "live"
	}
	if !mapped() {
		t.Error("the domain does not map v1 to the stage live")
	}
	if _, err := h.rest.DeleteBasePathMapping(ctx, &apigateway.DeleteBasePathMappingInput{DomainName: aws.String("api.catalog.example.com"), BasePath: aws.String("v1")}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, a, "mapping put back", mapped)

	// Another certificate: the domain name is moved to it (UpdateDomainName).
	renewed := &securityv1alpha1.ACMCertificate{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "catalog-cert-2"}}
	renewed.Spec.ProviderRef.Name = "aws"
	renewed.Spec.DomainName, renewed.Spec.ValidationMethod = "api.catalog.example.com", "DNS"
	kubetest.Create(t, h.c, renewed)
	renewed = kubetest.WaitReady(t, h.c, renewed)
	kubetest.Update(t, h.c, a, func(a *v1alpha1.APIGateway) { a.Spec.CustomDomain.CertificateRef.Name = renewed.Name })
	kubetest.WaitFor(t, h.c, a, kubetest.Timeout, "the new certificate", func(a *v1alpha1.APIGateway) bool {
		return isReady(a) && a.Status.ObservedGeneration == a.Generation
	})
	if dn, err := h.rest.GetDomainName(ctx, &apigateway.GetDomainNameInput{DomainName: aws.String("api.catalog.example.com")}); err != nil ||
		aws.ToString(dn.RegionalCertificateArn) != renewed.Status.ARN {
		t.Errorf("domain name after the certificate change = %+v, %v; want certificate %s", dn, err, renewed.Status.ARN)
	}

	// A domain name made outside infra-operator is not taken over.
	if _, err := h.rest.CreateDomainName(ctx, &apigateway.CreateDomainNameInput{DomainName: aws.String("shop.catalog.example.com"), RegionalCertificateArn: aws.String(cert.Status.ARN),
		EndpointConfiguration: &types.EndpointConfiguration{Types: []types.EndpointType{types.EndpointTypeRegional}}}); err != nil {
		t.Fatal(err)
	}
	other := restAPIObject(ns, "shop", "shop.catalog.example.com", cert.Name)
	kubetest.Create(t, h.c, other)
	kubetest.WaitCondition(t, h.c, other, "Synced", "False", condition.ReasonDomainNameTaken)
	kubetest.Delete(t, h.c, other)
	if _, err := h.rest.GetDomainName(ctx, &apigateway.GetDomainNameInput{DomainName: aws.String("shop.catalog.example.com")}); err != nil {
		t.Errorf("the domain name made outside was deleted with the object that found it taken: %v", err)
	}

	kubetest.Delete(t, h.c, a)
	if _, err := h.rest.GetDomainName(ctx, &apigateway.GetDomainNameInput{DomainName: aws.String("api.catalog.example.com")}); !isNotFound(err) {
		t.Errorf("GetDomainName after the delete: %v, want NotFoundException", err)
	}
	if _, err := h.rest.GetRestApi(ctx, &apigateway.GetRestApiInput{RestApiId: aws.String(a.Status.APIID)}); !isNotFound(err) {
		t.Errorf("GetRestApi after the delete: %v, want NotFoundException", err)
	}
}

// restAPIObject returns a REST APIGateway named name in ns with one route to a URL and the
// stage live, served at https://<domain>/v1 with the ACMCertificate cert.
func restAPIObject(ns, name, domain, cert string) *v1alpha1.APIGateway {
	a := &v1alpha1.APIGateway{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	a.Spec.ProviderRef.Name = "aws"
	a.Spec.ProtocolType = v1alpha1.ProtocolREST
	a.Spec.Routes = []v1alpha1.Route{{RouteKey: "GET /items", Integration: v1alpha1.Integration{URL: "https://items.example.com"}}}
	a.Spec.Stages = []v1alpha1.Stage{{Name: "live"}}
	if domain != "" {
		a.Spec.CustomDomain = &v1alpha1.CustomDomain{DomainName: domain, CertificateRef: &shared.Reference{Name: cert}, BasePath: "v1"}
	}
	return a
}

// TestAPIGatewayRESTInvalid checks that bad REST specs are refused before any API Gateway call:
// at admission (CORS on a REST API, a protocol change), or with a terminal InvalidSpec condition
// (two parameter names at one level of the resource tree, a $default route, stages without
// routes).
func TestAPIGatewayRESTInvalid(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")

	cors := restAPIObject(ns, "cors", "", "")
	cors.Spec.CORS = &shared.CORS{AllowOrigins: []string{"*"}}
	kubetest.MustRefuse(t, h.c, cors, "cors applies to HTTP APIs only")

	for name, mutate := range map[string]func(*v1alpha1.APIGateway){
		"params": func(a *v1alpha1.APIGateway) {
			a.Spec.Routes = append(a.Spec.Routes, v1alpha1.Route{RouteKey: "GET /items/{id}", Integration: a.Spec.Routes[0].Integration},
				v1alpha1.Route{RouteKey: "PUT /items/{itemId}", Integration: a.Spec.Routes[0].Integration})
		},
		"default": func(a *v1alpha1.APIGateway) { a.Spec.Routes[0].RouteKey = "$default" },
		"empty":   func(a *v1alpha1.APIGateway) { a.Spec.Routes = nil },
	} {
		a := restAPIObject(ns, name, "", "")
		mutate(a)
		kubetest.Create(t, h.c, a)
		kubetest.WaitCondition(t, h.c, a, "Synced", "False", condition.ReasonInvalidSpec)
	}
	if n := kubetest.Total(h.restCalls()); n != 0 {
		t.Errorf("%d API Gateway calls for specs refused before any: %v", n, h.restCalls())
	}

	a := restAPIObject(ns, "protocol", "", "")
	kubetest.Create(t, h.c, a)
	kubetest.MustRefuseUpdate(t, h.c, a, func(a *v1alpha1.APIGateway) { a.Spec.ProtocolType = v1alpha1.ProtocolHTTP }, "protocolType cannot change")
}

// isNotFound reports whether err is API Gateway's NotFoundException.
func isNotFound(err error) bool {
	return err != nil && strings.Contains(err.Error(), "NotFoundException")
}

// mustJSON renders v as JSON.
func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAPIGatewayRESTLostCreate loses the answer of CreateRestApi (API Gateway makes the API and
// the answer is an error): the next look finds the API by its ownership tags and adopts it, so
// the account holds one API for the object; with deletionPolicy Orphan, deleting the object
// leaves the API without its ownership tags.
func TestAPIGatewayRESTLostCreate(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	h.emu.Faults.Set("APIGateway.CreateRestApi", emulator.Fault{ErrorAfterRate: 1})
	a := restAPIObject(ns, "lost", "", "")
	a.Spec.DeletionPolicy = shared.DeletionPolicyOrphan
	kubetest.Create(t, h.c, a)
	a = kubetest.WaitReady(t, h.c, a)
	h.emu.Faults.Set("APIGateway.CreateRestApi", emulator.Fault{})
	if n := h.restCalls()["CreateRestApi"]; n != 1 {
		t.Errorf("CreateRestApi calls = %d, want 1", n)
	}
	out, err := h.rest.GetRestApis(context.Background(), &apigateway.GetRestApisInput{Limit: aws.Int32(500)})
	if err != nil {
		t.Fatal(err)
	}
	var ours []string
	for _, api := range out.Items {
		if api.Tags[shared.TagOwnerUID] == string(a.UID) {
			ours = append(ours, aws.ToString(api.Id))
		}
	}
	if len(ours) != 1 || ours[0] != a.Status.APIID || a.Annotations[shared.AnnotationExternalName] != a.Status.APIID {
		t.Errorf("APIs of the object = %v, recorded %q, status %q; want the one adopted", ours, a.Annotations[shared.AnnotationExternalName], a.Status.APIID)
	}

	kubetest.Delete(t, h.c, a)
	got, err := h.rest.GetRestApi(context.Background(), &apigateway.GetRestApiInput{RestApiId: aws.String(a.Status.APIID)})
	if err != nil {
		t.Fatalf("the orphaned API is gone: %v", err)
	}
	if _, owned := got.Tags[shared.TagOwnerUID]; owned {
		t.Errorf("the orphaned API keeps its ownership tags: %v", got.Tags)
	}
}
