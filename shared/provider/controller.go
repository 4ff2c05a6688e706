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
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
)

// Reasons of the AWSProvider's Ready condition, beyond the configuration reasons in errors.go.
const (
	ReasonCredentialsValid    = "CredentialsValid"
	ReasonCredentialsRejected = "CredentialsRejected"
	ReasonEndpointUnreachable = "EndpointUnreachable"
	ReasonValidationFailed    = "ValidationFailed"
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

	mu        sync.Mutex
	validated map[types.NamespacedName]validation
}

// validation is what this instance last validated for a provider: the session key (spec and
// Secret versions) and when it is due again. It lets the controller skip events that arrive
// while its informer cache still shows the status from before its own write.
type validation struct {
	key string
	due time.Time
}

// SetupWithManager registers the controller, indexing providers by Secret so that a changed
// Secret revalidates the providers that read it. Secrets are watched as metadata only.
func (c *Controller) SetupWithManager(ctx context.Context, mgr ctrl.Manager) error {
	if err := mgr.GetFieldIndexer().IndexField(ctx, &v1alpha1.AWSProvider{}, secretIndex, func(o client.Object) []string {
		return SecretNames(o.(*v1alpha1.AWSProvider))
	}); err != nil {
		return fmt.Errorf("index AWSProviders by Secret: %w", err)
	}
	secret := &metav1.PartialObjectMetadata{}
	secret.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	return ctrl.NewControllerManagedBy(mgr).
		Named("awsprovider").
		For(&v1alpha1.AWSProvider{}, builder.WithPredicates(predicate.Or(predicate.GenerationChangedPredicate{}, predicate.AnnotationChangedPredicate{}))).
		WatchesMetadata(secret, handler.EnqueueRequestsFromMapFunc(c.providersForSecret)).
		Complete(c)
}

func (c *Controller) providersForSecret(ctx context.Context, s client.Object) []reconcile.Request {
	list := &v1alpha1.AWSProviderList{}
	if err := c.Client.List(ctx, list, client.InNamespace(s.GetNamespace()), client.MatchingFields{secretIndex: s.GetName()}); err != nil {
		return nil
	}
	reqs := make([]reconcile.Request, 0, len(list.Items))
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

// Reconcile validates one provider when this instance is, or may become, its validator.
func (c *Controller) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	p := &v1alpha1.AWSProvider{}
	if err := c.Client.Get(ctx, req.NamespacedName, p); err != nil {
		if apierrors.IsNotFound(err) {
			c.Resolver.Forget(req.NamespacedName)
			c.forget(req.NamespacedName)
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, fmt.Errorf("get AWSProvider %s: %w", req.NamespacedName, err)
	}
	now := c.now()
	if wait, owned := c.ownedElsewhere(p, now); owned {
		return ctrl.Result{RequeueAfter: wait}, nil
	}
	sess, resolveErr := c.Resolver.ForProvider(ctx, p)
	if due, ok := c.upToDate(req.NamespacedName, sess, now); ok {
		return ctrl.Result{RequeueAfter: due.Sub(now)}, nil
	}

	wasReady := meta.IsStatusConditionTrue(p.Status.Conditions, "Ready")
	next := c.validate(ctx, p, sess, resolveErr)
	p.Status.ValidatedBy = c.Instance
	p.Status.ObservedGeneration = p.Generation
	t := metav1.NewTime(now)
	p.Status.LastSyncTime = &t
	if err := c.Client.Status().Update(ctx, p); err != nil {
		if apierrors.IsConflict(err) {
			// Another instance wrote first; look again at who validates now.
			return ctrl.Result{RequeueAfter: time.Second}, nil
		}
		return ctrl.Result{}, fmt.Errorf("update AWSProvider %s status: %w", req.NamespacedName, err)
	}
	if sess != nil {
		c.remember(req.NamespacedName, validation{key: sess.key, due: now.Add(next)})
	} else {
		c.forget(req.NamespacedName)
	}
	c.announce(p, wasReady)
	return ctrl.Result{RequeueAfter: next}, nil
}

// ownedElsewhere reports whether another live instance validates p, and when to look again.
func (c *Controller) ownedElsewhere(p *v1alpha1.AWSProvider, now time.Time) (time.Duration, bool) {
	owner := p.Status.ValidatedBy
	if owner == "" || owner == c.Instance || p.Status.LastSyncTime == nil {
		return 0, false
	}
	expires := p.Status.LastSyncTime.Add(c.interval() + c.grace())
	if !now.Before(expires) {
		return 0, false
	}
	return expires.Sub(now), true
}

// upToDate reports whether this instance already validated exactly this version of the
// provider (its spec and Secrets) and the next validation is not due yet, and when it is due.
func (c *Controller) upToDate(name types.NamespacedName, sess *Session, now time.Time) (time.Time, bool) {
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
func (c *Controller) validate(ctx context.Context, p *v1alpha1.AWSProvider, sess *Session, resolveErr error) time.Duration {
	setReady := func(ok bool, reason, msg string) {
		status := metav1.ConditionFalse
		if ok {
			status = metav1.ConditionTrue
		}
		meta.SetStatusCondition(&p.Status.Conditions, metav1.Condition{
			Type: "Ready", Status: status, Reason: reason, Message: msg, ObservedGeneration: p.Generation,
		})
		p.Status.Ready = ok
		if !ok {
			p.Status.AccountID = ""
			p.Status.CallerIdentity = ""
		}
	}
	if resolveErr != nil {
		if pe, ok := AsError(resolveErr); ok {
			setReady(false, pe.Reason, pe.Message)
		} else {
			setReady(false, ReasonConfigFailed, resolveErr.Error())
		}
		return c.retry()
	}
	out, err := sts.NewFromConfig(sess.Config).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		reason := ReasonValidationFailed
		switch awserr.Classify(err) {
		case awserr.ClassAccessDenied:
			reason = ReasonCredentialsRejected
		case awserr.ClassUnavailable:
			reason = ReasonEndpointUnreachable
		}
		setReady(false, reason, redact(awserr.Describe(err), c.secretValues(ctx, sess)...))
		return c.retry()
	}
	setReady(true, ReasonCredentialsValid, "credentials validated with STS GetCallerIdentity")
	p.Status.AccountID = aws.ToString(out.Account)
	p.Status.CallerIdentity = aws.ToString(out.Arn)
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

func (c *Controller) announce(p *v1alpha1.AWSProvider, wasReady bool) {
	if c.Recorder == nil || wasReady == p.Status.Ready {
		return
	}
	cond := meta.FindStatusCondition(p.Status.Conditions, "Ready")
	if p.Status.Ready {
		c.Recorder.Eventf(p, nil, corev1.EventTypeNormal, cond.Reason, "Validate", "credentials valid for account %s", p.Status.AccountID)
		return
	}
	c.Recorder.Eventf(p, nil, corev1.EventTypeWarning, cond.Reason, "Validate", "%s", cond.Message)
}

func (c *Controller) remember(name types.NamespacedName, v validation) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.validated == nil {
		c.validated = map[types.NamespacedName]validation{}
	}
	c.validated[name] = v
}

func (c *Controller) forget(name types.NamespacedName) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.validated, name)
}
