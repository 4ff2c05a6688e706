package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/provider"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// TestProviderInUseIgnoresForeignObjects checks that an object whose providerRef names another
// namespace's provider, which refuses it, neither holds that provider's in-use finalizer nor
// is named in its InUse events; an object of a namespace the provider allows holds it, and is
// counted, not named.
func TestProviderInUseIgnoresForeignObjects(t *testing.T) {
	cl := newCloud()
	env := startWidgets(t, cl, func(*SetupOptions) {})
	ctx := context.Background()
	owner, guest, intruder := env.Namespace(t), env.Namespace(t), env.Namespace(t)
	p := env.Provider(t, owner, "aws", "AKIDTEST", "secret")
	updateObject(t, env, p, func(p *v1alpha1.AWSProvider) { p.Spec.AllowedNamespaces = []string{guest} })
	ref := func(w *testkind.Widget) { w.Spec.ProviderRef.Namespace = owner }
	own := newWidget(t, env, owner, "own", 1)
	guestW := newWidget(t, env, guest, "guest", 1, ref)
	foreign := newWidget(t, env, intruder, "intruder", 1, ref)
	waitNamed(t, env, owner, own.Name, "Ready", func(w *testkind.Widget) bool { return w.Status.Ready })
	waitNamed(t, env, guest, guestW.Name, "Ready", func(w *testkind.Widget) bool { return w.Status.Ready })
	waitNamed(t, env, intruder, foreign.Name, "refused the provider", func(w *testkind.Widget) bool {
		c := meta.FindStatusCondition(w.Status.Conditions, condition.TypeReady)
		return c != nil && c.Reason == condition.ReasonProviderNotAllowed
	})
	waitInUse(t, env, p)

	deleteObject(t, env, p)
	waitEvent(t, env, p, condition.ReasonInUse, "Widget "+owner+"/own, 1 in namespace "+guest)
	var events corev1.EventList
	if err := env.Client.List(ctx, &events, client.InNamespace(owner)); err != nil {
		t.Fatal(err)
	}
	for _, e := range events.Items {
		if e.Reason == condition.ReasonInUse && (strings.Contains(e.Message, intruder) || strings.Contains(e.Message, "/guest")) {
			t.Errorf("an InUse event names another namespace's object or the refused one: %q", e.Message)
		}
	}

	deleteObject(t, env, own)
	deleteObject(t, env, guestW)
	waitGone(t, env, own)
	waitGone(t, env, guestW)
	testenv.Eventually(t, 20*time.Second, func() string {
		err := env.Client.Get(ctx, client.ObjectKeyFromObject(p), &v1alpha1.AWSProvider{})
		if !apierrors.IsNotFound(err) {
			return "the provider is kept (by the refused object of another namespace?)"
		}
		return ""
	})
}

// waitInUse waits until provider p carries the test family's in-use finalizer.
func waitInUse(t *testing.T, env *testenv.Env, p *v1alpha1.AWSProvider) {
	t.Helper()
	testenv.Eventually(t, 10*time.Second, func() string {
		if err := env.Client.Get(context.Background(), client.ObjectKeyFromObject(p), p); err != nil {
			return err.Error()
		}
		if !controllerutil.ContainsFinalizer(p, provider.InUseFinalizer("test")) {
			return "the provider has no in-use finalizer: " + strings.Join(p.Finalizers, ",")
		}
		return ""
	})
}
