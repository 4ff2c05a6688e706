// Package condition is the vocabulary of the conditions every infra-operator object reports:
// the condition types, and every reason the reconcile engine, the AWSProvider controller and
// the kinds' drivers give. Reasons are CamelCase, stable, and documented here so that users
// and dashboards can rely on them.
package condition

// Condition types every managed kind reports.
const (
	// TypeReady is True when the AWS resource (or the provider) is usable.
	TypeReady = "Ready"
	// TypeSynced is True when the last reconcile succeeded.
	TypeSynced = "Synced"
	// TypeStalled is True, with the reason, while the resource cannot make progress until its
	// spec changes (a terminal error); it is absent otherwise. It follows the kstatus
	// convention, so GitOps tools report such a resource as failed rather than progressing.
	TypeStalled = "Stalled"
	// TypeDrifted is True while the AWS resource differs from the spec because something
	// outside the operator changed it (status.drift names the fields), and False once the
	// spec was restored or the resource matches it again. It is absent until a first drift.
	TypeDrifted = "Drifted"
	// TypePlanPending is True while changes to the AWS resource of an object with changePolicy
	// Manual wait for approval (status.plan holds them), and False once the approved plan was
	// applied. It is absent on objects that never waited.
	TypePlanPending = "PlanPending"
)
