package engine

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/ststest"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// TestWidgetEndToEnd drives the Widget kind through the generic reconciler with a real API
// server: finalizer, conditions, update, delete, and recovery from a missing provider.
func TestWidgetEndToEnd(t *testing.T) {
	env := testenv.Start(t, testenv.Options{
		CRDs:        []fs.FS{testkind.CRDs()},
		AddToScheme: []func(*runtime.Scheme) error{testkind.AddToScheme},
		AWS:         &ststest.Server{Accounts: map[string]string{"AKIDTEST": "123456789012"}},
	})
	cl := newCloud()
	startManager(t, env, cl)
	ctx := context.Background()
	ns := env.Namespace(t)

	w := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "w"}}
	w.Spec.ProviderRef.Name = "aws"
	w.Spec.Size = 2
	w.Spec.Tags = map[string]string{"team": "platform"}
	if err := env.Client.Create(ctx, w); err != nil {
		t.Fatal(err)
	}
	waitFor(t, env, ns, "a missing provider is reported", func(w *testkind.Widget) bool {
		return condOf(w.Status.Conditions, condition.TypeReady) == "False/ProviderNotFound"
	})

	env.Provider(t, ns, "aws", "AKIDTEST", "secret")
	got := waitFor(t, env, ns, "the widget becomes Ready once the provider exists", func(w *testkind.Widget) bool {
		return condOf(w.Status.Conditions, condition.TypeReady) == "True/Available"
	})
	if !got.Status.Ready || got.Status.ObservedGeneration != got.Generation || got.Status.LastSyncTime == nil {
		t.Errorf("status is incomplete: %+v", got.Status.ManagedStatus)
	}
	if !hasFinalizer(got) || managed.ExternalName(got) == "" || got.Status.WidgetID != managed.ExternalName(got) {
		t.Errorf("finalizer or external name missing: finalizers %v, annotations %v", got.Finalizers, got.Annotations)
	}
	cl.mu.Lock()
	item := cl.items[managed.ExternalName(got)]
	tags := item.Tags
	creates := cl.calls["Create"]
	cl.mu.Unlock()
	if creates != 1 || tags["team"] != "platform" || tags[v1alpha1.TagOwnerUID] != string(got.UID) || tags[v1alpha1.TagOwnerKind] != "Widget" {
		t.Errorf("want one create with spec and ownership tags; got %d creates, tags %v", creates, tags)
	}

	updateObject(t, env, got, func(w *testkind.Widget) { w.Spec.Size = 5 })
	waitFor(t, env, ns, "the spec change is applied", func(w *testkind.Widget) bool {
		cl.mu.Lock()
		defer cl.mu.Unlock()
		return w.Status.ObservedGeneration == w.Generation && cl.items[managed.ExternalName(w)].Size == 5 &&
			condOf(w.Status.Conditions, condition.TypeReady) == "True/Available"
	})

	if err := env.Client.Delete(ctx, got); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		err := env.Client.Get(ctx, types.NamespacedName{Namespace: ns, Name: "w"}, &testkind.Widget{})
		if apierrors.IsNotFound(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the widget was not released after delete: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if len(cl.items) != 0 {
		t.Errorf("the AWS resource was left behind: %v", cl.items)
	}
}

func startManager(t *testing.T, env *testenv.Env, cl *cloud) {
	t.Helper()
	startManagerWith(t, env, widgetKind(cl, nil), func(*SetupOptions) {})
}

// startManagerWith is startManager for kind, with the setup options changed by tune.
func startManagerWith(t *testing.T, env *testenv.Env, kind managed.Kind[*testkind.Widget, widgetState], tune func(*SetupOptions)) {
	t.Helper()
	// Without a logger controller-runtime prints a warning with a stack trace after 30 seconds.
	ctrl.SetLogger(logr.Discard())
	mgr := env.Manager(t)
	ctx, cancel := context.WithCancel(context.Background())
	resolver := &provider.Resolver{Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(),
		LoadOptions: []func(*config.LoadOptions) error{config.WithRetryMaxAttempts(1)}}
	users := &provider.Users{}
	pc := &provider.Controller{Client: mgr.GetClient(), Resolver: resolver, Instance: "test", RetryInterval: time.Second, Users: users,
		Recorder: mgr.GetEventRecorder("test-awsprovider")}
	if err := pc.SetupWithManager(ctx, mgr); err != nil {
		t.Fatal(err)
	}
	opts := SetupOptions{Resolver: resolver, MaxConcurrentReconciles: 2, Family: "test", Users: users,
		Reconciler: Options{WaitInterval: 200 * time.Millisecond, ProviderRetry: time.Second}}
	tune(&opts)
	if err := Setup(ctx, mgr, kind, opts); err != nil {
		t.Fatal(err)
	}
	if opts.Previews != nil {
		if err := SetupPreviews(mgr, opts.Previews); err != nil {
			t.Fatal(err)
		}
	}
	testenv.Run(t, mgr, ctx, cancel)
}

