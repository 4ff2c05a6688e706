package provider

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/metrics"
)

// secretIndex indexes AWSProviders by the names of the Secrets they read.
const secretIndex = ".spec.secretRefs"

// Controller validates AWSProviders with STS GetCallerIdentity and writes their status.
//
// Every family runs it, but only one instance validates a given provider: the one named in
// status.validatedBy. Another instance takes over when that one has not refreshed the status
// for Interval+Grace. Claims are made with optimistic concurrency on the status update, so two
// instances starting together cannot both keep writing.
type Controller struct {
	// Client reads and writes AWSProviders.
	Client client.Client
	// Resolver builds the sessions to validate.
	Resolver *Resolver
	// Recorder emits events on readiness changes.
	Recorder events.EventRecorder
	// Instance names this operator instance, for example "data@infra-operator".
	Instance string
	// Interval is how often a provider is revalidated (default 5m).
	Interval time.Duration
	// RetryInterval is how soon a provider that failed validation is tried again (default 1m).
	RetryInterval time.Duration
	// Grace is how long past Interval another instance waits before taking over (default 2m).
	Grace time.Duration
	// Now returns the current time (default time.Now).
	Now func() time.Time
	// Users lists, per family, the managed objects that use a provider, for the in-use
	// finalizers; nil when the operator runs no family.
	Users *Users
	// MaxConcurrentReconciles is how many providers are handled at once (default 4), so that
	// one provider whose endpoint does not answer never holds up the others.
	MaxConcurrentReconciles int

	mu        sync.Mutex
	validated map[Key]validation
}

// validation is what this instance last validated for a provider: the session key (spec and
// Secret versions) and when it is due again. It lets the controller skip events that arrive
// while its informer cache still shows the status from before its own write.
type validation struct {
	key string
	due time.Time
}

// SetupWithManager registers the controllers of AWSProviders and ClusterAWSProviders,
// indexing them by Secret so that a changed Secret revalidates the providers that read it.
// Secrets are watched as metadata only.
func (c *Controller) SetupWithManager(ctx context.Context, mgr ctrl.Manager) error {
	if err := mgr.GetFieldIndexer().IndexField(ctx, &v1alpha1.AWSProvider{}, secretIndex, func(o client.Object) []string {
		return SecretNames(o.(*v1alpha1.AWSProvider))
	}); err != nil {
		return fmt.Errorf("index AWSProviders by Secret: %w", err)
	}
	if err := mgr.GetFieldIndexer().IndexField(ctx, &v1alpha1.ClusterAWSProvider{}, secretIndex, func(o client.Object) []string {
		p := o.(*v1alpha1.ClusterAWSProvider)
		var keys []string
		for _, name := range SecretNames(p) {
			keys = append(keys, p.SecretNamespace()+"/"+name)
		}
		return keys
	}); err != nil {
		return fmt.Errorf("index ClusterAWSProviders by Secret: %w", err)
	}
	workers := c.MaxConcurrentReconciles
	if workers <= 0 {
		workers = 4
	}
	for _, kind := range []string{v1alpha1.KindAWSProvider, v1alpha1.KindClusterAWSProvider} {
		secret := &metav1.PartialObjectMetadata{}
		secret.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
		kc := &kindController{c: c, kind: kind}
		err := ctrl.NewControllerManagedBy(mgr).
			Named(strings.ToLower(kind)).
			For(Key{Kind: kind}.New(), builder.WithPredicates(predicate.Or[client.Object](predicate.GenerationChangedPredicate{},
				predicate.AnnotationChangedPredicate{}, deletionStarted()))).
			WatchesMetadata(secret, handler.EnqueueRequestsFromMapFunc(kc.providersForSecret)).
			WithOptions(controller.Options{MaxConcurrentReconciles: workers}).
			Complete(kc)
		if err != nil {
			return fmt.Errorf("set up the %s controller: %w", kind, err)
		}
	}
	return nil
}

// deletionStarted passes updates that start an object's deletion.
func deletionStarted() predicate.Predicate {
	return predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		return e.ObjectOld.GetDeletionTimestamp().IsZero() != e.ObjectNew.GetDeletionTimestamp().IsZero()
	}}
}

