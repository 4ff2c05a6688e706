package engine

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

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/guardrails"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/metrics"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Options tune the reconciler's timing. Zero values take the defaults.
type Options struct {
	// SyncPeriod is how often a Ready resource is compared with AWS (default 10m), jittered by
	// up to ±10% so resources do not all wake together.
	SyncPeriod time.Duration
	// WaitInterval is the longest wait between looks at a resource that is being created,
	// changed or deleted in AWS (default 5s): the first look comes soon after a write, and the
	// waits double up to it.
	WaitInterval time.Duration
	// ProviderRetry is how soon a resource whose AWSProvider is missing or not ready is looked
	// at again; a change of the provider wakes it sooner (default 1m).
	ProviderRetry time.Duration
	// CreateGrace is how long after a create call a resource that AWS does not show yet is
	// waited for rather than created again (default 1m).
	CreateGrace time.Duration
	// Timeout bounds one reconcile, AWS calls included (default 2m). The status is still
	// written when it expires.
	Timeout time.Duration
	// Now returns the current time (default time.Now); tests set it.
	Now func() time.Time
	// Boundary is what the administrator lets a namespace's objects do to AWS resources that
	// are not theirs: adopt, take over, observe, write into (default managed.DefaultBoundary).
	Boundary *managed.Boundary
	// Guardrails are the administrator's IAM rules, checked by the kinds that declare a
	// Guard; nil checks nothing (a library default: the operator binaries always set them).
	Guardrails *guardrails.IAM
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
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Minute
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Boundary == nil {
		o.Boundary = managed.DefaultBoundary()
	}
	return o
}

// Reconciler reconciles one managed kind with its Driver.
type Reconciler[O v1alpha1.Managed, S any] struct {
	kind     managed.Kind[O, S]
	client   client.Client
	reader   client.Reader
	resolver *provider.Resolver
	recorder events.EventRecorder
	opts     Options
	family   string
	ready    *readiness
	slots    *providerSlots
	progress *convergence
	polls    *polling
	// refs remembers what each object's references resolved to when its spec was applied.
	refs *referenceMemory
}

// NewReconciler returns a reconciler for kind. c reads objects (normally from the cache) and
// writes them; reader reads what must not be cached (Secrets) and is handed to drivers;
// family names the family whose in-use finalizer marks the providers the kind uses ("" marks
// none); workers is how many objects of the kind are reconciled at once.
func NewReconciler[O v1alpha1.Managed, S any](kind managed.Kind[O, S], c client.Client, reader client.Reader, r *provider.Resolver, rec events.EventRecorder, family string, workers int, opts Options) *Reconciler[O, S] {
	return &Reconciler[O, S]{kind: kind, client: c, reader: reader, resolver: r, recorder: rec, family: family,
		opts: opts.withDefaults(), ready: newReadiness(kind.Name), slots: newProviderSlots(kind.Name, workers), progress: newConvergence(), polls: newPolling(), refs: newReferenceMemory()}
}

// pass is one reconcile of one object: the object, its state at the start, and what the
// reconcile decided.
type pass[O v1alpha1.Managed] struct {
	o      O
	orig   O
	result string
	// persisted holds the annotations as last written to the API server in this pass.
	persisted map[string]string
	// applied names the changes this pass made to AWS: when the next observation in the same
	// pass still finds them, AWS has not shown them yet (it may take seconds), and the object
	// waits rather than making the same calls again.
	applied string
	// secrets holds the secret values the pass read, which nothing it reports may show.
	secrets *managed.Secrets
	// references is the digest of what o's references resolved to in this pass, and
	// referencesChanged says that it differs from the last pass that applied the spec.
	references        string
	referencesChanged bool
}

