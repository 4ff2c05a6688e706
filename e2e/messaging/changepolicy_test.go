package messaging_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestSQSQueueChangePolicyManual checks changePolicy Manual on a real kind against the
// emulator: the queue is created without approval; a spec change waits in status.plan with
// SQS's current value and the spec's, and costs no SetQueueAttributes call; approving the
// plan's hash applies it with one call, and the plan is cleared.
func TestSQSQueueChangePolicyManual(t *testing.T) {
	h := start(t)
	ns := h.namespace()
	q := queue(ns, "gated", "gated")
	q.Spec.ChangePolicy = shared.ChangePolicyManual
	q.Spec.VisibilityTimeout = aws.Int32(30)
	h.create(q)
	q = waitReady(h, q)

	h.emu.Calls.Reset()
	kubetest.Update(h.t, h.env.Client, q, func(q *v1alpha1.SQSQueue) { q.Spec.VisibilityTimeout = aws.Int32(90) })
	q = waitFor(h, q, "the change waits for approval", func(q *v1alpha1.SQSQueue) bool { return q.Status.Plan != nil })
	want := []shared.PlannedChange{{Field: "VisibilityTimeout", Current: "30", Desired: "90"}}
	if got := q.Status.Plan.Changes; len(got) != 1 || got[0] != want[0] {
		t.Errorf("status.plan.changes = %+v, want %+v", got, want)
	}
	if c := meta.FindStatusCondition(q.Status.Conditions, condition.TypePlanPending); c == nil || c.Reason != condition.ReasonAwaitingApproval {
		t.Errorf("PlanPending = %+v, want True/%s", c, condition.ReasonAwaitingApproval)
	}
	if n := h.calls("SQS")["SetQueueAttributes"]; n != 0 || h.attributes(q.Status.QueueURL)["VisibilityTimeout"] != "30" {
		t.Fatalf("before approval: %d SetQueueAttributes calls, VisibilityTimeout %s", n, h.attributes(q.Status.QueueURL)["VisibilityTimeout"])
	}

	hash := q.Status.Plan.Hash
	kubetest.Update(h.t, h.env.Client, q, func(q *v1alpha1.SQSQueue) {
		metav1.SetMetaDataAnnotation(&q.ObjectMeta, shared.AnnotationApprovePlan, hash)
	})
	waitFor(h, q, "the approved plan is applied", func(q *v1alpha1.SQSQueue) bool {
		return q.Status.Plan == nil && meta.IsStatusConditionFalse(q.Status.Conditions, condition.TypePlanPending) && q.Status.Ready
	})
	if n := h.calls("SQS")["SetQueueAttributes"]; n != 1 || h.attributes(q.Status.QueueURL)["VisibilityTimeout"] != "90" {
		t.Errorf("after approval: %d SetQueueAttributes calls, VisibilityTimeout %s; want one call, 90", n, h.attributes(q.Status.QueueURL)["VisibilityTimeout"])
	}
}