// kindController reconciles the providers of one kind with the Controller.
type kindController struct {
	c    *Controller
	kind string
}

// Reconcile handles one provider of the kind.
func (k *kindController) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return k.c.reconcile(ctx, Key{Kind: k.kind, Namespace: req.Namespace, Name: req.Name})
}

// providersForSecret requests the providers of the kind that read Secret s.
func (k *kindController) providersForSecret(ctx context.Context, s client.Object) []reconcile.Request {
	var reqs []reconcile.Request
	if k.kind == v1alpha1.KindClusterAWSProvider {
		list := &v1alpha1.ClusterAWSProviderList{}
		if err := k.c.Client.List(ctx, list, client.MatchingFields{secretIndex: s.GetNamespace() + "/" + s.GetName()}); err != nil {
			return nil
		}
		for i := range list.Items {
			reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&list.Items[i])})
		}
		return reqs
	}
	list := &v1alpha1.AWSProviderList{}
	if err := k.c.Client.List(ctx, list, client.InNamespace(s.GetNamespace()), client.MatchingFields{secretIndex: s.GetName()}); err != nil {
		return nil
	}
	for i := range list.Items {
		reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&list.Items[i])})
	}
	return reqs
}

func (c *Controller) interval() time.Duration { return orDefault(c.Interval, 5*time.Minute) }
func (c *Controller) retry() time.Duration    { return orDefault(c.RetryInterval, time.Minute) }
func (c *Controller) grace() time.Duration    { return orDefault(c.Grace, 2*time.Minute) }
func (c *Controller) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// validationTimeout bounds one validation with STS, so that an endpoint that does not answer
// holds a worker for a bounded time.
const validationTimeout = time.Minute

