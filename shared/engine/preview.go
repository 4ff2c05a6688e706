package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/uuid"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// errPreviewBusy says that the provider's workers were all busy: the preview is planned again
// in a moment.
var errPreviewBusy = errors.New("the provider's workers are busy")

// planned is one object of a preview as the reconciler plans it: the object as applying the
// manifest would leave it (the existing object's metadata and status with the manifest's spec),
// and whether the manifest changes the spec.
type planned[O v1alpha1.Managed] struct {
	o           O
	exists      bool
	specChanged bool
}

// preview plans what applying manifest, an object of the kind, in namespace ns would do, with
// the same checks and the same read-only Observe as a pass, writing nothing to AWS or to the
// cluster and emitting no event. It returns errPreviewBusy when the provider's workers are busy.
func (r *Reconciler[O, S]) preview(ctx context.Context, ns string, manifest *unstructured.Unstructured) (v1alpha1.PreviewResult, error) {
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	ctx, secrets := managed.WithSecrets(ctx)
	ctx = managed.WithEventSink(ctx, func(string, string, string, string) {})
	res, err := r.previewObject(ctx, ns, manifest, secrets)
	res.Kind, res.Name = r.kind.Name, manifest.GetName()
	res.Message = scrubText(secrets, res.Message)
	for i, c := range res.Changes {
		res.Changes[i].Current, res.Changes[i].Desired = scrubText(secrets, c.Current), scrubText(secrets, c.Desired)
	}
	return res, err
}

// previewObject is preview without the scrubbing of what it reports.
func (r *Reconciler[O, S]) previewObject(ctx context.Context, ns string, manifest *unstructured.Unstructured, secrets *managed.Secrets) (v1alpha1.PreviewResult, error) {
	if mns := manifest.GetNamespace(); mns != "" && mns != ns {
		return v1alpha1.PreviewResult{Action: v1alpha1.PreviewRefused, Reason: condition.ReasonInvalidSpec,
			Message: fmt.Sprintf("the manifest names namespace %s; a Preview plans objects of its own namespace %s only", mns, ns)}, nil
	}
	pl, err := r.plannedObject(ctx, ns, manifest)
	if err != nil {
		return v1alpha1.PreviewResult{}, err
	}
	o := pl.o
	switch {
	case !o.GetDeletionTimestamp().IsZero():
		return v1alpha1.PreviewResult{Action: v1alpha1.PreviewDelete, ExternalName: managed.ExternalName(o), Message: "the object is being deleted"}, nil
	case o.GetAnnotations()[v1alpha1.AnnotationPaused] == "true":
		return v1alpha1.PreviewResult{Action: v1alpha1.PreviewNoChange, Reason: condition.ReasonPaused, ExternalName: managed.ExternalName(o),
			Message: "reconciliation is paused by the " + v1alpha1.AnnotationPaused + " annotation: nothing is written to AWS"}, nil
	}
	if r.kind.Validate != nil {
		if err := r.kind.Validate(o); err != nil {
			return previewOutcome(invalidSpec(err)), nil
		}
	}
	ctx = r.withSessions(ctx, o)
	sess, _, err := r.validatedSession(ctx, o)
	if err != nil {
		return previewOutcome(err), nil
	}
	desired := desiredTags(o, sess.DefaultTags())
	if n := len(desired); n > managed.MaxTags {
		return previewOutcome(managed.Terminal(condition.ReasonTooManyTags, "the resource would carry %d tags; AWS allows %d", n, managed.MaxTags)), nil
	}
	if err := CheckTags(desired); err != nil {
		return previewOutcome(&managed.TerminalError{Reason: condition.ReasonInvalidSpec, Err: err}), nil
	}
	if _, err := r.resolveReferences(ctx, o); err != nil {
		return previewOutcome(err), nil
	}
	if err := r.guard(ctx, o, sess); err != nil {
		return previewOutcome(err), nil
	}
	drv, release, ok := r.connect(ctx, sess, o)
	if !ok {
		return v1alpha1.PreviewResult{}, errPreviewBusy
	}
	defer release()
	req := managed.Request{Tags: desired, StalledBefore: stalledBefore(o)}
	if v1alpha1.ObserveOnly(o) {
		req.Tags = observedTags(desired)
	}
	obs, err := drv.Observe(managed.WithBoundary(ctx, r.opts.Boundary), o, req)
	if err != nil {
		return previewOutcome(fmt.Errorf("observe: %w", err)), nil
	}
	return r.previewObserved(pl, obs, req, sess.InstallID(), secrets), nil
}