func waitFor(t *testing.T, env *testenv.Env, ns, what string, ok func(*testkind.Widget) bool) *testkind.Widget {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	w := &testkind.Widget{}
	for time.Now().Before(deadline) {
		if err := env.Client.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: "w"}, w); err == nil && ok(w) {
			return w
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s: not within 20s; conditions %v", what, w.Status.Conditions)
	return nil
}

func hasFinalizer(o client.Object) bool {
	for _, f := range o.GetFinalizers() {
		if f == v1alpha1.Finalizer {
			return true
		}
	}
	return false
}

// TestReferences checks that a widget waits, with a condition naming the reference, for the
// widget it refers to, and is woken by the reference watch (not by a timer: the waiting retry
// is a minute) when that one becomes Ready, by name and by label selector.
func TestReferences(t *testing.T) {
	env := testenv.Start(t, testenv.Options{
		CRDs:        []fs.FS{testkind.CRDs()},
		AddToScheme: []func(*runtime.Scheme) error{testkind.AddToScheme},
		AWS:         &ststest.Server{Accounts: map[string]string{"AKIDTEST": "123456789012"}},
	})
	cl := newCloud()
	startManager(t, env, cl)
	ctx := context.Background()
	ns := env.Namespace(t)
	env.Provider(t, ns, "aws", "AKIDTEST", "secret")

	child := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "child"}}
	child.Spec.ProviderRef.Name, child.Spec.Size = "aws", 1
	child.Spec.ParentRef = &v1alpha1.Reference{Name: "parent"}
	bySelector := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "by-selector"}}
	bySelector.Spec.ProviderRef.Name, bySelector.Spec.Size = "aws", 1
	bySelector.Spec.ParentSelector = &v1alpha1.Selector{MatchLabels: map[string]string{"tier": "parent"}}
	for _, w := range []*testkind.Widget{child, bySelector} {
		if err := env.Client.Create(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	waitNamed(t, env, ns, "child", "the missing parent is named", func(w *testkind.Widget) bool {
		c := meta.FindStatusCondition(w.Status.Conditions, condition.TypeReady)
		return c != nil && c.Reason == condition.ReasonReferenceNotFound && strings.Contains(c.Message, "spec.parentRef: Widget "+ns+"/parent does not exist")
	})
	waitNamed(t, env, ns, "by-selector", "no match is said", func(w *testkind.Widget) bool {
		return condOf(w.Status.Conditions, condition.TypeReady) == "False/"+condition.ReasonReferenceNotFound
	})

	parent := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "parent", Labels: map[string]string{"tier": "parent"}}}
	parent.Spec.ProviderRef.Name, parent.Spec.Size = "aws", 1
	if err := env.Client.Create(ctx, parent); err != nil {
		t.Fatal(err)
	}
	p := waitNamed(t, env, ns, "parent", "the parent is Ready", func(w *testkind.Widget) bool { return w.Status.Ready })
	for _, name := range []string{"child", "by-selector"} {
		got := waitNamed(t, env, ns, name, "the referring widget uses the parent's id", func(w *testkind.Widget) bool {
			return w.Status.Ready && w.Status.ParentID == p.Status.WidgetID
		})
		cl.mu.Lock()
		if parentOf := cl.items[managed.ExternalName(got)].Parent; parentOf != p.Status.WidgetID {
			t.Errorf("%s was created with parent %q, want %q", name, parentOf, p.Status.WidgetID)
		}
		cl.mu.Unlock()
	}
}

// waitNamed polls the widget ns/name until ok holds, for at most 20 seconds.
func waitNamed(t *testing.T, env *testenv.Env, ns, name, what string, ok func(*testkind.Widget) bool) *testkind.Widget {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	w := &testkind.Widget{}
	for time.Now().Before(deadline) {
		if err := env.Client.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, w); err == nil && ok(w) {
			return w
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s/%s: %s: not within 20s; conditions %v", ns, name, what, w.Status.Conditions)
	return nil
}
