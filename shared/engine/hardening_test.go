package engine

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/aws/smithy-go"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/ststest"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// startWidgets starts a control plane and a manager for Widgets on cloud cl, with the setup
// options changed by tune.
func startWidgets(t *testing.T, cl *cloud, tune func(*SetupOptions)) *testenv.Env {
	t.Helper()
	env := testenv.Start(t, testenv.Options{
		CRDs:        []fs.FS{testkind.CRDs()},
		AddToScheme: []func(*runtime.Scheme) error{testkind.AddToScheme},
		AWS:         &ststest.Server{Accounts: map[string]string{"AKIDTEST": "123456789012"}},
	})
	startManagerWith(t, env, widgetKind(cl, nil), tune)
	return env
}

// newWidget creates a Widget ns/name of size with the provider "aws" and returns it.
func newWidget(t *testing.T, env *testenv.Env, ns, name string, size int32, mutate ...func(*testkind.Widget)) *testkind.Widget {
	t.Helper()
	w := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	w.Spec.ProviderRef.Name, w.Spec.Size = "aws", size
	for _, m := range mutate {
		m(w)
	}
	if err := env.Client.Create(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestDeletionNeverSticks checks that a difference from the spec that no update can fix does
// not keep an object from being deleted, and that an object whose deletion AWS refuses names
// the policy change that releases it.
func TestDeletionNeverSticks(t *testing.T) {
	cl := newCloud()
	env := startWidgets(t, cl, func(*SetupOptions) {})
	ns := env.Namespace(t)
	env.Provider(t, ns, "aws", "AKIDTEST", "secret")

	w := newWidget(t, env, ns, "conflicted", 1)
	w = waitNamed(t, env, ns, w.Name, "Ready", func(w *testkind.Widget) bool { return w.Status.Ready })
	id := managed.ExternalName(w)
	updateObject(t, env, w, func(w *testkind.Widget) { w.Spec.Size = conflictSize })
	waitNamed(t, env, ns, w.Name, "the conflict is terminal", func(w *testkind.Widget) bool {
		return condOf(w.Status.Conditions, condition.TypeStalled) == "True/"+condition.ReasonInvalidSpec
	})
	deleteObject(t, env, w)
	waitGone(t, env, w)
	cl.mu.Lock()
	_, left := cl.items[id]
	cl.mu.Unlock()
	if left {
		t.Errorf("widget %s was not deleted", id)
	}

	cl.mu.Lock()
	cl.errs["Delete"] = managed.Terminal("DeletionRefused", "the widget is protected")
	cl.mu.Unlock()
	stuck := newWidget(t, env, ns, "refused", 1)
	stuck = waitNamed(t, env, ns, stuck.Name, "Ready", func(w *testkind.Widget) bool { return w.Status.Ready })
	deleteObject(t, env, stuck)
	waitNamed(t, env, ns, stuck.Name, "the refusal names the way out", func(w *testkind.Widget) bool {
		c := meta.FindStatusCondition(w.Status.Conditions, condition.TypeSynced)
		return c != nil && c.Reason == "DeletionRefused" && strings.Contains(c.Message, "set spec.deletionPolicy to Orphan")
	})
	updateObject(t, env, stuck, func(w *testkind.Widget) { w.Spec.DeletionPolicy = v1alpha1.DeletionPolicyOrphan })
	waitGone(t, env, stuck)
}

// TestOwnership checks adoption against ownership tags: a resource that names another object
// or another install is refused with OwnedByAnother and left untouched, also when the object is
// deleted, unless the object carries the takeover annotation, which reaches another
// namespace's resource only with the administrator's leave (TakeoverNotAllowed without it);
// setting the external name wakes the object at once.
func TestOwnership(t *testing.T) {
	cl := newCloud()
	env := startWidgets(t, cl, func(o *SetupOptions) { o.Resolver.InstallID = "this-install" })
	ns := env.Namespace(t)
	env.Provider(t, ns, "aws", "AKIDTEST", "secret")
	foreign := map[string]string{v1alpha1.TagOwnerUID: "another-uid", v1alpha1.TagOwnerKind: "Widget",
		v1alpha1.TagOwnerNamespace: "other", v1alpha1.TagOwnerName: "theirs", "team": "other"}
	cl.mu.Lock()
	cl.items["w-foreign"] = &widgetState{Size: 1, Ready: true, Tags: foreign}
	cl.items["w-other-install"] = &widgetState{Size: 1, Ready: true, Tags: map[string]string{v1alpha1.TagInstallID: "another-install"}}
	cl.items["w-free"] = &widgetState{Size: 1, Ready: true, Tags: map[string]string{}}
	cl.errs["Create"] = managed.Terminal("CreateRefused", "no new widgets today")
	cl.mu.Unlock()

	adopter := newWidget(t, env, ns, "adopter", 1, func(w *testkind.Widget) {
		w.Annotations = map[string]string{v1alpha1.AnnotationExternalName: "w-foreign"}
	})
	waitNamed(t, env, ns, adopter.Name, "another object's resource is refused", func(w *testkind.Widget) bool {
		c := meta.FindStatusCondition(w.Status.Conditions, condition.TypeSynced)
		return c != nil && c.Reason == condition.ReasonOwnedByAnother && strings.Contains(c.Message, "other/theirs")
	})
	updateObject(t, env, adopter, func(w *testkind.Widget) { w.Annotations[v1alpha1.AnnotationTakeover] = "true" })
	waitNamed(t, env, ns, adopter.Name, "the takeover of another namespace's resource needs the administrator", func(w *testkind.Widget) bool {
		c := meta.FindStatusCondition(w.Status.Conditions, condition.TypeSynced)
		return c != nil && c.Reason == condition.ReasonTakeoverNotAllowed && strings.Contains(c.Message, "--takeover-namespaces")
	})
	cl.mu.Lock()
	if cl.items["w-foreign"].Tags[v1alpha1.TagOwnerUID] != "another-uid" {
		t.Errorf("the refused takeover changed the widget's tags: %v", cl.items["w-foreign"].Tags)
	}
	// The same resource, owned by another object of the adopter's own namespace, is taken over
	// with the annotation alone.
	cl.items["w-foreign"].Tags[v1alpha1.TagOwnerNamespace] = ns
	cl.mu.Unlock()
	updateObject(t, env, adopter, func(w *testkind.Widget) { w.Spec.Size = 2 })
	got := waitNamed(t, env, ns, adopter.Name, "the takeover adopts it", func(w *testkind.Widget) bool { return w.Status.Ready })
	cl.mu.Lock()
	tags := cl.items["w-foreign"].Tags
	cl.mu.Unlock()
	if tags[v1alpha1.TagOwnerUID] != string(got.UID) || tags[v1alpha1.TagInstallID] != "this-install" {
		t.Errorf("after the takeover the widget's tags are %v; want this object's and this install's", tags)
	}

	other := newWidget(t, env, ns, "other-install", 1, func(w *testkind.Widget) {
		w.Annotations = map[string]string{v1alpha1.AnnotationExternalName: "w-other-install"}
	})
	waitNamed(t, env, ns, other.Name, "another install's resource is refused", func(w *testkind.Widget) bool {
		c := meta.FindStatusCondition(w.Status.Conditions, condition.TypeSynced)
		return c != nil && c.Reason == condition.ReasonOwnedByAnother && strings.Contains(c.Message, "another-install")
	})
	deleteObject(t, env, other)
	waitGone(t, env, other)
	cl.mu.Lock()
	kept, ok := cl.items["w-other-install"]
	cl.mu.Unlock()
	if !ok || kept.Tags[v1alpha1.TagInstallID] != "another-install" {
		t.Errorf("deleting the object touched another install's widget: %+v", kept)
	}

	late := newWidget(t, env, ns, "late", 1)
	waitNamed(t, env, ns, late.Name, "the refused create is terminal", func(w *testkind.Widget) bool {
		return condOf(w.Status.Conditions, condition.TypeStalled) == "True/CreateRefused"
	})
	updateObject(t, env, late, func(w *testkind.Widget) {
		w.Annotations = map[string]string{v1alpha1.AnnotationExternalName: "w-free"}
	})
	start := time.Now()
	waitNamed(t, env, ns, late.Name, "setting the external name adopts at once", func(w *testkind.Widget) bool { return w.Status.Ready })
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("the adoption took %s; want it at once", waited)
	}
}

// TestQuotaIsRetried checks that a quota error is retried with backoff, not terminal.
func TestQuotaIsRetried(t *testing.T) {
	cl := newCloud()
	env := startWidgets(t, cl, func(*SetupOptions) {})
	ns := env.Namespace(t)
	env.Provider(t, ns, "aws", "AKIDTEST", "secret")
	cl.mu.Lock()
	cl.errs["Create"] = &smithy.GenericAPIError{Code: "LimitExceededException", Message: "too many widgets"}
	cl.mu.Unlock()
	w := newWidget(t, env, ns, "quota", 1)
	waitNamed(t, env, ns, w.Name, "the quota is reported", func(w *testkind.Widget) bool {
		return condOf(w.Status.Conditions, condition.TypeSynced) == "False/"+condition.ReasonQuotaExceeded && meta.FindStatusCondition(w.Status.Conditions, condition.TypeStalled) == nil
	})
	cl.mu.Lock()
	delete(cl.errs, "Create")
	cl.mu.Unlock()
	waitNamed(t, env, ns, w.Name, "created once the quota allows it", func(w *testkind.Widget) bool { return w.Status.Ready })
}

// TestNotConvergingBacksOff checks that updates that leave the same difference back off with a
// NotConverging event instead of repeating every wait interval.
func TestNotConvergingBacksOff(t *testing.T) {
	cl := newCloud()
	env := startWidgets(t, cl, func(*SetupOptions) {})
	ns := env.Namespace(t)
	env.Provider(t, ns, "aws", "AKIDTEST", "secret")
	w := newWidget(t, env, ns, "stubborn", 1)
	w = waitNamed(t, env, ns, w.Name, "Ready", func(w *testkind.Widget) bool { return w.Status.Ready })
	cl.mu.Lock()
	cl.items[managed.ExternalName(w)].Stubborn = true
	before := cl.calls["Update"]
	cl.mu.Unlock()
	updateObject(t, env, w, func(w *testkind.Widget) { w.Spec.Size = 3 })
	waitEvent(t, env, w, condition.ReasonNotConverging, "still differs from the spec")
	time.Sleep(4 * time.Second)
	cl.mu.Lock()
	updates := cl.calls["Update"] - before
	cl.mu.Unlock()
	// At a 200ms wait interval, 6s of updates without backoff would be about 30.
	if updates > 10 {
		t.Errorf("%d updates of a widget that does not converge; want them to back off", updates)
	}
}

// TestSlowEndpointIsolated checks that objects whose endpoint never answers hold neither every
// worker nor a worker for ever: another namespace's object becomes Ready meanwhile, and the
// slow ones report the deadline.
func TestSlowEndpointIsolated(t *testing.T) {
	cl := newCloud()
	env := startWidgets(t, cl, func(o *SetupOptions) { o.Reconciler.Timeout = 3 * time.Second })
	slow, fast := env.Namespace(t), env.Namespace(t)
	env.Provider(t, slow, "aws", "AKIDTEST", "secret")
	env.Provider(t, fast, "aws", "AKIDTEST", "secret")
	for _, name := range []string{"a", "b", "c", "d"} {
		newWidget(t, env, slow, name, slowSize)
	}
	time.Sleep(time.Second)
	start := time.Now()
	w := newWidget(t, env, fast, "fast", 1)
	waitNamed(t, env, fast, w.Name, "Ready beside the slow namespace", func(w *testkind.Widget) bool { return w.Status.Ready })
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("the other namespace's widget took %s to be Ready; want no wait for the slow endpoint", took)
	}
	testenv.Eventually(t, 20*time.Second, func() string {
		list := &testkind.WidgetList{}
		if err := env.Client.List(context.Background(), list, client.InNamespace(slow)); err != nil {
			return err.Error()
		}
		for _, w := range list.Items {
			if c := meta.FindStatusCondition(w.Status.Conditions, condition.TypeSynced); c != nil && c.Status == metav1.ConditionFalse && strings.Contains(c.Message, "deadline") {
				return ""
			}
		}
		return "no slow widget reports the reconcile's deadline"
	})
}

