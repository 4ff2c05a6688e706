package networking_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPreview runs the shared preview check on a VPC (its tags): a Preview plans a new object as Create, a
// change of its spec as Update with the fields and values the operator then plans when the
// change is applied, and the applied change as NoChange, each without an AWS write.
func TestPreview(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	kubetest.RunPreviewCheck(t, h.c, kubetest.PreviewCheck[*v1alpha1.VPC]{
		New: func(name string) *v1alpha1.VPC {
			v := &v1alpha1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
			v.Spec.ProviderRef.Name, v.Spec.CIDRBlock = "aws", "10.43.0.0/16"
			v.Spec.Tags = map[string]string{"team": "networking"}
			return v
		},
		Change: func(v *v1alpha1.VPC) { v.Spec.Tags["team"] = "platform" },
		Calls:  h.emu.Calls.Snapshot,
	})
}
