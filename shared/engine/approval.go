package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// planHashLength is how many hexadecimal digits of the plan's SHA-256 its hash keeps: short
// enough to type in an annotation, long enough that two plans of one object never share it.
const planHashLength = 12

// awaitsApproval reports whether the changes obs found wait for approval: o has changePolicy
// Manual, its resource is not one it is still creating, and its approve-plan annotation does
// not hold the hash of this plan. A plan approved and then changed (the spec or the difference
// changed since) has another hash, so it waits again.
func (r *Reconciler[O, S]) awaitsApproval(p *pass[O], obs managed.Observation[S]) (bool, *v1alpha1.PendingPlan) {
	o := p.o
	if o.GetManagedSpec().ChangePolicy != v1alpha1.ChangePolicyManual || creating(o, obs.Tags) {
		return false, nil
	}
	plan := pendingPlan(p, obs.Changes)
	return o.GetAnnotations()[v1alpha1.AnnotationApprovePlan] != plan.Hash, plan
}

// creating reports whether o is still creating its resource: its spec was never applied (no
// observed generation yet) and the resource's ownership tags, when the kind reports them, name
// o. A kind that creates in several calls (an API, then its routes and stages) plans the later
// ones as changes; they complete the creation, which changePolicy does not gate. A resource o
// adopts carries no tags naming o yet, so the first changes to it wait for approval.
func creating(o v1alpha1.Managed, tags map[string]string) bool {
	return o.GetManagedStatus().ObservedGeneration == 0 && (tags == nil || tags[v1alpha1.TagOwnerUID] == string(o.GetUID()))
}

// awaitApproval leaves the AWS resource as it is and shows the plan that waits: status.plan,
// the PlanPending condition (with how to approve), a Normal event for each new plan, and the
// Drifted condition when the change restores drift. The object looks again at the sync period,
// or at once when an annotation or the spec changes.
func (r *Reconciler[O, S]) awaitApproval(p *pass[O], obs managed.Observation[S], plan *v1alpha1.PendingPlan) (ctrl.Result, error) {
	o := p.o
	st := o.GetManagedStatus()
	plan.Since = metav1.NewTime(r.opts.Now())
	if old := p.orig.GetManagedStatus().Plan; old != nil && old.Hash == plan.Hash {
		plan.Since = old.Since
	} else {
		r.event(o, corev1.EventTypeNormal, condition.ReasonAwaitingApproval, "Plan", "plan %s waits for approval: %s", plan.Hash, obs.Changes.String())
	}
	st.Plan = plan
	how := fmt.Sprintf("changePolicy Manual: %d field(s) of %s differ from the spec (%s) and wait for approval; to apply exactly this plan, "+
		"annotate the object with %s=%s", len(plan.Changes), r.kind.Name, obs.Changes.String(), v1alpha1.AnnotationApprovePlan, plan.Hash)
	setCondition(o, condition.TypePlanPending, metav1.ConditionTrue, condition.ReasonAwaitingApproval, how)
	if drifted(p) {
		fields := obs.Changes.Fields()
		r.markDrift(p, fields, condition.ReasonDriftReported, driftMessage(r.kind.Name, fields, "changePolicy Manual restores the spec once the plan is approved"))
	}
	setReadiness(o, obs.Ready, condition.ReasonAvailable, condition.ReasonUnavailable, "changes wait for approval (status.plan)")
	setCondition(o, condition.TypeSynced, metav1.ConditionTrue, condition.ReasonReconcileSuccess, "")
	p.result = "planned"
	return ctrl.Result{RequeueAfter: r.jitter(r.opts.SyncPeriod)}, nil
}

// settlePlan clears the plan of an object whose resource no longer differs from the spec:
// reason ReasonPlanApproved when the approved plan was applied, ReasonInSync when the
// difference went away by itself (the spec or AWS changed back). An object that never had a
// plan is left as it is.
func settlePlan[O v1alpha1.Managed](p *pass[O], reason, message string) {
	o := p.o
	st := o.GetManagedStatus()
	st.Plan = nil
	if c := meta.FindStatusCondition(st.Conditions, condition.TypePlanPending); c != nil && c.Status == metav1.ConditionTrue {
		setCondition(o, condition.TypePlanPending, metav1.ConditionFalse, reason, message)
	}
}

// pendingPlan returns the plan of changes for status.plan, without Since: one entry per field
// in the order of their names (with its values when any change of the field shows them),
// with the values the driver shows, scrubbed of every secret value the pass read, and a hash
// of the plan and of the spec it applies (a spec change whose fields look the same is another
// plan).
func pendingPlan[O v1alpha1.Managed](p *pass[O], changes managed.Plan) *v1alpha1.PendingPlan {
	byField := map[string]v1alpha1.PlannedChange{}
	for _, c := range changes {
		for _, f := range c.Fields {
			v, shown := c.Values[f]
			if _, seen := byField[f]; seen && !shown {
				continue
			}
			byField[f] = v1alpha1.PlannedChange{Field: f, Current: scrubText(p.secrets, v.Current), Desired: scrubText(p.secrets, v.Desired)}
		}
	}
	out := slices.Collect(maps.Values(byField))
	// Sorted, so that a driver that plans in map order does not make a new plan of the same changes.
	slices.SortFunc(out, func(a, b v1alpha1.PlannedChange) int { return strings.Compare(a.Field, b.Field) })
	return &v1alpha1.PendingPlan{Hash: planHash(p.o, out), Changes: out}
}

// planHash returns the short hash of changes to o as its spec stands.
func planHash(o v1alpha1.Managed, changes []v1alpha1.PlannedChange) string {
	h := sha256.New()
	// An API object and a slice of structs of strings always marshal.
	whole, _ := json.Marshal(o)
	var doc struct {
		Spec json.RawMessage `json:"spec"`
	}
	_ = json.Unmarshal(whole, &doc)
	plan, _ := json.Marshal(changes)
	h.Write(doc.Spec)
	h.Write([]byte{0})
	h.Write(plan)
	return hex.EncodeToString(h.Sum(nil))[:planHashLength]
}
