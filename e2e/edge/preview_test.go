package edge_test

import (
	"testing"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPreview runs the shared preview check on an APIGateway (its description): a Preview plans a new object as Create, a
// change of its spec as Update with the fields and values the operator then plans when the
// change is applied, and the applied change as NoChange, each without an AWS write.
func TestPreview(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "aws")
	kubetest.RunPreviewCheck(t, h.c, kubetest.PreviewCheck[*v1alpha1.APIGateway]{
		New: func(name string) *v1alpha1.APIGateway {
			a := httpAPI(name, v1alpha1.Route{RouteKey: "GET /status", Integration: v1alpha1.Integration{URL: "https://status.example.com"}})
			a.Spec.Name, a.Spec.Description = "preview-check", "the preview check's API"
			return a
		},
		Change: func(a *v1alpha1.APIGateway) { a.Spec.Description = "previewed" },
		Calls:  h.emu.Calls.Snapshot,
	})
}
