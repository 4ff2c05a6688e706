package edge_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// v2API is what API Gateway v2 holds of one API: its routes by key with their integrations,
// and its stages by name.
type v2API struct {
	api          *apigatewayv2.GetApiOutput
	routes       map[string]types.Route
	integrations map[string]types.Integration // by route key
	stages       map[string]types.Stage
}

// readAPI reads API id from API Gateway v2 through the SDK.
func (h *harness) readAPI(t testing.TB, id string) v2API {
	t.Helper()
	ctx := context.Background()
	api, err := h.v2.GetApi(ctx, &apigatewayv2.GetApiInput{ApiId: aws.String(id)})
	if err != nil {
		t.Fatalf("get API %s: %v", id, err)
	}
	routes, err := h.v2.GetRoutes(ctx, &apigatewayv2.GetRoutesInput{ApiId: aws.String(id)})
	if err != nil {
		t.Fatal(err)
	}
	its, err := h.v2.GetIntegrations(ctx, &apigatewayv2.GetIntegrationsInput{ApiId: aws.String(id)})
	if err != nil {
		t.Fatal(err)
	}
	stages, err := h.v2.GetStages(ctx, &apigatewayv2.GetStagesInput{ApiId: aws.String(id)})
	if err != nil {
		t.Fatal(err)
	}
	out := v2API{api: api, routes: map[string]types.Route{}, integrations: map[string]types.Integration{}, stages: map[string]types.Stage{}}
	for _, r := range routes.Items {
		out.routes[aws.ToString(r.RouteKey)] = r
		for _, it := range its.Items {
			if "integrations/"+aws.ToString(it.IntegrationId) == aws.ToString(r.Target) {
				out.integrations[aws.ToString(r.RouteKey)] = it
			}
		}
	}
	for _, s := range stages.Items {
		out.stages[aws.ToString(s.StageName)] = s
	}
	return out
}

// routeKeys returns the API's route keys, sorted.
func (a v2API) routeKeys() []string {
	var keys []string
	for k := range a.routes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// invokeStatements returns the SourceArn of each statement of function fn's resource policy
// whose Sid is the one the operator gives API apiID, none when the function has no policy.
func (h *harness) invokeStatements(t testing.TB, fn, apiID string) []string {
	t.Helper()
	out, err := h.fn.GetPolicy(context.Background(), &lambda.GetPolicyInput{FunctionName: aws.String(fn)})
	if awserr.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatalf("get the policy of %s: %v", fn, err)
	}
	var doc struct {
		Statement []struct {
			Sid       string
			Condition map[string]map[string]string
		}
	}
	if err := json.Unmarshal([]byte(aws.ToString(out.Policy)), &doc); err != nil {
		t.Fatal(err)
	}
	var arns []string
	for _, s := range doc.Statement {
		if s.Sid == "infra-operator-apigateway-"+apiID {
			arns = append(arns, s.Condition["ArnLike"]["AWS:SourceArn"])
		}
	}
	return arns
}