// Reconcile brings one object's AWS resource in line with its spec, within Options.Timeout.
func (r *Reconciler[O, S]) Reconcile(ctx context.Context, req ctrl.Request) (res ctrl.Result, err error) {
	start := r.opts.Now()
	// The status is written with the caller's context, so that a reconcile cut off by its
	// deadline still reports why.
	outer := ctx
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
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
	ctx, secrets := managed.WithSecrets(ctx)
	p := &pass[O]{o: o, orig: o.DeepCopyObject().(O), secrets: secrets}
	ctx = managed.WithEventSink(ctx, func(typ, reason, action, message string) {
		r.event(o, typ, reason, action, "%s", scrubText(secrets, message))
	})
	ctx = r.withSessions(ctx, o)
	defer func() {
		if p.result != "terminal" && p.result != "busy" && p.result != "conflict" {
			meta.RemoveStatusCondition(&o.GetManagedStatus().Conditions, condition.TypeStalled)
		}
		// Neither the status nor the error controller-runtime logs shows a secret value.
		scrubConditions(secrets, o)
		err = scrubError(secrets, err)
		if statusErr := r.writeStatus(outer, p); statusErr != nil && err == nil {
			err = statusErr
		}
		metrics.ReconcileTotal.WithLabelValues(r.kind.Name, p.result).Inc()
		metrics.ReconcileDuration.WithLabelValues(r.kind.Name).Observe(r.opts.Now().Sub(start).Seconds())
	}()

	if o.GetAnnotations()[v1alpha1.AnnotationPaused] == "true" {
		setCondition(o, condition.TypeSynced, metav1.ConditionFalse, condition.ReasonPaused, "reconciliation is paused by the "+v1alpha1.AnnotationPaused+" annotation")
		p.result = "paused"
		return ctrl.Result{}, nil
	}
	if !o.GetDeletionTimestamp().IsZero() {
		return r.delete(ctx, p)
	}
	return r.apply(ctx, p)
}

// connect returns the driver for o through the provider session sess and a release function,
// or ok false when o's provider, or o's namespace, kept its share of this kind's workers busy
// for slotWait: an endpoint that answers slowly, or a namespace with several slow providers,
// never holds every worker.
func (r *Reconciler[O, S]) connect(ctx context.Context, sess *provider.Session, o O) (drv managed.Driver[O, S], release func(), ok bool) {
	key, ns := provider.KeyOf(sess.Provider), o.GetNamespace()
	if !r.slots.acquire(ctx, key, ns) {
		return nil, nil, false
	}
	return r.kind.Connect(sess, r.reader, o), func() { r.slots.release(key, ns) }, true
}

// busy puts o back in the queue, its status untouched, while its provider's workers are busy:
// it is looked at again in a moment (jittered, so that many waiting objects do not return
// together), when a worker of its provider has likely finished, and costs nothing meanwhile
// but a read of the cache.
func (r *Reconciler[O, S]) busy(p *pass[O]) (ctrl.Result, error) {
	p.result = "busy"
	return ctrl.Result{RequeueAfter: min(firstPoll/2+time.Duration(rand.Int64N(int64(firstPoll))), r.opts.WaitInterval)}, nil
}