// previewObserved turns what Observe found into a result, as round and observeOnly would
// decide.
func (r *Reconciler[O, S]) previewObserved(pl planned[O], obs managed.Observation[S], req managed.Request, installID string, secrets *managed.Secrets) v1alpha1.PreviewResult {
	o := pl.o
	id := managed.ExternalName(o)
	if v1alpha1.ObserveOnly(o) {
		if owner, foreign := r.otherOwner(o, obs.Tags, installID); obs.Exists && foreign && !r.opts.Boundary.MayTakeOver(o.GetNamespace()) {
			return previewOutcome(managed.Terminal(condition.ReasonTakeoverNotAllowed, "%s %s belongs to %s, outside namespace %s; "+
				"managementPolicy ObserveOnly observes only resources of this namespace's objects", r.kind.Name, id, owner, o.GetNamespace()))
		}
		if !obs.Exists {
			return v1alpha1.PreviewResult{Action: v1alpha1.PreviewNoChange, Reason: condition.ReasonNotFoundInAWS,
				Message: "managementPolicy ObserveOnly: no " + r.kind.Name + " found in AWS, and the operator never creates one"}
		}
		msg := "managementPolicy ObserveOnly: the operator never writes to the resource"
		if fields := observedDrift(o, obs, req.Tags); len(fields) > 0 {
			msg += "; it differs from the spec in " + strings.Join(fields, ", ")
		}
		return v1alpha1.PreviewResult{Action: v1alpha1.PreviewNoChange, ExternalName: id, Message: msg}
	}
	reportOnly := pl.exists && !pl.specChanged && o.GetManagedSpec().DriftPolicy == v1alpha1.DriftPolicyReport
	if !obs.Exists {
		if reportOnly && id != "" && o.GetManagedStatus().ObservedGeneration > 0 {
			return v1alpha1.PreviewResult{Action: v1alpha1.PreviewNoChange, Reason: condition.ReasonDriftReported, ExternalName: id,
				Message: fmt.Sprintf("%s %s was deleted outside the operator; driftPolicy Report leaves it", r.kind.Name, id)}
		}
		return v1alpha1.PreviewResult{Action: v1alpha1.PreviewCreate, Changes: specValues(o),
			Message: fmt.Sprintf("creates the %s", r.kind.Name)}
	}
	created := o.GetAnnotations()[v1alpha1.AnnotationCreatePending] != ""
	if err := r.checkOwnership(o, obs.Tags, installID, created); err != nil {
		res := previewOutcome(err)
		res.ExternalName = id
		return res
	}
	if obs.Conflict != nil {
		res := previewOutcome(obs.Conflict)
		res.ExternalName = id
		return res
	}
	if len(obs.Changes) == 0 {
		msg := "the AWS resource matches the manifest"
		if len(obs.Uncompared) > 0 {
			msg = fmt.Sprintf("AWS is busy with the resource: %s cannot be compared yet", strings.Join(obs.Uncompared, ", "))
		}
		return v1alpha1.PreviewResult{Action: v1alpha1.PreviewNoChange, ExternalName: id, Message: msg}
	}
	fields := obs.Changes.String()
	if reportOnly {
		return v1alpha1.PreviewResult{Action: v1alpha1.PreviewNoChange, Reason: condition.ReasonDriftReported, ExternalName: id,
			Message: fmt.Sprintf("%s changed outside the operator (%s); driftPolicy Report leaves it", r.kind.Name, fields)}
	}
	plan := pendingPlan(&pass[O]{o: o, secrets: secrets}, obs.Changes)
	res := v1alpha1.PreviewResult{Action: v1alpha1.PreviewUpdate, ExternalName: id, Changes: plan.Changes,
		Message: fmt.Sprintf("changes %s in place", fields)}
	if o.GetManagedSpec().ChangePolicy == v1alpha1.ChangePolicyManual && !creating(o, obs.Tags) {
		res.Reason = condition.ReasonAwaitingApproval
		res.Message += "; changePolicy Manual: the change waits for approval of its plan (status.plan)"
	}
	return res
}

// plannedObject returns the object applying manifest would leave in namespace ns: for an
// object that exists, its metadata (with the manifest's labels and annotations added) and
// status with the manifest's spec; for a new one, the manifest with a UID of its own that no
// AWS resource names, so that Observe finds only resources that a claimed name reaches.
func (r *Reconciler[O, S]) plannedObject(ctx context.Context, ns string, manifest *unstructured.Unstructured) (planned[O], error) {
	cur := r.kind.New()
	err := r.client.Get(ctx, types.NamespacedName{Namespace: ns, Name: manifest.GetName()}, cur)
	if err != nil && !apierrors.IsNotFound(err) {
		return planned[O]{}, fmt.Errorf("get %s %s/%s: %w", r.kind.Name, ns, manifest.GetName(), err)
	}
	exists := err == nil
	var doc map[string]any
	if exists {
		if doc, err = runtime.DefaultUnstructuredConverter.ToUnstructured(cur); err != nil {
			return planned[O]{}, fmt.Errorf("read %s %s/%s: %w", r.kind.Name, ns, manifest.GetName(), err)
		}
	} else {
		doc = manifest.DeepCopy().Object
		delete(doc, "status")
	}
	u := &unstructured.Unstructured{Object: doc}
	specChanged := !exists || !equalJSON(doc["spec"], manifest.Object["spec"])
	u.Object["spec"] = runtime.DeepCopyJSONValue(manifest.Object["spec"])
	u.SetNamespace(ns)
	if exists {
		u.SetLabels(merged(u.GetLabels(), manifest.GetLabels()))
		u.SetAnnotations(merged(u.GetAnnotations(), manifest.GetAnnotations()))
	} else {
		u.SetUID(types.UID(uuid.NewString()))
	}
	o := r.kind.New()
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, o); err != nil {
		return planned[O]{}, fmt.Errorf("read the manifest of %s %s/%s: %w", r.kind.Name, ns, manifest.GetName(), err)
	}
	return planned[O]{o: o, exists: exists, specChanged: specChanged}, nil
}

