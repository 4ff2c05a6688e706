package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// inUseRecheck is how often a provider being deleted is looked at again while objects use it.
const inUseRecheck = 5 * time.Second

// Users knows, for each family the operator runs, which managed objects use a provider. A
// provider carries the in-use finalizer of every family whose objects use it, and each family
// removes its own once none of its objects refer to the provider any more, so deleting a
// namespace deletes its resources through a working provider.
type Users struct {
	mu       sync.Mutex
	byFamily map[string][]UserLister
}

// User is a managed object whose providerRef names a provider.
type User struct {
	// Kind is the object's kind.
	Kind string
	// Namespace is the object's namespace.
	Namespace string
	// Name is the object's name.
	Name string
}

// String returns "Kind namespace/name".
func (u User) String() string { return u.Kind + " " + u.Namespace + "/" + u.Name }

// UserLister returns the objects of one kind whose providerRef names the provider.
type UserLister func(ctx context.Context, key Key) ([]User, error)

// Register adds the lister of one kind of family.
func (u *Users) Register(family string, list UserLister) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.byFamily == nil {
		u.byFamily = map[string][]UserLister{}
	}
	u.byFamily[family] = append(u.byFamily[family], list)
}

// families returns the registered families, sorted.
func (u *Users) families() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make([]string, 0, len(u.byFamily))
	for f := range u.byFamily {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// list returns the objects of family that use provider p: those whose providerRef names it
// and whose namespace p allows. An object of a namespace p does not allow is refused the
// provider, so it neither keeps p from being deleted nor is named to p's readers.
func (u *Users) list(ctx context.Context, family string, p v1alpha1.ProviderObject) ([]User, error) {
	u.mu.Lock()
	listers := slices.Clone(u.byFamily[family])
	u.mu.Unlock()
	var out []User
	for _, l := range listers {
		users, err := l(ctx, KeyOf(p))
		if err != nil {
			return nil, err
		}
		for _, user := range users {
			if p.Allows(user.Namespace) {
				out = append(out, user)
			}
		}
	}
	return out, nil
}

// InUseFinalizer returns the in-use finalizer of family.
func InUseFinalizer(family string) string { return v1alpha1.FinalizerInUsePrefix + family }

// MarkInUse adds family's in-use finalizer to p unless p has it or is being deleted (the API
// server accepts no new finalizer then). Many objects mark one provider at once when they are
// created together: on a conflict it reads the provider again through reader (uncached) and
// tries again.
func MarkInUse(ctx context.Context, c client.Client, reader client.Reader, p v1alpha1.ProviderObject, family string) error {
	f := InUseFinalizer(family)
	if family == "" || controllerutil.ContainsFinalizer(p, f) {
		return nil
	}
	cur := p.DeepCopyObject().(v1alpha1.ProviderObject)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if controllerutil.ContainsFinalizer(cur, f) || !cur.GetDeletionTimestamp().IsZero() {
			return nil
		}
		base := cur.DeepCopyObject().(client.Object)
		target := cur.DeepCopyObject().(client.Object)
		controllerutil.AddFinalizer(target, f)
		err := c.Patch(ctx, target, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
		if apierrors.IsConflict(err) {
			if getErr := reader.Get(ctx, client.ObjectKeyFromObject(cur), cur); getErr != nil {
				return getErr
			}
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("add the in-use finalizer to %s: %w", KeyOf(p).Describe(), err)
	}
	return nil
}

// releaseInUse removes, from a provider being deleted, the in-use finalizer of every family of
// this operator that no object allowed to use the provider uses any more, and says which
// objects hold the others: by name those of the provider's own namespace, by count per
// namespace those of the other namespaces it allows (the provider's events are read in its
// namespace, which may not see the others' object names).
func (c *Controller) releaseInUse(ctx context.Context, p v1alpha1.ProviderObject) (ctrl.Result, error) {
	if c.Users == nil {
		return ctrl.Result{}, nil
	}
	key := KeyOf(p)
	var holding []User
	for _, family := range c.Users.families() {
		f := InUseFinalizer(family)
		if !controllerutil.ContainsFinalizer(p, f) {
			continue
		}
		users, err := c.Users.list(ctx, family, p)
		if err != nil {
			return ctrl.Result{}, fmt.Errorf("list the objects that use %s: %w", key.Describe(), err)
		}
		if len(users) > 0 {
			holding = append(holding, users...)
			continue
		}
		base := p.DeepCopyObject().(client.Object)
		controllerutil.RemoveFinalizer(p, f)
		if err := c.Client.Patch(ctx, p, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil {
			return ctrl.Result{}, fmt.Errorf("remove the in-use finalizer of %s: %w", key.Describe(), err)
		}
	}
	if len(holding) == 0 {
		return ctrl.Result{}, nil
	}
	if c.Recorder != nil {
		c.Recorder.Eventf(p, nil, corev1.EventTypeNormal, condition.ReasonInUse, "Delete",
			"kept until the %d objects that use it are gone: %s", len(holding), describeUsers(p.GetNamespace(), holding))
	}
	return ctrl.Result{RequeueAfter: inUseRecheck}, nil
}

// maxNamedUsers is how many objects an InUse event names.
const maxNamedUsers = 10

// describeUsers names, for an event on a provider of namespace ns (empty for a
// ClusterAWSProvider), the objects that hold it: the objects of ns by kind and name (at most
// maxNamedUsers), the objects of every other namespace only as a count per namespace.
func describeUsers(ns string, users []User) string {
	var named []string
	others := map[string]int{}
	for _, u := range users {
		if ns != "" && u.Namespace == ns {
			named = append(named, u.String())
		} else {
			others[u.Namespace]++
		}
	}
	slices.Sort(named)
	var parts []string
	if len(named) > maxNamedUsers {
		named = append(named[:maxNamedUsers], fmt.Sprintf("and %d more", len(named)-maxNamedUsers))
	}
	parts = append(parts, named...)
	namespaces := slices.Sorted(maps.Keys(others))
	for _, other := range namespaces {
		parts = append(parts, fmt.Sprintf("%d in namespace %s", others[other], other))
	}
	return strings.Join(parts, ", ")
}