// apply creates or updates the AWS resource and reports its state.
func (r *Reconciler[O, S]) apply(ctx context.Context, p *pass[O]) (ctrl.Result, error) {
	o := p.o
	if r.kind.Validate != nil {
		if err := r.kind.Validate(o); err != nil {
			return r.fail(p, invalidSpec(err))
		}
	}
	sess, err := r.session(ctx, o)
	if err != nil {
		return r.fail(p, err)
	}
	desired := desiredTags(o, sess.DefaultTags())
	if n := len(desired); n > managed.MaxTags {
		return r.fail(p, managed.Terminal(condition.ReasonTooManyTags, "the resource would carry %d tags (provider defaultTags, spec.tags and %d ownership tags); AWS allows %d", n, len(managed.OwnerTags(o)), managed.MaxTags))
	}
	if err := CheckTags(desired); err != nil {
		return r.fail(p, &managed.TerminalError{Reason: condition.ReasonInvalidSpec, Err: err})
	}
	digest, err := r.resolveReferences(ctx, o)
	if err != nil {
		return r.fail(p, err)
	}
	p.references, p.referencesChanged = digest, r.refs.changed(o, digest)
	if err := r.guard(ctx, o, sess); err != nil {
		return r.fail(p, err)
	}
	drv, release, ok := r.connect(ctx, sess, o)
	if !ok {
		return r.busy(p)
	}
	defer release()
	req := managed.Request{Tags: desired, StalledBefore: stalledBefore(o)}
	if v1alpha1.ObserveOnly(o) {
		req.Tags = observedTags(desired)
		return r.observeOnly(ctx, p, drv, req, sess.InstallID())
	}
	for round := 1; ; round++ {
		res, wrote, err := r.round(ctx, p, drv, req, sess.InstallID())
		if !wrote || round == maxRounds || (p.result == "created" && r.kind.ReadyIn > 0) {
			return res, err
		}
	}
}

// maxRounds bounds the observe-and-write rounds of one pass: a create, the changes the next
// observation still finds, and the observation that finds the resource Ready.
const maxRounds = 3

// round observes o's AWS resource once and creates it, changes it, or reports its state. wrote
// says that it wrote to AWS successfully: for a kind whose results AWS shows at once, the pass
// then observes again instead of waiting, so that the resource is Ready in the pass that
// created or changed it.
func (r *Reconciler[O, S]) round(ctx context.Context, p *pass[O], drv managed.Driver[O, S], req managed.Request, installID string) (ctrl.Result, bool, error) {
	o := p.o
	ctx = managed.WithBoundary(ctx, r.opts.Boundary)
	obs, err := drv.Observe(ctx, o, req)
	// A resource found while o's create-pending marker is set is the one o's create made.
	created := o.GetAnnotations()[v1alpha1.AnnotationCreatePending] != ""
	if obs.Exists {
		// A create whose answer was lost has been found: its pending marker has done its job,
		// and must not hold back the create of a replacement should the resource go later.
		removeAnnotation(o, v1alpha1.AnnotationCreatePending)
	}
	// A resource that exists needs the finalizer before anything writes to it; one that does
	// not gets it with the create-pending marker, in one patch.
	if perr := r.persistBookkeeping(ctx, p, obs.Exists); perr != nil {
		return r.failed(p, perr)
	}
	if err != nil {
		return r.failed(p, fmt.Errorf("observe: %w", err))
	}
	now := metav1.NewTime(r.opts.Now())
	o.GetManagedStatus().LastSyncTime = &now

	if obs.Exists {
		r.polls.seen(o)
	} else if managed.ExternalName(o) != "" && r.polls.createdSince(o, r.opts.Now().Add(-r.opts.CreateGrace)) {
		// Created moments ago and not visible yet (eventual consistency): creating again could
		// make a second resource.
		return r.settled(r.waitForCreated(p))
	}
	if !obs.Exists && reportsLoss(p) {
		return r.settled(r.reportLoss(p))
	}
	if !obs.Exists {
		return r.create(ctx, p, drv, req)
	}
	if err := r.checkOwnership(o, obs.Tags, installID, created); err != nil {
		return r.failed(p, err)
	}
	if obs.Conflict != nil {
		return r.failed(p, obs.Conflict)
	}
	if len(obs.Changes) > 0 && !obs.Busy {
		if diff := obs.Changes.String(); diff == p.applied {
			// Just changed in this pass: AWS does not show it yet.
			return r.settled(r.wait(p, managed.Observation[S]{Ready: obs.Ready, Changes: obs.Changes,
				Message: "waiting for AWS to show the changes just made (" + diffOrUnknown(diff) + ")"}))
		}
		if drifted(p) && o.GetManagedSpec().DriftPolicy == v1alpha1.DriftPolicyReport {
			return r.settled(r.reportDrift(ctx, p, obs))
		}
		if waits, plan := r.awaitsApproval(p, obs); waits {
			return r.settled(r.awaitApproval(p, obs, plan))
		}
		return r.update(ctx, p, obs)
	}
	r.progress.done(o)
	if !obs.Ready || obs.Busy || !obs.UpToDate() {
		return r.settled(r.wait(p, obs))
	}
	r.polls.done(o)
	r.clearDrift(p)
	settlePlan(p, condition.ReasonInSync, "the AWS resource matches the spec")
	if err := r.writeOutputs(ctx, o); err != nil {
		return r.failed(p, err)
	}
	setCondition(o, condition.TypeReady, metav1.ConditionTrue, condition.ReasonAvailable, "")
	setCondition(o, condition.TypeSynced, metav1.ConditionTrue, condition.ReasonReconcileSuccess, "")
	o.GetManagedStatus().ObservedGeneration = o.GetGeneration()
	r.refs.applied(o, p.references)
	p.result = "success"
	return ctrl.Result{RequeueAfter: r.jitter(r.opts.SyncPeriod)}, false, nil
}

