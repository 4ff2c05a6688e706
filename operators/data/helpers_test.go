package data_test

import (
	"context"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/data"
	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/crds"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
)

// Test credentials for the emulator; any key is accepted and belongs to the default account,
// except otherAccessKey, which belongs to another account.
const (
	testAccessKey  = "AKIDDATATEST"
	testSecretKey  = "data-test-secret"
	testRegion     = "us-east-1"
	otherAccessKey = "AKIDOTHERACCOUNT"
)

// harness is a control plane, an emulated AWS and the data family's controllers.
type harness struct {
	t   testing.TB
	env *testenv.Env
	emu *emulator.Server
	aws aws.Config
}

// start starts the control plane with the data family's CRDs, the emulator (lifecycles of
// 300ms, so tests see every state without waiting minutes) and the family's controllers.
func start(t testing.TB) *harness {
	t.Helper()
	return startWith(t, map[string]time.Duration{"DynamoDB": 300 * time.Millisecond, "RDS": 300 * time.Millisecond},
		func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond })
}

// startWith starts the harness with the emulator's lifecycle durations and the operator's
// options as given; nil transitions keep the emulator's defaults.
func startWith(t testing.TB, transitions map[string]time.Duration, tune func(*operator.Options)) *harness {
	t.Helper()
	emu := emulator.New(emulator.Options{Transitions: transitions, Accounts: map[string]string{otherAccessKey: "222222222222"}})
	env := testenv.Start(t, testenv.Options{
		CRDs:        []fs.FS{crds.FS()},
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme},
		AWS:         emu,
	})
	families.RunWith(t, env, tune, data.Family())
	cfg := aws.Config{
		Region:       testRegion,
		Credentials:  credentials.NewStaticCredentialsProvider(testAccessKey, testSecretKey, ""),
		BaseEndpoint: aws.String(env.AWSEndpoint),
	}
	return &harness{t: t, env: env, emu: emu, aws: cfg}
}

// provider creates a Secret with the test keys and an AWSProvider named name in ns.
func (h *harness) provider(ns, name string) {
	h.t.Helper()
	h.env.Provider(h.t, ns, name, testAccessKey, testSecretKey)
}

// secret creates a Secret with one key in ns.
func (h *harness) secret(ns, name, key, value string) {
	h.t.Helper()
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, StringData: map[string]string{key: value}}
	if err := h.env.Client.Create(context.Background(), s); err != nil {
		h.t.Fatalf("create Secret %s/%s: %v", ns, name, err)
	}
}

// create creates o, failing the test when the API server refuses it.
func (h *harness) create(o client.Object) {
	h.t.Helper()
	if err := h.env.Client.Create(context.Background(), o); err != nil {
		h.t.Fatalf("create %T %s: %v", o, o.GetName(), err)
	}
}

// update applies mutate to the current o and writes it, retrying on conflicts.
func update[O client.Object](h *harness, o O, mutate func(O)) {
	h.t.Helper()
	for i := 0; ; i++ {
		if err := h.env.Client.Get(context.Background(), client.ObjectKeyFromObject(o), o); err != nil {
			h.t.Fatalf("get %s: %v", o.GetName(), err)
		}
		mutate(o)
		err := h.env.Client.Update(context.Background(), o)
		if err == nil {
			return
		}
		if !apierrors.IsConflict(err) || i > 10 {
			h.t.Fatalf("update %s: %v", o.GetName(), err)
		}
	}
}

