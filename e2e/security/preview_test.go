package security_test

import (
	"testing"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPreview runs the shared preview check on a KMSKey (its description): a Preview plans a new object as Create, a
// change of its spec as Update with the fields and values the operator then plans when the
// change is applied, and the applied change as NoChange, each without an AWS write.
func TestPreview(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	kubetest.RunPreviewCheck(t, h.c, kubetest.PreviewCheck[*v1alpha1.KMSKey]{
		New: func(name string) *v1alpha1.KMSKey {
			return newKMSKey(ns, name, func(k *v1alpha1.KMSKey) { k.Spec.Description = "preview check" })
		},
		Change: func(k *v1alpha1.KMSKey) { k.Spec.Description = "previewed" },
		Calls:  h.emu.Calls.Snapshot,
	})
}
