package messaging_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPreview runs the shared preview check on an SQSQueue (its visibility timeout): a Preview plans a new object as Create, a
// change of its spec as Update with the fields and values the operator then plans when the
// change is applied, and the applied change as NoChange, each without an AWS write.
func TestPreview(t *testing.T) {
	h := start(t)
	ns := h.namespace()
	kubetest.RunPreviewCheck(t, h.env.Client, kubetest.PreviewCheck[*v1alpha1.SQSQueue]{
		New: func(name string) *v1alpha1.SQSQueue {
			q := queue(ns, name, "preview-check")
			q.Spec.VisibilityTimeout = aws.Int32(45)
			return q
		},
		Change: func(q *v1alpha1.SQSQueue) { q.Spec.VisibilityTimeout = aws.Int32(90) },
		Calls:  h.emu.Calls.Snapshot,
	})
}