// TestAPIGatewayHTTPSeedExample applies examples/edge/apigateway-http.yaml in front of the
// compute family's seed api-handler function: the API reaches Ready with its routes, Lambda
// proxy integrations, CORS and throttled $default stage in API Gateway and a statement letting
// it invoke the function; a spec change (a route removed, a URL route added, a route signed
// with AWS_IAM, CORS removed, the stage's throttling, variables, access log and description
// changed) converges; changes made outside (a route deleted, a route pointed elsewhere, the
// stage's throttling changed, a foreign route and stage added) are reverted with a
// DriftDetected event; deleting the object deletes the API and the invoke statement.
func TestAPIGatewayHTTPSeedExample(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	fn := h.apiHandler(t)
	objs := h.apply(t, "apigateway-http.yaml", "default")
	o := kubetest.WaitReady(t, h.c, &v1alpha1.APIGateway{ObjectMeta: seedMeta("items-api")})
	id, account := o.Status.APIID, strings.Split(fn, ":")[4]
	if s := o.Status; id == "" || s.APIEndpoint != "https://"+id+".execute-api.us-east-1.amazonaws.com" ||
		s.ExecutionARN != "arn:aws:execute-api:us-east-1:"+account+":"+id || s.ARN != "arn:aws:apigateway:us-east-1::/apis/"+id ||
		len(s.Stages) != 1 || s.Stages[0].Name != "$default" || s.Stages[0].URL != s.APIEndpoint || s.Stages[0].DeploymentID == "" ||
		!slices.Equal(s.InvokeGrants, []string{fn}) {
		t.Errorf("status = %+v", s)
	}
	a := h.readAPI(t, id)
	if !slices.Equal(a.routeKeys(), []string{"ANY /items/{id}", "GET /items", "POST /items"}) {
		t.Errorf("routes = %v", a.routeKeys())
	}
	for key, it := range a.integrations {
		timeout := int32(30000)
		if key == "ANY /items/{id}" {
			timeout = 10000
		}
		if it.IntegrationType != types.IntegrationTypeAwsProxy || aws.ToString(it.IntegrationUri) != fn || aws.ToString(it.PayloadFormatVersion) != "2.0" ||
			aws.ToInt32(it.TimeoutInMillis) != timeout {
			t.Errorf("integration of %s = %+v", key, it)
		}
	}
	if len(a.integrations) != 3 {
		t.Errorf("integrations = %v", a.integrations)
	}
	if c := a.api.CorsConfiguration; c == nil || !slices.Equal(c.AllowOrigins, []string{"https://app.example.com"}) || aws.ToInt32(c.MaxAge) != 300 {
		t.Errorf("CORS = %+v", c)
	}
	if a.api.Tags["Application"] != "api" || a.api.Tags[shared.TagOwnerUID] != string(o.UID) || aws.ToString(a.api.Description) == "" {
		t.Errorf("API = %+v", a.api)
	}
	st := a.stages["$default"]
	if r := st.DefaultRouteSettings; !aws.ToBool(st.AutoDeploy) || r == nil || aws.ToInt32(r.ThrottlingBurstLimit) != 200 || aws.ToFloat64(r.ThrottlingRateLimit) != 100 {
		t.Errorf("stage = %+v", st)
	}
	if got := h.invokeStatements(t, fn, id); !slices.Equal(got, []string{o.Status.ExecutionARN + "/*"}) {
		t.Errorf("invoke statements = %v", got)
	}

	// A spec change: POST /items removed, a URL route added, the throttling changed.
	h.patchSpec(t, objs[0], `{"routes":[
		{"routeKey":"GET /items","integration":{"lambdaFunctionRef":{"name":"api-handler"}}},
		{"routeKey":"ANY /items/{id}","integration":{"lambdaFunctionRef":{"name":"api-handler"}},"authorizationType":"AWS_IAM"},
		{"routeKey":"GET /status","integration":{"url":"https://status.example.com/health"}}],
		"stages":[{"name":"$default","throttling":{"rateLimit":10,"burstLimit":20},"variables":{"tier":"gold"},
			"accessLog":{"destinationARN":"arn:aws:logs:us-east-1:123456789012:log-group:api-access","format":"$context.requestId"}}],"cors":null}`)
	o = kubetest.WaitReady(t, h.c, o)
	a = h.readAPI(t, id)
	if !slices.Equal(a.routeKeys(), []string{"ANY /items/{id}", "GET /items", "GET /status"}) || len(a.integrations) != 3 {
		t.Errorf("routes after the update = %v", a.routeKeys())
	}
	if it := a.integrations["GET /status"]; it.IntegrationType != types.IntegrationTypeHttpProxy || aws.ToString(it.IntegrationMethod) != "GET" ||
		aws.ToString(it.IntegrationUri) != "https://status.example.com/health" {
		t.Errorf("URL integration = %+v", it)
	}
	if a.routes["ANY /items/{id}"].AuthorizationType != types.AuthorizationTypeAwsIam || a.api.CorsConfiguration != nil {
		t.Errorf("route = %+v, CORS = %+v", a.routes["ANY /items/{id}"], a.api.CorsConfiguration)
	}
	st = a.stages["$default"]
	if r := st.DefaultRouteSettings; aws.ToInt32(r.ThrottlingBurstLimit) != 20 || aws.ToFloat64(r.ThrottlingRateLimit) != 10 || st.StageVariables["tier"] != "gold" ||
		aws.ToString(st.AccessLogSettings.DestinationArn) != "arn:aws:logs:us-east-1:123456789012:log-group:api-access" || aws.ToString(st.Description) != "" {
		t.Errorf("stage after the update = %+v", st)
	}
	its, err := h.v2.GetIntegrations(context.Background(), &apigatewayv2.GetIntegrationsInput{ApiId: aws.String(id)})
	if err != nil || len(its.Items) != 3 {
		t.Errorf("integrations left after the update = %d, %v (the removed route's must go)", len(its.Items), err)
	}

	// Drift: a route deleted, another pointed at a foreign integration, the throttling
	// changed, a foreign route and a foreign stage added.
	h.driftOutside(t, id, a)
	kubetest.ResyncUntil(t, h.c, o, "the drift reverted", func() bool {
		a = h.readAPI(t, id)
		r := a.stages["$default"].DefaultRouteSettings
		return slices.Equal(a.routeKeys(), []string{"ANY /items/{id}", "GET /items", "GET /status"}) && len(a.stages) == 1 &&
			aws.ToString(a.integrations["GET /status"].IntegrationUri) == "https://status.example.com/health" && aws.ToInt32(r.ThrottlingBurstLimit) == 20
	})
	kubetest.WaitEvent(t, h.c, o, "DriftDetected", "routes")
	its, err = h.v2.GetIntegrations(context.Background(), &apigatewayv2.GetIntegrationsInput{ApiId: aws.String(id)})
	if err != nil || len(its.Items) != 3 {
		t.Errorf("integrations after the drift was reverted = %d, %v", len(its.Items), err)
	}

	// The access log and the variables dropped from the spec.
	h.patchSpec(t, o, `{"stages":[{"name":"$default","throttling":{"rateLimit":10,"burstLimit":20}}]}`)
	o = kubetest.WaitReady(t, h.c, o)
	if st := h.readAPI(t, id).stages["$default"]; st.AccessLogSettings != nil || len(st.StageVariables) != 0 {
		t.Errorf("stage after its access log and variables were dropped = %+v", st)
	}

	kubetest.Delete(t, h.c, o)
	if _, err := h.v2.GetApi(context.Background(), &apigatewayv2.GetApiInput{ApiId: aws.String(id)}); !awserr.IsNotFound(err) {
		t.Errorf("the API after its object went: %v", err)
	}
	if got := h.invokeStatements(t, fn, id); len(got) != 0 {
		t.Errorf("invoke statements after the API went = %v", got)
	}
}

