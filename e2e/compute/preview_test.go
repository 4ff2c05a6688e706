package compute_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/shared/testenv/awsfixture"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPreview runs the shared preview check on a LambdaFunction (its timeout): a Preview plans a new object as Create, a
// change of its spec as Update with the fields and values the operator then plans when the
// change is applied, and the applied change as NoChange, each without an AWS write.
func TestPreview(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	kubetest.Create(t, h.c, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "code"},
		BinaryData: map[string][]byte{"function.zip": awsfixture.Zip(t, "index.py", "v1")}})
	kubetest.RunPreviewCheck(t, h.c, kubetest.PreviewCheck[*v1alpha1.LambdaFunction]{
		New: func(name string) *v1alpha1.LambdaFunction {
			return newFunction(ns, name, func(f *v1alpha1.LambdaFunction) { f.Spec.Timeout = 20 })
		},
		Change: func(f *v1alpha1.LambdaFunction) { f.Spec.Timeout = 30 },
		Calls:  h.emu.Calls.Snapshot,
	})
}
