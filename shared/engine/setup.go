package engine

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/util/workqueue"
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
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// providerIndex indexes managed objects by the namespace/name of their AWSProvider.
const providerIndex = ".spec.providerRef"

// referenceIndex indexes managed objects by the objects their spec refers to: "Kind/ns/name",
// or "Kind/ns/*" for a label selector.
const referenceIndex = ".spec.references"

// secretIndex indexes managed objects by the namespace/name of the Secrets their spec refers to.
const secretIndex = ".spec.secretRefs"

// SetupOptions configure the controller of one kind.
type SetupOptions struct {
	// Resolver turns AWSProviders into sessions; one is shared by every kind of a family.
	Resolver *provider.Resolver
	// Recorder emits events; when nil, the manager's recorder for the kind is used.
	Recorder events.EventRecorder
	// MaxConcurrentReconciles is how many objects of the kind are reconciled at once.
	MaxConcurrentReconciles int
	// Family names the family the kind belongs to: the providers its objects use carry the
	// family's in-use finalizer. Empty marks no provider.
	Family string
	// Users is where the kind registers the lister of the objects that use a provider, for
	// the provider controller's in-use finalizers; nil registers nothing.
	Users *provider.Users
	// Previews is where the kind registers itself to be planned for Previews; nil registers
	// nothing.
	Previews *Previews
	// Reconciler tunes timing.
	Reconciler Options
}

// Setup registers the controller of kind with mgr: the reconciler, its watches (the kind
// itself, and AWSProviders that it uses), and per-item exponential backoff.
func Setup[O v1alpha1.Managed, S any](ctx context.Context, mgr ctrl.Manager, kind managed.Kind[O, S], opts SetupOptions) error {
	kind, err := completeKind(kind, mgr.GetScheme())
	if err != nil {
		return err
	}
	if err := mgr.GetFieldIndexer().IndexField(ctx, kind.New(), providerIndex, func(obj client.Object) []string {
		return []string{provider.ProviderKey(obj.(O)).String()}
	}); err != nil {
		return fmt.Errorf("index %s by provider: %w", kind.Name, err)
	}
	if kind.Secrets != nil {
		if err := mgr.GetFieldIndexer().IndexField(ctx, kind.New(), secretIndex, func(obj client.Object) []string {
			var keys []string
			for _, name := range kind.Secrets(obj.(O)) {
				keys = append(keys, obj.GetNamespace()+"/"+name)
			}
			return keys
		}); err != nil {
			return fmt.Errorf("index %s by Secret: %w", kind.Name, err)
		}
	}
	if len(kind.References) > 0 {
		if err := mgr.GetFieldIndexer().IndexField(ctx, kind.New(), referenceIndex, func(obj client.Object) []string {
			return referenceKeys(kind.References, obj.(O))
		}); err != nil {
			return fmt.Errorf("index %s by reference: %w", kind.Name, err)
		}
	}
	rec := opts.Recorder
	if rec == nil {
		rec = mgr.GetEventRecorder("infra-operator-" + strings.ToLower(kind.Name))
	}
	workers := max(1, opts.MaxConcurrentReconciles)
	r := NewReconciler(kind, mgr.GetClient(), mgr.GetAPIReader(), opts.Resolver, rec, opts.Family, workers, opts.Reconciler)
	if opts.Users != nil && opts.Family != "" {
		opts.Users.Register(opts.Family, r.usersOf)
	}
	if opts.Previews != nil {
		opts.Previews.register(opts.Family, kind.Name, r)
	}
	b := ctrl.NewControllerManagedBy(mgr).
		Named(strings.ToLower(kind.Name)).
		For(kind.New(), builder.WithPredicates(specOrIntentChanged())).
		Watches(&v1alpha1.AWSProvider{}, handler.EnqueueRequestsFromMapFunc(r.requestsForProvider),
			builder.WithPredicates(providerUsabilityChanged())).
		Watches(&v1alpha1.ClusterAWSProvider{}, handler.EnqueueRequestsFromMapFunc(r.requestsForProvider),
			builder.WithPredicates(providerUsabilityChanged()))
	if kind.Secrets != nil {
		// Secrets are watched as metadata only, so that no Secret value is cached; drivers
		// read the ones they need from the API server.
		secret := &metav1.PartialObjectMetadata{}
		secret.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
		b = b.WatchesMetadata(secret, handler.EnqueueRequestsFromMapFunc(r.requestsForIndex(secretIndex)),
			builder.WithPredicates(predicate.ResourceVersionChangedPredicate{}))
	}
	b, err = r.watchTargets(ctx, mgr, b)
	if err != nil {
		return err
	}
	return b.WithOptions(controller.Options{
		MaxConcurrentReconciles: workers,
		RateLimiter: workqueue.NewTypedMaxOfRateLimiter(
			workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](time.Second, 5*time.Minute),
			&workqueue.TypedBucketRateLimiter[reconcile.Request]{Limiter: newBucket()},
		),
	}).
		Complete(r)
}