// TestProviderInUse checks the in-use finalizer: a provider used by objects outlives its
// deletion (and its Secret's) until they are deleted through it, then goes.
func TestProviderInUse(t *testing.T) {
	cl := newCloud()
	env := startWidgets(t, cl, func(*SetupOptions) {})
	ctx := context.Background()
	ns := env.Namespace(t)
	p := env.Provider(t, ns, "aws", "AKIDTEST", "secret")
	w := newWidget(t, env, ns, "user", 1)
	w = waitNamed(t, env, ns, w.Name, "Ready", func(w *testkind.Widget) bool { return w.Status.Ready })
	id := managed.ExternalName(w)
	waitInUse(t, env, p)
	deleteObject(t, env, p)
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "aws-credentials"}}
	deleteObject(t, env, secret)
	waitEvent(t, env, p, condition.ReasonInUse, "Widget "+ns+"/user")
	deleteObject(t, env, w)
	waitGone(t, env, w)
	cl.mu.Lock()
	_, left := cl.items[id]
	cl.mu.Unlock()
	if left {
		t.Errorf("widget %s was not deleted through the provider being deleted", id)
	}
	testenv.Eventually(t, 20*time.Second, func() string {
		err := env.Client.Get(ctx, types.NamespacedName{Namespace: ns, Name: "aws"}, &v1alpha1.AWSProvider{})
		if !apierrors.IsNotFound(err) {
			return "the provider is still there"
		}
		return ""
	})
}