// reportDrift leaves a resource that changed outside the operator as it is (driftPolicy
// Report): the difference is reported in status.drift and the Drifted condition, and the spec
// is applied again only when it changes.
func (r *Reconciler[O, S]) reportDrift(ctx context.Context, p *pass[O], obs managed.Observation[S]) (ctrl.Result, error) {
	o := p.o
	fields := obs.Changes.Fields()
	r.markDrift(p, fields, condition.ReasonDriftReported, driftMessage(r.kind.Name, fields,
		"driftPolicy Report leaves it: change the spec, or set driftPolicy to Enforce, to restore it"))
	r.progress.done(o)
	if !obs.Ready {
		return r.wait(p, obs)
	}
	r.polls.done(o)
	if err := r.writeOutputs(ctx, o); err != nil {
		return r.fail(p, err)
	}
	setCondition(o, condition.TypeReady, metav1.ConditionTrue, condition.ReasonAvailable, "")
	setCondition(o, condition.TypeSynced, metav1.ConditionTrue, condition.ReasonReconcileSuccess, "")
	p.result = "drifted"
	return ctrl.Result{RequeueAfter: r.jitter(r.opts.SyncPeriod)}, nil
}

// reportsLoss reports whether o's AWS resource, which AWS no longer shows, is reported rather
// than created again: o has driftPolicy Report, it created or adopted the resource before (it
// records an identifier, and its spec was applied), and its spec has not changed since. A new
// object in Report mode is still created, and a spec change applies the spec again, creating
// the resource, as it restores any reported drift.
func reportsLoss[O v1alpha1.Managed](p *pass[O]) bool {
	return p.o.GetManagedSpec().DriftPolicy == v1alpha1.DriftPolicyReport && managed.ExternalName(p.o) != "" &&
		p.orig.GetManagedStatus().ObservedGeneration > 0 && drifted(p)
}

// reportLoss reports, without creating it again, the resource of an object with driftPolicy
// Report that was deleted outside the operator: Drifted True (DriftReported), Ready False
// (NotFoundInAWS), and a look again after the sync period.
func (r *Reconciler[O, S]) reportLoss(p *pass[O]) (ctrl.Result, error) {
	o := p.o
	r.progress.done(o)
	r.polls.done(o)
	msg := fmt.Sprintf("%s %s was deleted outside the operator; driftPolicy Report leaves it: change the spec, or set driftPolicy to Enforce, "+
		"to create it again", r.kind.Name, managed.ExternalName(o))
	r.markDrift(p, []string{"resource"}, condition.ReasonDriftReported, msg)
	setCondition(o, condition.TypeReady, metav1.ConditionFalse, condition.ReasonNotFoundInAWS, msg)
	setCondition(o, condition.TypeSynced, metav1.ConditionTrue, condition.ReasonReconcileSuccess, "")
	p.result = "drifted"
	return ctrl.Result{RequeueAfter: r.jitter(r.opts.SyncPeriod)}, nil
}

