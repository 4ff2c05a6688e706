package data_test

import (
	"testing"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPreview runs the shared preview check on an S3Bucket (its tags): a Preview plans a new object as Create, a
// change of its spec as Update with the fields and values the operator then plans when the
// change is applied, and the applied change as NoChange, each without an AWS write.
func TestPreview(t *testing.T) {
	h := start(t)
	h.provider("default", "production-aws")
	kubetest.RunPreviewCheck(t, h.env.Client, kubetest.PreviewCheck[*v1alpha1.S3Bucket]{
		New: func(name string) *v1alpha1.S3Bucket {
			b := newBucket(name, "preview-check-bucket", "")
			b.Spec.Tags = map[string]string{"team": "data"}
			return b
		},
		Change: func(b *v1alpha1.S3Bucket) { b.Spec.Tags["team"] = "platform" },
		Calls:  h.emu.Calls.Snapshot,
	})
}