// driftOutside changes API id through the SDK as another writer would: the GET /items route
// deleted, GET /status pointed at a new integration of another URL, the $default stage's
// throttling changed, a route and a stage added.
func (h *harness) driftOutside(t testing.TB, id string, a v2API) {
	t.Helper()
	ctx := context.Background()
	api := aws.String(id)
	if _, err := h.v2.DeleteRoute(ctx, &apigatewayv2.DeleteRouteInput{ApiId: api, RouteId: a.routes["GET /items"].RouteId}); err != nil {
		t.Fatal(err)
	}
	it, err := h.v2.CreateIntegration(ctx, &apigatewayv2.CreateIntegrationInput{ApiId: api, IntegrationType: types.IntegrationTypeHttpProxy,
		IntegrationUri: aws.String("https://evil.example.com"), IntegrationMethod: aws.String("GET"), PayloadFormatVersion: aws.String("1.0")})
	if err != nil {
		t.Fatal(err)
	}
	target := aws.String("integrations/" + aws.ToString(it.IntegrationId))
	if _, err := h.v2.UpdateRoute(ctx, &apigatewayv2.UpdateRouteInput{ApiId: api, RouteId: a.routes["GET /status"].RouteId, Target: target}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.v2.CreateRoute(ctx, &apigatewayv2.CreateRouteInput{ApiId: api, RouteKey: aws.String("DELETE /items/{id}"), Target: target}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.v2.UpdateStage(ctx, &apigatewayv2.UpdateStageInput{ApiId: api, StageName: aws.String("$default"),
		DefaultRouteSettings: &types.RouteSettings{ThrottlingBurstLimit: aws.Int32(5000), ThrottlingRateLimit: aws.Float64(10000)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.v2.CreateStage(ctx, &apigatewayv2.CreateStageInput{ApiId: api, StageName: aws.String("foreign")}); err != nil {
		t.Fatal(err)
	}
}

// TestAPIGatewayHTTPInvalid checks that admission refuses what it can see (CORS on a WebSocket
// API, a listener route without a VPC link, an integration with two backends, a method on a
// Lambda integration), and that a route key the protocol does not take is terminal with no
// API Gateway call.
func TestAPIGatewayHTTPInvalid(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "aws")
	lambdaRoute := v1alpha1.Route{RouteKey: "GET /items", Integration: v1alpha1.Integration{LambdaFunctionARN: "arn:aws:lambda:us-east-1:123456789012:function:f"}}
	for _, tc := range []struct {
		name   string
		change func(*v1alpha1.APIGateway)
		want   string
	}{
		{"cors-websocket", func(a *v1alpha1.APIGateway) {
			a.Spec.ProtocolType, a.Spec.CORS = v1alpha1.ProtocolWebSocket, &shared.CORS{AllowOrigins: []string{"*"}}
		}, "cors applies to HTTP APIs only"},
		{"listener-without-vpclink", func(a *v1alpha1.APIGateway) {
			a.Spec.Routes[0].Integration = v1alpha1.Integration{Listener: &v1alpha1.ListenerTarget{ALBRef: &shared.Reference{Name: "alb"}, Port: 80}}
		}, "need vpcLink"},
		{"two-backends", func(a *v1alpha1.APIGateway) { a.Spec.Routes[0].Integration.URL = "https://example.com" }, "set exactly one of"},
		{"method-on-lambda", func(a *v1alpha1.APIGateway) { a.Spec.Routes[0].Integration.Method = "GET" }, "method applies to url integrations only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := httpAPI(tc.name, lambdaRoute)
			tc.change(a)
			kubetest.MustRefuse(t, h.c, a, tc.want)
		})
	}
	h.emu.Calls.Reset()
	bad := httpAPI("bad-key", v1alpha1.Route{RouteKey: "GET items", Integration: lambdaRoute.Integration})
	kubetest.Create(t, h.c, bad)
	bad = kubetest.WaitCondition(t, h.c, bad, "Synced", "False", condition.ReasonInvalidSpec)
	if msg := strings.Join(kubetest.ConditionTexts(bad.Status.Conditions), "; "); !strings.Contains(msg, `"METHOD /path"`) {
		t.Errorf("conditions = %s, want the route key's form", msg)
	}
	time.Sleep(300 * time.Millisecond)
	if calls := h.emu.Calls.Snapshot()["APIGatewayV2"]; len(calls) != 0 {
		t.Errorf("API Gateway calls for an invalid spec: %v", calls)
	}
}

// httpAPI returns an HTTP APIGateway named name in namespace default, with the provider aws
// and the routes.
func httpAPI(name string, routes ...v1alpha1.Route) *v1alpha1.APIGateway {
	a := &v1alpha1.APIGateway{ObjectMeta: seedMeta(name)}
	a.Spec.ProviderRef = shared.ProviderReference{Name: "aws"}
	a.Spec.ProtocolType = v1alpha1.ProtocolHTTP
	a.Spec.Routes = routes
	a.Spec.Stages = []v1alpha1.Stage{{Name: "prod"}}
	return a
}

// TestAPIGatewayHTTPAdoptAndOrphan checks an HTTP API's ownership: an object that lost its
// recorded id (a create whose answer was lost) finds its API again by its ownership tags
// instead of creating a second one, and deletionPolicy Orphan leaves the API without the
// ownership tags when the object is deleted.
func TestAPIGatewayHTTPAdoptAndOrphan(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "aws")
	a := httpAPI("status-api", v1alpha1.Route{RouteKey: "GET /status", Integration: v1alpha1.Integration{URL: "https://status.example.com"}})
	a.Spec.DeletionPolicy = shared.DeletionPolicyOrphan
	kubetest.Create(t, h.c, a)
	a = kubetest.WaitReady(t, h.c, a)
	id := a.Status.APIID
	h.emu.Calls.Reset()
	if err := h.c.Patch(context.Background(), a, client.RawPatch(k8stypes.MergePatchType,
		[]byte(`{"metadata":{"annotations":{"`+shared.AnnotationExternalName+`":null}}}`))); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, a, "the API adopted", func() bool {
		cur := &v1alpha1.APIGateway{}
		if err := h.c.Get(context.Background(), client.ObjectKeyFromObject(a), cur); err != nil {
			t.Fatal(err)
		}
		return h.emu.Calls.Snapshot()["APIGatewayV2"]["GetApis"]["success"] > 0 && cur.Annotations[shared.AnnotationExternalName] == id
	})
	apis, err := h.v2.GetApis(context.Background(), &apigatewayv2.GetApisInput{})
	if err != nil || len(apis.Items) != 1 || h.emu.Calls.Snapshot()["APIGatewayV2"]["CreateApi"]["success"] != 0 {
		t.Errorf("APIs after the id was lost = %+v, %v", apis, err)
	}

	kubetest.Delete(t, h.c, a)
	api, err := h.v2.GetApi(context.Background(), &apigatewayv2.GetApiInput{ApiId: aws.String(id)})
	if err != nil {
		t.Fatalf("the orphaned API: %v", err)
	}
	if _, owned := api.Tags[shared.TagOwnerUID]; owned {
		t.Errorf("the orphaned API's tags = %v, want no ownership tags", api.Tags)
	}
}