// failed is fail for a round: nothing was written, so the pass ends.
func (r *Reconciler[O, S]) failed(p *pass[O], err error) (ctrl.Result, bool, error) {
	return r.settled(r.fail(p, err))
}

// settled ends a round that wrote nothing to AWS.
func (r *Reconciler[O, S]) settled(res ctrl.Result, err error) (ctrl.Result, bool, error) {
	return res, false, err
}

// wait reports a resource that AWS is still creating or changing and looks at it again soon.
func (r *Reconciler[O, S]) wait(p *pass[O], obs managed.Observation[S]) (ctrl.Result, error) {
	o := p.o
	msg := obs.Message
	if msg == "" {
		msg = "the AWS resource is not available yet"
	}
	switch {
	case obs.Ready:
		setCondition(o, condition.TypeReady, metav1.ConditionTrue, condition.ReasonUpdating, msg)
	case isTrue(p.orig.GetManagedStatus().Conditions, condition.TypeReady):
		setCondition(o, condition.TypeReady, metav1.ConditionFalse, condition.ReasonUnavailable, msg)
	default:
		setCondition(o, condition.TypeReady, metav1.ConditionFalse, condition.ReasonCreating, msg)
	}
	setCondition(o, condition.TypeSynced, metav1.ConditionTrue, condition.ReasonReconcileSuccess, "")
	if obs.UpToDate() {
		o.GetManagedStatus().ObservedGeneration = o.GetGeneration()
	}
	p.result = "wait"
	if obs.ReadyIn > 0 && !obs.Ready && obs.UpToDate() {
		return ctrl.Result{RequeueAfter: obs.ReadyIn}, nil
	}
	return ctrl.Result{RequeueAfter: r.polls.next(o, r.opts.WaitInterval)}, nil
}

// waitForCreated reports a resource created moments ago that AWS does not show yet, and looks
// for it again soon.
func (r *Reconciler[O, S]) waitForCreated(p *pass[O]) (ctrl.Result, error) {
	setCondition(p.o, condition.TypeReady, metav1.ConditionFalse, condition.ReasonCreating, "waiting for the resource created moments ago to appear in AWS")
	setCondition(p.o, condition.TypeSynced, metav1.ConditionTrue, condition.ReasonReconcileSuccess, "")
	p.result = "wait"
	return ctrl.Result{RequeueAfter: r.polls.next(p.o, r.opts.WaitInterval)}, nil
}

// create creates the AWS resource, guarding against a second create after a crash.
func (r *Reconciler[O, S]) create(ctx context.Context, p *pass[O], drv managed.Driver[O, S], req managed.Request) (ctrl.Result, bool, error) {
	o := p.o
	if started, ok := r.createPendingSince(o); ok && r.opts.Now().Sub(started) < r.opts.CreateGrace {
		// A create call was made moments ago and AWS does not show its result yet (eventual
		// consistency, or a crash before the identifier was recorded). Creating again could
		// make a second resource; wait for the first to appear.
		return r.settled(r.waitForCreated(p))
	}
	managed.SetAnnotation(o, v1alpha1.AnnotationCreatePending, r.opts.Now().UTC().Format(time.RFC3339))
	if err := r.persistBookkeeping(ctx, p, true); err != nil {
		return r.failed(p, err)
	}
	createCtx, attempts := metrics.WithAttempts(ctx)
	createErr := drv.Create(createCtx, o, req)
	if !mayHaveCreated(createErr, attempts.Uncertain()) {
		// AWS refused the request outright: nothing was created, and the pending marker has
		// done its job. Otherwise it stays until an observation finds the resource: AWS may
		// not show a resource it just created (eventual consistency), and an operator that
		// restarts meanwhile must wait for it rather than create it again, even though its
		// identifier is recorded.
		removeAnnotation(o, v1alpha1.AnnotationCreatePending)
	}
	if err := r.persistBookkeeping(ctx, p, false); err != nil {
		return r.failed(p, err)
	}
	if createErr != nil {
		return r.failed(p, fmt.Errorf("create: %w", createErr))
	}
	r.polls.createdAt(o, r.opts.Now())
	r.event(o, corev1.EventTypeNormal, "Created", "Create", "created %s %s in AWS", r.kind.Name, managed.ExternalName(o))
	setCondition(o, condition.TypeReady, metav1.ConditionFalse, condition.ReasonCreating, "the AWS resource is being created")
	setCondition(o, condition.TypeSynced, metav1.ConditionTrue, condition.ReasonReconcileSuccess, "")
	p.result = "created"
	return ctrl.Result{RequeueAfter: r.polls.wrote(o, r.kind.ReadyIn, r.opts.WaitInterval)}, true, nil
}

