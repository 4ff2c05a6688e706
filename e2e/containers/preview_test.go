package containers_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPreview runs the shared preview check on an ECRRepository (its tag mutability): a Preview plans a new object as Create, a
// change of its spec as Update with the fields and values the operator then plans when the
// change is applied, and the applied change as NoChange, each without an AWS write.
func TestPreview(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	kubetest.RunPreviewCheck(t, h.c, kubetest.PreviewCheck[*v1alpha1.ECRRepository]{
		New: func(name string) *v1alpha1.ECRRepository {
			r := newRepository(ns, name, "team/preview-check")
			r.Spec.ImageTagMutability = string(types.ImageTagMutabilityImmutable)
			return r
		},
		Change: func(r *v1alpha1.ECRRepository) { r.Spec.ImageTagMutability = string(types.ImageTagMutabilityMutable) },
		Calls:  h.emu.Calls.Snapshot,
	})
}
