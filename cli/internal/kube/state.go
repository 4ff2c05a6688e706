package kube

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// State is what infractl shows of one managed resource.
type State struct {
	// Kind, Namespace and Name identify the object.
	Kind, Namespace, Name string
	// Ready and Synced are the statuses of the conditions of those types ("" when absent).
	Ready, Synced string
	// Stalled is true when the resource cannot progress until its spec changes.
	Stalled bool
	// Blocked is true when the resource waits for a referenced object that is stalled.
	Blocked bool
	// ID is the AWS identifier recorded on the object.
	ID string
	// Age is how long ago the object was created.
	Age time.Duration
	// Reason says why a resource is not Ready, or that its changes wait for approval
	// (changePolicy Manual): the reason and message of the condition that explains it.
	Reason string
}

// StateOf reads the State of a managed object (or an AWSProvider) from its conditions.
func StateOf(u *unstructured.Unstructured, now time.Time) State {
	s := State{Kind: u.GetKind(), Namespace: u.GetNamespace(), Name: u.GetName(),
		ID: u.GetAnnotations()[v1alpha1.AnnotationExternalName], Age: now.Sub(u.GetCreationTimestamp().Time)}
	if s.ID == "" && u.GetKind() == "AWSProvider" {
		s.ID, _, _ = unstructured.NestedString(u.Object, "status", "accountID")
	}
	conds := conditions(u)
	ready, synced, stalled := meta.FindStatusCondition(conds, "Ready"), meta.FindStatusCondition(conds, "Synced"), meta.FindStatusCondition(conds, "Stalled")
	if ready != nil {
		s.Ready = string(ready.Status)
	}
	if synced != nil {
		s.Synced = string(synced.Status)
	}
	s.Stalled = stalled != nil && stalled.Status == metav1.ConditionTrue
	s.Blocked = ready != nil && ready.Status != metav1.ConditionTrue && ready.Reason == condition.ReasonReferenceFailed
	planned := meta.FindStatusCondition(conds, condition.TypePlanPending)
	switch {
	case s.Stalled:
		s.Reason = describe(stalled)
	case planned != nil && planned.Status == metav1.ConditionTrue:
		s.Reason = describe(planned)
	case ready != nil && ready.Status != metav1.ConditionTrue:
		s.Reason = describe(ready)
	case synced != nil && synced.Status == metav1.ConditionFalse:
		s.Reason = describe(synced)
	case ready == nil:
		s.Reason = "not reconciled yet"
	}
	return s
}

// Settled reports whether the resource is Ready, stalled, or blocked by a reference that is:
// nothing more will happen to it without a change.
func (s State) Settled() bool { return s.Ready == "True" || s.Stalled || s.Blocked }

// conditions decodes status.conditions of an object.
func conditions(u *unstructured.Unstructured) []metav1.Condition {
	raw, found, err := unstructured.NestedSlice(u.Object, "status", "conditions")
	if err != nil || !found {
		return nil
	}
	out := make([]metav1.Condition, 0, len(raw))
	for _, r := range raw {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		var c metav1.Condition
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, &c); err == nil {
			out = append(out, c)
		}
	}
	return out
}

func describe(c *metav1.Condition) string {
	if c.Message == "" {
		return c.Reason
	}
	return fmt.Sprintf("%s: %s", c.Reason, c.Message)
}
