package edge_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	lambdatypes "github.com/aws/aws-sdk-go-v2/service/lambda/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/awsfixture"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestAPIGatewayForeignFunction checks that an API that names, by ARN, a Lambda function
// another namespace's object made is refused with ForeignWriteNotAllowed, naming the function
// and the operator flag, and adds no statement to the function's policy (no AddPermission
// call), while a function its own namespace's object made is let be invoked by the API.
func TestAPIGatewayForeignFunction(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	function := func(name, owner string) string {
		t.Helper()
		out, err := h.fn.CreateFunction(context.Background(), &lambda.CreateFunctionInput{FunctionName: aws.String(name),
			Runtime: lambdatypes.RuntimePython311, Handler: aws.String("index.handler"), Role: aws.String("arn:aws:iam::123456789012:role/r"),
			Code: &lambdatypes.FunctionCode{ZipFile: awsfixture.Zip(t, "index.py", "def handler(event, context):\n    return 'ok'\n")},
			Tags: map[string]string{shared.TagOwnerNamespace: owner, shared.TagOwnerUID: name + "-uid", shared.TagOwnerName: name, shared.TagOwnerKind: "LambdaFunction"}})
		if err != nil {
			t.Fatalf("create function %s: %v", name, err)
		}
		return aws.ToString(out.FunctionArn)
	}
	theirs, ours := function("theirs", "other-team"), function("ours", ns)
	api := func(name, fn string) *v1alpha1.APIGateway {
		a := httpAPI(name, v1alpha1.Route{RouteKey: "GET /items", Integration: v1alpha1.Integration{LambdaFunctionARN: fn}})
		a.ObjectMeta = metav1.ObjectMeta{Namespace: ns, Name: name}
		return a
	}
	h.emu.Calls.Reset()
	borrowed := api("borrowed", theirs)
	kubetest.Create(t, h.c, borrowed)
	borrowed = kubetest.WaitCondition(t, h.c, borrowed, "Synced", "False", condition.ReasonForeignWriteNotAllowed)
	if msg := strings.Join(kubetest.ConditionTexts(borrowed.Status.Conditions), "; "); !strings.Contains(msg, "--foreign-write-namespaces") || !strings.Contains(msg, theirs) {
		t.Errorf("conditions %s do not name the function and the flag", msg)
	}
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "Lambda")["AddPermission"]; n != 0 {
		t.Errorf("%d AddPermission calls for another namespace's function; want none", n)
	}

	own := api("own", ours)
	kubetest.Create(t, h.c, own)
	own = kubetest.WaitReady(t, h.c, own)
	if got := h.invokeStatements(t, ours, own.Status.APIID); len(got) != 1 {
		t.Errorf("the API holds %d invoke statements in its own namespace's function; want 1", len(got))
	}
}