// reconcile validates one provider when this instance is, or may become, its validator; a
// provider being deleted is released by each family once none of its objects use it.
func (c *Controller) reconcile(ctx context.Context, name Key) (ctrl.Result, error) {
	p := name.New()
	if err := c.Client.Get(ctx, name.NamespacedName(), p); err != nil {
		if apierrors.IsNotFound(err) {
			c.Resolver.Forget(name)
			c.forget(name)
			metrics.ProviderReady.DeleteLabelValues(name.Namespace, name.Name)
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, fmt.Errorf("get %s: %w", name.Describe(), err)
	}
	if !p.GetDeletionTimestamp().IsZero() {
		return c.releaseInUse(ctx, p)
	}
	now := c.now()
	if wait, owned := c.ownedElsewhere(p, now); owned {
		metrics.ProviderReady.DeleteLabelValues(name.Namespace, name.Name)
		return ctrl.Result{RequeueAfter: wait}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, validationTimeout)
	defer cancel()
	sess, resolveErr := c.Resolver.ForProvider(ctx, p)
	if due, ok := c.upToDate(name, sess, now); ok {
		return ctrl.Result{RequeueAfter: due.Sub(now)}, nil
	}

	st := p.ProviderStatus()
	wasReady := meta.IsStatusConditionTrue(st.Conditions, condition.TypeReady)
	next := c.validate(ctx, p, sess, resolveErr)
	st.ValidatedBy = c.Instance
	st.ObservedGeneration = p.GetGeneration()
	t := metav1.NewTime(now)
	st.LastSyncTime = &t
	if err := c.Client.Status().Update(ctx, p); err != nil {
		if apierrors.IsConflict(err) {
			// Another instance wrote first; look again at who validates now.
			return ctrl.Result{RequeueAfter: time.Second}, nil
		}
		return ctrl.Result{}, fmt.Errorf("update %s status: %w", name.Describe(), err)
	}
	if sess != nil {
		c.remember(name, validation{key: sess.key, due: now.Add(next)})
	} else {
		c.forget(name)
	}
	c.announce(p, wasReady)
	metrics.ProviderReady.WithLabelValues(name.Namespace, name.Name).Set(map[bool]float64{true: 1}[st.Ready])
	return ctrl.Result{RequeueAfter: next}, nil
}

// ownedElsewhere reports whether another live instance validates p, and when to look again.
func (c *Controller) ownedElsewhere(p v1alpha1.ProviderObject, now time.Time) (time.Duration, bool) {
	st := p.ProviderStatus()
	owner := st.ValidatedBy
	if owner == "" || owner == c.Instance || st.LastSyncTime == nil {
		return 0, false
	}
	expires := st.LastSyncTime.Add(c.interval() + c.grace())
	if !now.Before(expires) {
		return 0, false
	}
	return expires.Sub(now), true
}

// upToDate reports whether this instance already validated exactly this version of the
// provider (its spec and Secrets) and the next validation is not due yet, and when it is due.
func (c *Controller) upToDate(name Key, sess *Session, now time.Time) (time.Time, bool) {
	if sess == nil {
		return time.Time{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.validated[name]
	if !ok || v.key != sess.key || !now.Before(v.due) {
		return time.Time{}, false
	}
	return v.due, true
}

// validate checks the credentials and fills p's status; it returns when to validate again.
func (c *Controller) validate(ctx context.Context, p v1alpha1.ProviderObject, sess *Session, resolveErr error) time.Duration {
	st := p.ProviderStatus()
	setReady := func(ok bool, reason, msg string) {
		status := metav1.ConditionFalse
		if ok {
			status = metav1.ConditionTrue
		}
		meta.SetStatusCondition(&st.Conditions, metav1.Condition{
			Type: condition.TypeReady, Status: status, Reason: reason, Message: msg, ObservedGeneration: p.GetGeneration(),
		})
		st.Ready = ok
		if !ok {
			st.AccountID = ""
			st.CallerIdentity = ""
			st.Identity = ""
		}
	}
	if resolveErr != nil {
		if pe, ok := AsError(resolveErr); ok {
			setReady(false, pe.Reason, pe.Message)
		} else {
			setReady(false, condition.ReasonConfigFailed, resolveErr.Error())
		}
		return c.retry()
	}
	out, err := sts.NewFromConfig(sess.Config).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		reason := condition.ReasonValidationFailed
		switch awserr.Classify(err) {
		case awserr.ClassAccessDenied:
			reason = condition.ReasonCredentialsRejected
		case awserr.ClassUnavailable:
			reason = condition.ReasonEndpointUnreachable
		}
		setReady(false, reason, redact(awserr.Describe(err), c.secretValues(ctx, sess)...))
		return c.retry()
	}
	setReady(true, condition.ReasonCredentialsValid, "credentials validated with STS GetCallerIdentity")
	st.AccountID = aws.ToString(out.Account)
	st.CallerIdentity = aws.ToString(out.Arn)
	st.Identity = st.CallerIdentity
	return c.interval()
}

// secretValues returns the credential values in use, so that they can be removed from any text
// that AWS or the network stack echoes back.
func (c *Controller) secretValues(ctx context.Context, sess *Session) []string {
	creds, err := sess.Config.Credentials.Retrieve(ctx)
	if err != nil {
		return nil
	}
	return []string{creds.AccessKeyID, creds.SecretAccessKey, creds.SessionToken}
}

// redact replaces every non-empty value in text with "***".
func redact(text string, values ...string) string {
	for _, v := range values {
		if v != "" {
			text = strings.ReplaceAll(text, v, "***")
		}
	}
	return text
}

func (c *Controller) announce(p v1alpha1.ProviderObject, wasReady bool) {
	st := p.ProviderStatus()
	if c.Recorder == nil || wasReady == st.Ready {
		return
	}
	cond := meta.FindStatusCondition(st.Conditions, condition.TypeReady)
	if st.Ready {
		c.Recorder.Eventf(p, nil, corev1.EventTypeNormal, cond.Reason, "Validate", "credentials valid for account %s", st.AccountID)
		return
	}
	c.Recorder.Eventf(p, nil, corev1.EventTypeWarning, cond.Reason, "Validate", "%s", cond.Message)
}

func (c *Controller) remember(name Key, v validation) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.validated == nil {
		c.validated = map[Key]validation{}
	}
	c.validated[name] = v
}

func (c *Controller) forget(name Key) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.validated, name)
}
