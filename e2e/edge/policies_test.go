package edge_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPolicies runs the shared policy check on an HTTP APIGateway: its outputs in a
// ConfigMap, a description changed outside the operator reported (driftPolicy Report) and
// then restored (Enforce), and a second object that only observes the API.
func TestPolicies(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "aws")
	description := func(ctx context.Context, a *v1alpha1.APIGateway) (string, error) {
		out, err := h.v2.GetApi(ctx, &apigatewayv2.GetApiInput{ApiId: aws.String(a.Status.APIID)})
		if err != nil {
			return "", err
		}
		return aws.ToString(out.Description), nil
	}
	kubetest.RunPolicyCheck(t, h.c, kubetest.PolicyCheck[*v1alpha1.APIGateway]{
		New: func(name string) *v1alpha1.APIGateway {
			a := httpAPI(name, v1alpha1.Route{RouteKey: "GET /status", Integration: v1alpha1.Integration{URL: "https://status.example.com"}})
			a.Spec.Name, a.Spec.Description = "policy-check", "the policy check's API"
			a.Spec.Tags = map[string]string{"team": "edge"}
			return a
		},
		Outputs: []string{"apiEndpoint", "apiID"},
		Drift: func(ctx context.Context, a *v1alpha1.APIGateway) error {
			_, err := h.v2.UpdateApi(ctx, &apigatewayv2.UpdateApiInput{ApiId: aws.String(a.Status.APIID), Description: aws.String("changed by hand")})
			return err
		},
		DriftField: "description",
		Drifted: func(ctx context.Context, a *v1alpha1.APIGateway) (bool, error) {
			d, err := description(ctx, a)
			return d == "changed by hand", err
		},
		Exists: func(ctx context.Context, a *v1alpha1.APIGateway) (bool, error) {
			_, err := description(ctx, a)
			return kubetest.Found(err)
		},
	})
}
