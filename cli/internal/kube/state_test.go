package kube

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestStateOfExplains checks the reason infractl status gives: a stalled resource's, a pending
// plan's (with the way to approve it) on a Ready resource, a not-Ready resource's, and none for a
// Ready resource with nothing waiting.
func TestStateOfExplains(t *testing.T) {
	cond := func(typ, status, reason, message string) any {
		return map[string]any{"type": typ, "status": status, "reason": reason, "message": message, "lastTransitionTime": "2026-11-28T12:00:00Z"}
	}
	ready := cond("Ready", "True", "Available", "")
	cases := map[string]struct {
		conditions []any
		want       string
	}{
		"ready":        {conditions: []any{ready}, want: ""},
		"planned":      {conditions: []any{ready, cond("PlanPending", "True", "AwaitingApproval", "annotate approve-plan=abc")}, want: "AwaitingApproval: annotate approve-plan=abc"},
		"plan applied": {conditions: []any{ready, cond("PlanPending", "False", "PlanApproved", "applied the plan abc")}, want: ""},
		"stalled": {conditions: []any{cond("Ready", "False", "InvalidSpec", "bad"), cond("Stalled", "True", "InvalidSpec", "bad"),
			cond("PlanPending", "True", "AwaitingApproval", "x")}, want: "InvalidSpec: bad"},
		"creating": {conditions: []any{cond("Ready", "False", "Creating", "being created")}, want: "Creating: being created"},
	}
	for name, tc := range cases {
		u := &unstructured.Unstructured{Object: map[string]any{"kind": "SQSQueue", "status": map[string]any{"conditions": tc.conditions}}}
		if got := StateOf(u, time.Now()).Reason; got != tc.want {
			t.Errorf("%s: reason %q, want %q", name, got, tc.want)
		}
	}
}