// waitFor polls o until ok holds, failing the test with o's conditions after timeout.
func waitFor[O shared.Managed](h *harness, o O, timeout time.Duration, what string, ok func(O) bool) O {
	h.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := h.env.Client.Get(context.Background(), types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}, o)
		if err == nil && ok(o) {
			return o
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("%s %s/%s: %s not within %s (get: %v); conditions %+v", o.GetObjectKind().GroupVersionKind().Kind,
				o.GetNamespace(), o.GetName(), what, timeout, err, o.GetManagedStatus().Conditions)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitReady waits until o is Ready for its current generation.
func waitReady[O shared.Managed](h *harness, o O) O {
	h.t.Helper()
	return waitFor(h, o, 30*time.Second, "Ready", func(o O) bool {
		c := meta.FindStatusCondition(o.GetManagedStatus().Conditions, "Ready")
		return c != nil && c.Status == metav1.ConditionTrue && o.GetManagedStatus().ObservedGeneration == o.GetGeneration()
	})
}

// waitCondition waits until o's condition typ has the given status and reason.
func waitCondition[O shared.Managed](h *harness, o O, typ, status, reason string) O {
	h.t.Helper()
	return waitFor(h, o, 30*time.Second, typ+"="+status+"/"+reason, func(o O) bool {
		c := meta.FindStatusCondition(o.GetManagedStatus().Conditions, typ)
		return c != nil && string(c.Status) == status && c.Reason == reason
	})
}

// waitGone waits until o no longer exists in the cluster.
func (h *harness) waitGone(o client.Object) {
	h.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := h.env.Client.Get(context.Background(), client.ObjectKeyFromObject(o), o)
		if apierrors.IsNotFound(err) {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("%s was not released within 30s (get: %v)", o.GetName(), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// delete deletes o and waits until it is gone from the cluster.
func (h *harness) delete(o client.Object) {
	h.t.Helper()
	if err := h.env.Client.Delete(context.Background(), o); err != nil {
		h.t.Fatalf("delete %s: %v", o.GetName(), err)
	}
	h.waitGone(o)
}

// events returns the messages of the events about o with the given reason.
func (h *harness) events(o client.Object, reason string) []string {
	h.t.Helper()
	var list corev1.EventList
	if err := h.env.Client.List(context.Background(), &list, client.InNamespace(o.GetNamespace())); err != nil {
		h.t.Fatalf("list events: %v", err)
	}
	var out []string
	for _, e := range list.Items {
		if e.InvolvedObject.Name == o.GetName() && e.Reason == reason {
			out = append(out, e.Message)
		}
	}
	return out
}

// waitEvent waits for an event about o with the given reason whose message holds text.
func (h *harness) waitEvent(o client.Object, reason, text string) {
	h.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		for _, m := range h.events(o, reason) {
			if strings.Contains(m, text) {
				return
			}
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("no %s event about %s holding %q; got %v", reason, o.GetName(), text, h.events(o, reason))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// calls returns how many calls the emulator answered for service, by operation.
func (h *harness) calls(service string) map[string]int {
	out := map[string]int{}
	for op, outcomes := range h.emu.Calls.Snapshot()[service] {
		for _, n := range outcomes {
			out[op] += n
		}
	}
	return out
}

// total adds up the counts of a calls map.
func total(calls map[string]int) int {
	n := 0
	for _, c := range calls {
		n += c
	}
	return n
}

// seedObjects reads the manifests of ../../examples/data/name (the seed examples, kept
// verbatim) as unstructured objects.
func seedObjects(t testing.TB, name string) []*unstructured.Unstructured {
	t.Helper()
	path := filepath.Join("..", "..", "examples", "data", name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	dec := utilyaml.NewYAMLOrJSONDecoder(f, 4096)
	var out []*unstructured.Unstructured
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err != nil {
			if err.Error() == "EOF" {
				return out
			}
			t.Fatalf("decode %s: %v", path, err)
		}
		if len(u.Object) > 0 {
			out = append(out, u)
		}
	}
}

// applySeed creates every object of a seed example file in namespace ns (objects that name
// their namespace keep it) and returns them.
func (h *harness) applySeed(name, ns string) []*unstructured.Unstructured {
	h.t.Helper()
	objs := seedObjects(h.t, name)
	for _, u := range objs {
		if u.GetNamespace() == "" {
			u.SetNamespace(ns)
		}
		if err := h.env.Client.Create(context.Background(), u); err != nil {
			h.t.Fatalf("apply %s %s from %s: %v", u.GetKind(), u.GetName(), name, err)
		}
	}
	return objs
}

// mustRefuse asserts that the API server refuses o at admission with a message holding text.
func (h *harness) mustRefuse(o client.Object, text string) {
	h.t.Helper()
	err := h.env.Client.Create(context.Background(), o)
	if err == nil {
		_ = h.env.Client.Delete(context.Background(), o)
		h.t.Fatalf("%s was accepted; want a refusal holding %q", o.GetName(), text)
	}
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), text) {
		h.t.Fatalf("%s: want an Invalid error holding %q, got %v", o.GetName(), text, err)
	}
}

// cmpSDK compares SDK structs, ignoring their unexported no-copy fields.
var cmpSDK = cmp.FilterPath(func(p cmp.Path) bool {
	f, ok := p.Last().(cmp.StructField)
	return ok && !token.IsExported(f.Name())
}, cmp.Ignore())

// resync asks the reconciler to look at o again at once, with a merge patch of the resync
// annotation that leaves the spec as the user wrote it.
func (h *harness) resync(o client.Object) {
	h.t.Helper()
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, shared.AnnotationResync, time.Now().Format(time.RFC3339Nano))
	if err := h.env.Client.Patch(context.Background(), o, client.RawPatch(types.MergePatchType, []byte(patch))); err != nil {
		h.t.Fatalf("annotate %s for a resync: %v", o.GetName(), err)
	}
}