// update carries out the plan of changes Observe made for an AWS resource that differs from
// the spec. When the same difference
// is still there after updates that succeeded, AWS keeps something other than what the spec
// says (it normalises a value, or something outside changes it back): the updates then back
// off toward the sync period, with one NotConverging event, instead of repeating every wait
// interval.
func (r *Reconciler[O, S]) update(ctx context.Context, p *pass[O], obs managed.Observation[S]) (ctrl.Result, bool, error) {
	o := p.o
	diff := obs.Changes.String()
	repeats := r.progress.repeats(o, diff)
	switch {
	case repeats == notConvergingAfter:
		r.event(o, corev1.EventTypeWarning, condition.ReasonNotConverging, "Update", "%s still differs from the spec after %d updates (%s): AWS may "+
			"keep the value in another form; updates now back off", r.kind.Name, repeats, diffOrUnknown(diff))
	case repeats > 0:
	case o.GetGeneration() == p.orig.GetManagedStatus().ObservedGeneration:
		// The spec has not changed since it was last applied, so AWS changed: drift.
		r.event(o, corev1.EventTypeWarning, condition.ReasonDriftDetected, "Update", "%s changed outside the operator (%s); restoring the spec", r.kind.Name, diffOrUnknown(diff))
		r.markDrift(p, obs.Changes.Fields(), condition.ReasonDriftDetected, driftMessage(r.kind.Name, obs.Changes.Fields(), ""))
	default:
		r.event(o, corev1.EventTypeNormal, "Updating", "Update", "applying spec changes (%s)", diffOrUnknown(diff))
	}
	if err := obs.Changes.Apply(ctx); err != nil {
		return r.failed(p, fmt.Errorf("update: %w", err))
	}
	r.progress.updated(o, diff)
	p.applied = diff
	if plan := o.GetManagedStatus().Plan; plan != nil {
		settlePlan(p, condition.ReasonPlanApproved, "applied the plan "+plan.Hash+" (approved, or changePolicy Automatic)")
	}
	setReadiness(o, obs.Ready, condition.ReasonUpdating, condition.ReasonUpdating, "applying spec changes")
	setCondition(o, condition.TypeSynced, metav1.ConditionTrue, condition.ReasonReconcileSuccess, "")
	p.result = "updated"
	if repeats < notConvergingAfter-1 {
		// Most changes take at once: look again in a moment.
		return ctrl.Result{RequeueAfter: r.polls.wrote(o, 0, r.opts.WaitInterval)}, true, nil
	}
	return ctrl.Result{RequeueAfter: r.progress.backoff(repeats, r.opts.WaitInterval, r.opts.SyncPeriod)}, false, nil
}

func diffOrUnknown(diff string) string {
	if diff == "" {
		return "fields not named by the driver"
	}
	return diff
}