// pruned returns a Delete result for each object of the kind in namespace ns whose name keep
// does not hold, saying what deleting it does to its AWS resource.
func (r *Reconciler[O, S]) pruned(ctx context.Context, ns string, keep map[string]bool) ([]v1alpha1.PreviewResult, error) {
	list := r.kind.NewList()
	if err := r.client.List(ctx, list, client.InNamespace(ns)); err != nil {
		return nil, fmt.Errorf("list %s objects in %s: %w", r.kind.Name, ns, err)
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, fmt.Errorf("read the %s list: %w", r.kind.Name, err)
	}
	var out []v1alpha1.PreviewResult
	for _, item := range items {
		o := item.(O)
		if keep[o.GetName()] {
			continue
		}
		out = append(out, v1alpha1.PreviewResult{Kind: r.kind.Name, Name: o.GetName(), Action: v1alpha1.PreviewDelete,
			ExternalName: managed.ExternalName(o), Message: deletionOutcome(o)})
	}
	return out, nil
}

// deletionOutcome says what deleting o does to its AWS resource.
func deletionOutcome(o v1alpha1.Managed) string {
	id := managed.ExternalName(o)
	switch {
	case v1alpha1.ObserveOnly(o):
		return "deletes the object only: managementPolicy ObserveOnly never touches the AWS resource"
	case id == "":
		return "deletes the object; it has no AWS resource"
	case o.GetManagedSpec().DeletionPolicy == v1alpha1.DeletionPolicyRetain:
		return "deletes the object and keeps the AWS resource " + id + " (deletionPolicy Retain)"
	case o.GetManagedSpec().DeletionPolicy == v1alpha1.DeletionPolicyOrphan:
		return "deletes the object and keeps the AWS resource " + id + ", without ownership tags (deletionPolicy Orphan)"
	}
	return "deletes the object and the AWS resource " + id
}

// previewOutcome turns the error a pass would report into a result: Waiting for what a pass
// waits on (a reference, a Secret, a provider), Refused for what it reports as terminal
// (an AWS refusal of the input included), Failed for an error reading AWS.
func previewOutcome(err error) v1alpha1.PreviewResult {
	if w, ok := managed.AsWaiting(err); ok {
		return v1alpha1.PreviewResult{Action: v1alpha1.PreviewWaiting, Reason: w.Reason, Message: w.Message}
	}
	if pe, ok := provider.AsError(err); ok {
		return v1alpha1.PreviewResult{Action: v1alpha1.PreviewWaiting, Reason: pe.Reason, Message: pe.Message}
	}
	if t, ok := managed.AsTerminal(err); ok {
		return v1alpha1.PreviewResult{Action: v1alpha1.PreviewRefused, Reason: t.Reason, Message: t.Error()}
	}
	reason := condition.ReasonReconcileError
	switch awserr.Classify(err) {
	case awserr.ClassInvalidInput:
		return v1alpha1.PreviewResult{Action: v1alpha1.PreviewRefused, Reason: condition.ReasonAWSRejected, Message: awserr.Describe(err)}
	case awserr.ClassThrottling:
		reason = condition.ReasonThrottled
	case awserr.ClassAccessDenied:
		reason = condition.ReasonAccessDenied
	}
	return v1alpha1.PreviewResult{Action: v1alpha1.PreviewFailed, Reason: reason, Message: awserr.Describe(err)}
}

// policyDefaults are the policies every kind's spec has, at their defaults: a plan of a create
// leaves them out.
var policyDefaults = map[string]any{"changePolicy": string(v1alpha1.ChangePolicyAutomatic), "deletionPolicy": string(v1alpha1.DeletionPolicyDelete),
	"driftPolicy": string(v1alpha1.DriftPolicyEnforce), "managementPolicy": string(v1alpha1.ManagementPolicyManage)}

// specValues lists o's spec fields with their values, as a plan shows what a create makes,
// without the policies left at their defaults.
func specValues(o v1alpha1.Managed) []v1alpha1.PlannedChange {
	doc, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		return nil
	}
	spec, _ := doc["spec"].(map[string]any)
	out := make([]v1alpha1.PlannedChange, 0, len(spec))
	for _, k := range slices.Sorted(maps.Keys(spec)) {
		if d, ok := policyDefaults[k]; ok && d == spec[k] {
			continue
		}
		out = append(out, v1alpha1.PlannedChange{Field: k, Desired: managed.Shown(spec[k])})
	}
	return out
}

// equalJSON reports whether two JSON values are equal.
func equalJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// merged returns base with over's entries added (over wins), nil when both are empty.
func merged(base, over map[string]string) map[string]string {
	if len(base)+len(over) == 0 {
		return nil
	}
	out := maps.Clone(base)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, over)
	return out
}
