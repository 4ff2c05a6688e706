package edge_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestAPIGatewayWebSocketSeedExample applies examples/edge/apigateway-websocket.yaml in front of
// the compute family's seed api-handler function: the API reaches Ready with its route
// selection expression, its four routes integrated with the function through its invocation
// URI, and its production stage at wss://<id>.execute-api.<region>.amazonaws.com/production;
// deleting the object deletes the API and its invoke statement.
func TestAPIGatewayWebSocketSeedExample(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	fn := h.apiHandler(t)
	h.apply(t, "apigateway-websocket.yaml", "default")
	o := kubetest.WaitReady(t, h.c, &v1alpha1.APIGateway{ObjectMeta: seedMeta("chat-api")})
	id := o.Status.APIID
	endpoint := "wss://" + id + ".execute-api.us-east-1.amazonaws.com"
	if s := o.Status; s.APIEndpoint != endpoint || len(s.Stages) != 1 || s.Stages[0].URL != endpoint+"/production" || !slices.Equal(s.InvokeGrants, []string{fn}) {
		t.Errorf("status = %+v", s)
	}
	a := h.readAPI(t, id)
	if a.api.ProtocolType != types.ProtocolTypeWebsocket || aws.ToString(a.api.RouteSelectionExpression) != "$request.body.action" {
		t.Errorf("API = %+v", a.api)
	}
	if !slices.Equal(a.routeKeys(), []string{"$connect", "$default", "$disconnect", "sendmessage"}) || len(a.integrations) != 4 {
		t.Errorf("routes = %v, integrations = %v", a.routeKeys(), a.integrations)
	}
	uri := "arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/" + fn + "/invocations"
	for key, it := range a.integrations {
		if it.IntegrationType != types.IntegrationTypeAwsProxy || aws.ToString(it.IntegrationUri) != uri || aws.ToString(it.IntegrationMethod) != "POST" {
			t.Errorf("integration of %s = %+v", key, it)
		}
	}
	st := a.stages["production"]
	if r := st.DefaultRouteSettings; !aws.ToBool(st.AutoDeploy) || aws.ToInt32(r.ThrottlingBurstLimit) != 1000 || aws.ToFloat64(r.ThrottlingRateLimit) != 500 {
		t.Errorf("stage = %+v", st)
	}
	if got := h.invokeStatements(t, fn, id); len(got) != 1 || !strings.HasSuffix(got[0], ":"+id+"/*") {
		t.Errorf("invoke statements = %v", got)
	}

	kubetest.Delete(t, h.c, o)
	if _, err := h.v2.GetApi(context.Background(), &apigatewayv2.GetApiInput{ApiId: aws.String(id)}); !awserr.IsNotFound(err) {
		t.Errorf("the API after its object went: %v", err)
	}
	if got := h.invokeStatements(t, fn, id); len(got) != 0 {
		t.Errorf("invoke statements after the API went = %v", got)
	}
}