// requestsForProvider requests a reconcile of every object of the kind that uses the changed
// AWSProvider or ClusterAWSProvider.
func (r *Reconciler[O, S]) requestsForProvider(ctx context.Context, changed client.Object) []reconcile.Request {
	p, ok := changed.(v1alpha1.ProviderObject)
	if !ok {
		return nil
	}
	return r.requestsFor(ctx, providerIndex, provider.KeyOf(p).String())
}

// usersOf returns the objects of the kind whose providerRef names the provider key.
func (r *Reconciler[O, S]) usersOf(ctx context.Context, key provider.Key) ([]provider.User, error) {
	list := r.kind.NewList()
	if err := r.client.List(ctx, list, client.MatchingFields{providerIndex: key.String()}); err != nil {
		return nil, fmt.Errorf("list %s objects by provider: %w", r.kind.Name, err)
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, fmt.Errorf("read the %s list: %w", r.kind.Name, err)
	}
	out := make([]provider.User, 0, len(items))
	for _, item := range items {
		o := item.(client.Object)
		out = append(out, provider.User{Kind: r.kind.Name, Namespace: o.GetNamespace(), Name: o.GetName()})
	}
	return out, nil
}

// requestsForIndex returns a map function that requests a reconcile of every object of the
// kind whose index entry names the changed object (a Secret).
func (r *Reconciler[O, S]) requestsForIndex(index string) handler.MapFunc {
	return func(ctx context.Context, changed client.Object) []reconcile.Request {
		return r.requestsFor(ctx, index, client.ObjectKeyFromObject(changed).String())
	}
}

// requestsFor returns a request for every object of the kind whose index entry is key.
func (r *Reconciler[O, S]) requestsFor(ctx context.Context, index, key string) []reconcile.Request {
	list := r.kind.NewList()
	if err := r.client.List(ctx, list, client.MatchingFields{index: key}); err != nil {
		return nil
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil
	}
	reqs := make([]reconcile.Request, 0, len(items))
	for _, item := range items {
		o := item.(client.Object)
		reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(o)})
	}
	return reqs
}

// specOrIntentChanged passes creations, deletions, and updates that change the spec, start
// deletion, or change an annotation other than the reconciler's own bookkeeping (pause,
// resync, takeover), or the external name when someone other than the reconciler set it
// (adoption). Status writes do not wake the reconciler.
func specOrIntentChanged() predicate.Predicate {
	return predicate.Funcs{
		UpdateFunc: func(e event.UpdateEvent) bool {
			if e.ObjectOld.GetGeneration() != e.ObjectNew.GetGeneration() {
				return true
			}
			if e.ObjectOld.GetDeletionTimestamp().IsZero() != e.ObjectNew.GetDeletionTimestamp().IsZero() {
				return true
			}
			return !maps.Equal(userAnnotations(e.ObjectOld), userAnnotations(e.ObjectNew)) || adopted(e.ObjectOld, e.ObjectNew)
		},
	}
}

// adopted reports whether an update set or changed the external name other than the way the
// reconciler records a resource it created (while the create-pending marker, which stays until
// AWS shows the resource, is on the object). A resource the reconciler found by its ownership
// tags looks like an adoption and costs one more reconcile, which finds everything in order.
func adopted(old, cur client.Object) bool {
	was, is := old.GetAnnotations()[v1alpha1.AnnotationExternalName], cur.GetAnnotations()[v1alpha1.AnnotationExternalName]
	if was == is || is == "" {
		return false
	}
	_, recorded := old.GetAnnotations()[v1alpha1.AnnotationCreatePending]
	return was != "" || !recorded
}

// userAnnotations returns the annotations that are not the reconciler's own bookkeeping.
func userAnnotations(o client.Object) map[string]string {
	out := maps.Clone(o.GetAnnotations())
	for _, k := range bookkeepingKeys {
		delete(out, k)
	}
	return out
}

// providerUsabilityChanged passes provider events that can change whether resources may use
// it: creation, deletion, a spec change, or a change of its Ready condition. The provider's
// periodic revalidation does not wake every resource that uses it, for AWSProviders and
// ClusterAWSProviders alike.
func providerUsabilityChanged() predicate.Predicate {
	return predicate.Funcs{
		UpdateFunc: func(e event.UpdateEvent) bool {
			if e.ObjectOld.GetGeneration() != e.ObjectNew.GetGeneration() {
				return true
			}
			oldP, ok1 := e.ObjectOld.(v1alpha1.ProviderObject)
			newP, ok2 := e.ObjectNew.(v1alpha1.ProviderObject)
			if !ok1 || !ok2 {
				return true
			}
			oldC := meta.FindStatusCondition(oldP.ProviderStatus().Conditions, condition.TypeReady)
			newC := meta.FindStatusCondition(newP.ProviderStatus().Conditions, condition.TypeReady)
			if oldC == nil || newC == nil {
				return oldC != newC
			}
			return oldC.Status != newC.Status || oldC.Reason != newC.Reason || oldC.ObservedGeneration != newC.ObservedGeneration
		},
	}
}
