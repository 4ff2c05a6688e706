package provider

import (
	"context"
	"fmt"
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

// UserLister returns "Kind namespace/name" of the objects of one kind that use the provider.
type UserLister func(ctx context.Context, key Key) ([]string, error)

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

// list returns the objects of family that use the provider.
func (u *Users) list(ctx context.Context, family string, key Key) ([]string, error) {
	u.mu.Lock()
	listers := slices.Clone(u.byFamily[family])
	u.mu.Unlock()
	var out []string
	for _, l := range listers {
		names, err := l(ctx, key)
		if err != nil {
			return nil, err
		}
		out = append(out, names...)
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
// this operator that no object uses the provider any more, and says which objects hold the
// others.
func (c *Controller) releaseInUse(ctx context.Context, p v1alpha1.ProviderObject) (ctrl.Result, error) {
	if c.Users == nil {
		return ctrl.Result{}, nil
	}
	key := KeyOf(p)
	var holding []string
	for _, family := range c.Users.families() {
		f := InUseFinalizer(family)
		if !controllerutil.ContainsFinalizer(p, f) {
			continue
		}
		users, err := c.Users.list(ctx, family, key)
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
		slices.Sort(holding)
		shown := holding
		if len(shown) > 10 {
			shown = append(slices.Clone(shown[:10]), fmt.Sprintf("and %d more", len(holding)-10))
		}
		c.Recorder.Eventf(p, nil, corev1.EventTypeNormal, condition.ReasonInUse, "Delete",
			"kept until the %d objects that use it are gone: %s", len(holding), strings.Join(shown, ", "))
	}
	return ctrl.Result{RequeueAfter: inUseRecheck}, nil
}
