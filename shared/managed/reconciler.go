package managed

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/metrics"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Options tune the reconciler's timing. Zero values take the defaults.
type Options struct {
	// SyncPeriod is how often a Ready resource is compared with AWS (default 10m), jittered by
	// up to ±10% so resources do not all wake together.
	SyncPeriod time.Duration
	// WaitInterval is how soon a resource that is being created, changed or deleted in AWS is
	// looked at again (default 5s).
	WaitInterval time.Duration
	// ProviderRetry is how soon a resource whose AWSProvider is missing or not ready is looked
	// at again; a change of the provider wakes it sooner (default 1m).
	ProviderRetry time.Duration
	// CreateGrace is how long after a create call a resource that AWS does not show yet is
	// waited for rather than created again (default 1m).
	CreateGrace time.Duration
	// Now returns the current time (default time.Now); tests set it.
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	if o.SyncPeriod <= 0 {
		o.SyncPeriod = 10 * time.Minute
	}
	if o.WaitInterval <= 0 {
		o.WaitInterval = 5 * time.Second
	}
	if o.ProviderRetry <= 0 {
		o.ProviderRetry = time.Minute
	}
	if o.CreateGrace <= 0 {
		o.CreateGrace = time.Minute
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Reconciler reconciles one managed kind with its Driver.
type Reconciler[O v1alpha1.Managed, S any] struct {
	kind     Kind[O, S]
	client   client.Client
	resolver *provider.Resolver
	recorder events.EventRecorder
	opts     Options
	ready    *readiness
}

// NewReconciler returns a reconciler for kind.
func NewReconciler[O v1alpha1.Managed, S any](kind Kind[O, S], c client.Client, r *provider.Resolver, rec events.EventRecorder, opts Options) *Reconciler[O, S] {
	return &Reconciler[O, S]{kind: kind, client: c, resolver: r, recorder: rec, opts: opts.withDefaults(), ready: newReadiness(kind.Name)}
}

// pass is one reconcile of one object: the object, its state at the start, and what the
// reconcile decided.
type pass[O v1alpha1.Managed] struct {
	o      O
	orig   O
	result string
	// persisted holds the annotations as last written to the API server in this pass.
	persisted map[string]string
}

// Reconcile brings one object's AWS resource in line with its spec.
func (r *Reconciler[O, S]) Reconcile(ctx context.Context, req ctrl.Request) (res ctrl.Result, err error) {
	start := r.opts.Now()
	o := r.kind.New()
	if err := r.client.Get(ctx, req.NamespacedName, o); err != nil {
		if apierrors.IsNotFound(err) {
			r.ready.forget(req.NamespacedName)
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, fmt.Errorf("get %s %s: %w", r.kind.Name, req.NamespacedName, err)
	}
	if gvk, gvkErr := apiutil.GVKForObject(o, r.client.Scheme()); gvkErr == nil {
		o.GetObjectKind().SetGroupVersionKind(gvk)
	}
	p := &pass[O]{o: o, orig: o.DeepCopyObject().(O)}
	defer func() {
		if p.result != "terminal" {
			meta.RemoveStatusCondition(&o.GetManagedStatus().Conditions, TypeStalled)
		}
		if statusErr := r.writeStatus(ctx, p); statusErr != nil && err == nil {
			err = statusErr
		}
		metrics.ReconcileTotal.WithLabelValues(r.kind.Name, p.result).Inc()
		metrics.ReconcileDuration.WithLabelValues(r.kind.Name).Observe(r.opts.Now().Sub(start).Seconds())
	}()

	if o.GetAnnotations()[v1alpha1.AnnotationPaused] == "true" {
		setCondition(o, TypeSynced, metav1.ConditionFalse, ReasonPaused, "reconciliation is paused by the "+v1alpha1.AnnotationPaused+" annotation")
		p.result = "paused"
		return ctrl.Result{}, nil
	}
	if !o.GetDeletionTimestamp().IsZero() {
		return r.delete(ctx, p)
	}
	return r.apply(ctx, p)
}

// apply creates or updates the AWS resource and reports its state.
func (r *Reconciler[O, S]) apply(ctx context.Context, p *pass[O]) (ctrl.Result, error) {
	o := p.o
	if r.kind.Validate != nil {
		if err := r.kind.Validate(o); err != nil {
			return r.fail(p, &TerminalError{Reason: ReasonInvalidSpec, Err: err})
		}
	}
	sess, err := r.session(ctx, o)
	if err != nil {
		return r.fail(p, err)
	}
	if n := len(DesiredTags(o, sess.DefaultTags())); n > MaxTags {
		return r.fail(p, Terminal(ReasonTooManyTags, "the resource would carry %d tags (provider defaultTags, spec.tags and %d ownership tags); AWS allows %d", n, len(OwnerTags(o)), MaxTags))
	}
	if r.kind.ResolveReferences != nil {
		if err := r.kind.ResolveReferences(ctx, r.client, o); err != nil {
			return r.fail(p, err)
		}
	}
	if err := r.ensureFinalizer(ctx, o); err != nil {
		return r.fail(p, err)
	}
	drv := r.kind.Connect(sess, r.client)
	obs, err := drv.Observe(ctx, o)
	if perr := r.persistBookkeeping(ctx, p); perr != nil {
		return r.fail(p, perr)
	}
	if err != nil {
		return r.fail(p, fmt.Errorf("observe: %w", err))
	}
	now := metav1.NewTime(r.opts.Now())
	o.GetManagedStatus().LastSyncTime = &now

	if !obs.Exists {
		return r.create(ctx, p, drv)
	}
	if !obs.UpToDate && !obs.Busy {
		return r.update(ctx, p, drv, obs)
	}
	if !obs.Ready || obs.Busy {
		return r.wait(p, obs)
	}
	setCondition(o, TypeReady, metav1.ConditionTrue, ReasonAvailable, "")
	setCondition(o, TypeSynced, metav1.ConditionTrue, ReasonReconcileSuccess, "")
	o.GetManagedStatus().ObservedGeneration = o.GetGeneration()
	p.result = "success"
	return ctrl.Result{RequeueAfter: r.jitter(r.opts.SyncPeriod)}, nil
}

// wait reports a resource that AWS is still creating or changing and looks at it again soon.
func (r *Reconciler[O, S]) wait(p *pass[O], obs Observation[S]) (ctrl.Result, error) {
	o := p.o
	msg := obs.Message
	if msg == "" {
		msg = "the AWS resource is not available yet"
	}
	switch {
	case obs.Ready:
		setCondition(o, TypeReady, metav1.ConditionTrue, ReasonUpdating, msg)
	case isTrue(p.orig.GetManagedStatus().Conditions, TypeReady):
		setCondition(o, TypeReady, metav1.ConditionFalse, ReasonUnavailable, msg)
	default:
		setCondition(o, TypeReady, metav1.ConditionFalse, ReasonCreating, msg)
	}
	setCondition(o, TypeSynced, metav1.ConditionTrue, ReasonReconcileSuccess, "")
	if obs.UpToDate {
		o.GetManagedStatus().ObservedGeneration = o.GetGeneration()
	}
	p.result = "wait"
	return ctrl.Result{RequeueAfter: r.opts.WaitInterval}, nil
}

// create creates the AWS resource, guarding against a second create after a crash.
func (r *Reconciler[O, S]) create(ctx context.Context, p *pass[O], drv Driver[O, S]) (ctrl.Result, error) {
	o := p.o
	if started, ok := r.createPendingSince(o); ok && r.opts.Now().Sub(started) < r.opts.CreateGrace {
		// A create call was made moments ago and AWS does not show its result yet (eventual
		// consistency, or a crash before the identifier was recorded). Creating again could
		// make a second resource; wait for the first to appear.
		setCondition(o, TypeReady, metav1.ConditionFalse, ReasonCreating, "waiting for the resource created moments ago to appear in AWS")
		setCondition(o, TypeSynced, metav1.ConditionTrue, ReasonReconcileSuccess, "")
		p.result = "wait"
		return ctrl.Result{RequeueAfter: r.opts.WaitInterval}, nil
	}
	setAnnotation(o, v1alpha1.AnnotationCreatePending, r.opts.Now().UTC().Format(time.RFC3339))
	if err := r.persistBookkeeping(ctx, p); err != nil {
		return r.fail(p, err)
	}
	createErr := drv.Create(ctx, o)
	if ExternalName(o) != "" || !mayHaveCreated(createErr) {
		// The identifier is known, or AWS refused the request outright: the pending marker has
		// done its job.
		removeAnnotation(o, v1alpha1.AnnotationCreatePending)
	}
	if err := r.persistBookkeeping(ctx, p); err != nil {
		return r.fail(p, err)
	}
	if createErr != nil {
		return r.fail(p, fmt.Errorf("create: %w", createErr))
	}
	r.event(o, corev1.EventTypeNormal, "Created", "Create", "created %s %s in AWS", r.kind.Name, ExternalName(o))
	setCondition(o, TypeReady, metav1.ConditionFalse, ReasonCreating, "the AWS resource is being created")
	setCondition(o, TypeSynced, metav1.ConditionTrue, ReasonReconcileSuccess, "")
	p.result = "created"
	return ctrl.Result{RequeueAfter: r.opts.WaitInterval}, nil
}

// update applies the spec to an AWS resource that differs from it.
func (r *Reconciler[O, S]) update(ctx context.Context, p *pass[O], drv Driver[O, S], obs Observation[S]) (ctrl.Result, error) {
	o := p.o
	if o.GetGeneration() == p.orig.GetManagedStatus().ObservedGeneration {
		// The spec has not changed since it was last applied, so AWS changed: drift.
		r.event(o, corev1.EventTypeWarning, "DriftDetected", "Update", "%s changed outside the operator (%s); restoring the spec", r.kind.Name, diffOrUnknown(obs.Diff))
	} else {
		r.event(o, corev1.EventTypeNormal, "Updating", "Update", "applying spec changes (%s)", diffOrUnknown(obs.Diff))
	}
	if err := drv.Update(ctx, o, obs); err != nil {
		return r.fail(p, fmt.Errorf("update: %w", err))
	}
	if obs.Ready {
		setCondition(o, TypeReady, metav1.ConditionTrue, ReasonUpdating, "applying spec changes")
	} else {
		setCondition(o, TypeReady, metav1.ConditionFalse, ReasonUpdating, "applying spec changes")
	}
	setCondition(o, TypeSynced, metav1.ConditionTrue, ReasonReconcileSuccess, "")
	p.result = "updated"
	return ctrl.Result{RequeueAfter: r.opts.WaitInterval}, nil
}

func diffOrUnknown(diff string) string {
	if diff == "" {
		return "fields not named by the driver"
	}
	return diff
}

// session resolves o's AWSProvider and checks that the provider was validated.
func (r *Reconciler[O, S]) session(ctx context.Context, o O) (*provider.Session, error) {
	sess, p, err := r.resolver.ForResource(ctx, o)
	if err != nil {
		return nil, err
	}
	key := provider.ProviderKey(o)
	for _, c := range p.Status.Conditions {
		if c.Type != TypeReady {
			continue
		}
		if c.ObservedGeneration != p.Generation {
			break
		}
		if c.Status != metav1.ConditionTrue {
			return nil, &WaitingError{Reason: ReasonProviderNotReady, After: r.opts.ProviderRetry,
				Message: fmt.Sprintf("AWSProvider %s is not ready: %s: %s", key, c.Reason, c.Message)}
		}
		return sess, nil
	}
	return nil, &WaitingError{Reason: ReasonProviderNotChecked, After: r.opts.WaitInterval,
		Message: fmt.Sprintf("AWSProvider %s has not been validated yet", key)}
}

// createPendingSince returns when an unconfirmed create call was started, if one was.
func (r *Reconciler[O, S]) createPendingSince(o O) (time.Time, bool) {
	v, ok := o.GetAnnotations()[v1alpha1.AnnotationCreatePending]
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, v)
	return t, err == nil
}

func (r *Reconciler[O, S]) jitter(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.9 + 0.2*rand.Float64()))
}

func (r *Reconciler[O, S]) event(o O, typ, reason, action, format string, args ...any) {
	if r.recorder != nil {
		r.recorder.Eventf(o, nil, typ, reason, action, format, args...)
	}
}

// writeStatus patches the status once per reconcile, when it changed. The patch holds only the
// status difference, so it never conflicts with metadata written earlier in the reconcile.
func (r *Reconciler[O, S]) writeStatus(ctx context.Context, p *pass[O]) error {
	r.ready.observe(p.orig, p.o)
	patch, changed, err := statusPatch(p.orig, p.o)
	if err != nil || !changed {
		return err
	}
	if err := r.client.Status().Patch(ctx, p.o, client.RawPatch(types.MergePatchType, patch)); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		log.FromContext(ctx).Error(err, "cannot write status")
		return fmt.Errorf("patch status of %s %s/%s: %w", r.kind.Name, p.o.GetNamespace(), p.o.GetName(), err)
	}
	return nil
}