// session resolves o's provider, checks that the provider was validated, and marks the
// provider as in use by this family, so that it outlives the objects that need it to delete.
func (r *Reconciler[O, S]) session(ctx context.Context, o O) (*provider.Session, error) {
	sess, p, err := r.validatedSession(ctx, o)
	if err != nil {
		return nil, err
	}
	if err := provider.MarkInUse(ctx, r.client, r.reader, p, r.family); err != nil {
		return nil, err
	}
	return sess, nil
}

// validatedSession resolves o's provider and checks that the provider was validated, writing
// nothing: a preview plans with it.
func (r *Reconciler[O, S]) validatedSession(ctx context.Context, o O) (*provider.Session, v1alpha1.ProviderObject, error) {
	return r.validatedSessionFor(ctx, o, o.GetManagedSpec().ProviderRef)
}

// withSessions returns ctx carrying what o's driver resolves the other providers its spec
// names with (managed.SessionFor): the same resolution and checks as providerRef's, the
// namespace's tenancy rules and the provider's allowedNamespaces included.
func (r *Reconciler[O, S]) withSessions(ctx context.Context, o O) context.Context {
	return managed.WithSessions(ctx, func(ctx context.Context, ref v1alpha1.ProviderReference) (*provider.Session, error) {
		sess, _, err := r.validatedSessionFor(ctx, o, ref)
		return sess, err
	})
}

// validatedSessionFor is validatedSession for the provider ref names.
func (r *Reconciler[O, S]) validatedSessionFor(ctx context.Context, o O, ref v1alpha1.ProviderReference) (*provider.Session, v1alpha1.ProviderObject, error) {
	sess, p, err := r.resolver.ForReference(ctx, o, ref)
	if err != nil {
		return nil, nil, err
	}
	key := provider.KeyFor(ref, o.GetNamespace())
	st := p.ProviderStatus()
	for _, c := range st.Conditions {
		if c.Type != condition.TypeReady {
			continue
		}
		// The API server raises a provider's generation when its deletion starts; the
		// validation of the spec before that still holds for the objects deleted with it.
		if c.ObservedGeneration != p.GetGeneration() && p.GetDeletionTimestamp().IsZero() {
			break
		}
		if c.Status != metav1.ConditionTrue {
			return nil, nil, &managed.WaitingError{Reason: condition.ReasonProviderNotReady, After: r.opts.ProviderRetry,
				Message: fmt.Sprintf("%s is not ready: %s: %s", key.Describe(), c.Reason, c.Message)}
		}
		return sess, p, nil
	}
	return nil, nil, &managed.WaitingError{Reason: condition.ReasonProviderNotChecked, After: r.opts.WaitInterval,
		Message: fmt.Sprintf("%s has not been validated yet", key.Describe())}
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

// syncTimeRefresh is how old status.lastSyncTime may grow before a pass that changes nothing
// else in the status writes it anyway.
const syncTimeRefresh = time.Hour

// keepSyncTime puts orig's lastSyncTime back into o when it is the only change to the status and
// is less than syncTimeRefresh old: a sync that finds everything as it was then costs the API
// server no write, and thousands of unchanged objects cost none per sync period.
func keepSyncTime[O v1alpha1.Managed](orig, o O) {
	old, cur := orig.GetManagedStatus().LastSyncTime, o.GetManagedStatus().LastSyncTime
	if old == nil || cur == nil || cur.Sub(old.Time) >= syncTimeRefresh {
		return
	}
	o.GetManagedStatus().LastSyncTime = old
	if _, changed, err := statusPatch(orig, o); err != nil || changed {
		o.GetManagedStatus().LastSyncTime = cur
	}
}

// writeStatus patches the status once per reconcile, when it changed. The patch holds only the
// status difference, so it never conflicts with metadata written earlier in the reconcile.
func (r *Reconciler[O, S]) writeStatus(ctx context.Context, p *pass[O]) error {
	keepSyncTime(p.orig, p.o)
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