// updateObject applies mutate to the current version of o, retrying on conflicts: the
// operator writes the objects a test changes (status, finalizers, annotations).
func updateObject[O client.Object](t *testing.T, env *testenv.Env, o O, mutate func(O)) {
	t.Helper()
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur := o.DeepCopyObject().(O)
		if err := env.Client.Get(context.Background(), client.ObjectKeyFromObject(o), cur); err != nil {
			return err
		}
		mutate(cur)
		return env.Client.Update(context.Background(), cur)
	}); err != nil {
		t.Fatalf("update %s: %v", o.GetName(), err)
	}
}

// deleteObject deletes o.
func deleteObject(t *testing.T, env *testenv.Env, o client.Object) {
	t.Helper()
	if err := env.Client.Delete(context.Background(), o); err != nil && !apierrors.IsNotFound(err) {
		t.Fatalf("delete %s: %v", o.GetName(), err)
	}
}

// waitGone waits up to 20 seconds for o to disappear from the API server.
func waitGone(t *testing.T, env *testenv.Env, o client.Object) {
	t.Helper()
	testenv.Eventually(t, 20*time.Second, func() string {
		cur := o.DeepCopyObject().(client.Object)
		if err := env.Client.Get(context.Background(), client.ObjectKeyFromObject(o), cur); !apierrors.IsNotFound(err) {
			return o.GetName() + " is still there"
		}
		return ""
	})
}

// waitEvent waits up to 20 seconds for an event about o with reason whose message holds text.
func waitEvent(t *testing.T, env *testenv.Env, o client.Object, reason, text string) {
	t.Helper()
	testenv.Eventually(t, 20*time.Second, func() string {
		var list corev1.EventList
		if err := env.Client.List(context.Background(), &list, client.InNamespace(o.GetNamespace())); err != nil {
			return err.Error()
		}
		for _, e := range list.Items {
			if e.InvolvedObject.Name == o.GetName() && e.Reason == reason && strings.Contains(e.Message, text) {
				return ""
			}
		}
		return "no " + reason + " event holding " + text
	})
}
