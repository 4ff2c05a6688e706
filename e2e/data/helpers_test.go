package data_test

import (
	"context"
	"go/token"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/data"
	"github.com/runner-codes/infra-operator/operators/networking"
	"github.com/runner-codes/infra-operator/operators/security"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// Test credentials for the emulator; any key is accepted and belongs to the default account,
// except otherAccessKey, which belongs to another account.
const (
	testAccessKey  = "AKIDDATATEST"
	testSecretKey  = "data-test-secret"
	otherAccessKey = "AKIDOTHERACCOUNT"
)

// harness is a control plane, an emulated AWS and the data family's controllers (with the
// security family's, for KMSKeys, when started by startWithKeys, and the networking family's,
// for Subnets and SecurityGroups, when started by startWithNetwork).
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
	return startWith(t, testTransitions, shortWaits)
}

// startWithKeys is start with the security family too, whose KMSKeys the kmsKeyRef fields
// name.
func startWithKeys(t testing.TB) *harness {
	t.Helper()
	return launch(t, testTransitions, shortWaits, security.Family())
}

// startWithNetwork is start with the networking family too, whose Subnets and SecurityGroups
// an RDSInstance's subnetRefs and securityGroupRefs name.
func startWithNetwork(t testing.TB) *harness {
	t.Helper()
	return launch(t, testTransitions, shortWaits, networking.Family())
}

// testTransitions are the emulator's lifecycle durations in tests.
var testTransitions = map[string]time.Duration{"DynamoDB": 300 * time.Millisecond, "RDS": 300 * time.Millisecond}

// shortWaits is the operator's options of tests: short waits, so that tests do not sleep for
// the production intervals.
func shortWaits(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond }

// startWith starts the harness with the emulator's lifecycle durations and the operator's
// options as given; nil transitions keep the emulator's defaults.
func startWith(t testing.TB, transitions map[string]time.Duration, tune func(*operator.Options)) *harness {
	t.Helper()
	return launch(t, transitions, tune)
}

// launch is startWith, with the CRDs and controllers of the other families given as well.
func launch(t testing.TB, transitions map[string]time.Duration, tune func(*operator.Options), others ...operator.Family) *harness {
	t.Helper()
	emu := emulator.New(emulator.Options{Transitions: transitions, Accounts: map[string]string{otherAccessKey: "222222222222"}})
	env := families.Start(t, emu, tune, append([]operator.Family{data.Family()}, others...)...)
	cfg := env.AWSConfig(testAccessKey, testSecretKey)
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
	kubetest.Create(h.t, h.env.Client, o)
}

// update applies mutate to the current o and writes it, retrying on conflicts.
func update[O client.Object](h *harness, o O, mutate func(O)) {
	h.t.Helper()
	kubetest.Update(h.t, h.env.Client, o, mutate)
}

// waitFor polls o until ok holds, failing the test with o's conditions after timeout.
func waitFor[O shared.Managed](h *harness, o O, timeout time.Duration, what string, ok func(O) bool) O {
	h.t.Helper()
	return kubetest.WaitFor(h.t, h.env.Client, o, timeout, what, ok)
}

// waitReady waits until o is Ready for its current generation.
func waitReady[O shared.Managed](h *harness, o O) O {
	h.t.Helper()
	return kubetest.WaitReady(h.t, h.env.Client, o)
}

// waitCondition waits until o's condition typ has the given status and reason.
func waitCondition[O shared.Managed](h *harness, o O, typ, status, reason string) O {
	h.t.Helper()
	return kubetest.WaitCondition(h.t, h.env.Client, o, typ, status, reason)
}

// waitGone waits until o no longer exists in the cluster.
func (h *harness) waitGone(o client.Object) {
	h.t.Helper()
	kubetest.WaitGone(h.t, h.env.Client, o)
}

// delete deletes o and waits until it is gone from the cluster.
func (h *harness) delete(o client.Object) {
	h.t.Helper()
	kubetest.Delete(h.t, h.env.Client, o)
}

// events returns the messages of the events about o with the given reason.
func (h *harness) events(o client.Object, reason string) []string {
	h.t.Helper()
	return kubetest.Events(h.t, h.env.Client, o, reason)
}

// waitEvent waits for an event about o with the given reason whose message holds text.
func (h *harness) waitEvent(o client.Object, reason, text string) {
	h.t.Helper()
	kubetest.WaitEvent(h.t, h.env.Client, o, reason, text)
}

// calls returns how many calls the emulator answered for service, by operation.
func (h *harness) calls(service string) map[string]int {
	return kubetest.Calls(h.emu.Calls.Snapshot(), service)
}

// total adds up the counts of a calls map.
func total(calls map[string]int) int { return kubetest.Total(calls) }

// seedObjects reads the manifests of ../../examples/data/name (the seed examples, kept
// verbatim) as unstructured objects.
func seedObjects(t testing.TB, name string) []*unstructured.Unstructured {
	t.Helper()
	return kubetest.SeedObjects(t, filepath.Join("..", "..", "examples", "data", name))
}

// applySeed creates every object of a seed example file in namespace ns (objects that name
// their namespace keep it) and returns them.
func (h *harness) applySeed(name, ns string) []*unstructured.Unstructured {
	h.t.Helper()
	return kubetest.ApplySeed(h.t, h.env.Client, filepath.Join("..", "..", "examples", "data", name), ns)
}

// mustRefuse asserts that the API server refuses o at admission with a message holding text.
func (h *harness) mustRefuse(o client.Object, text string) {
	h.t.Helper()
	kubetest.MustRefuse(h.t, h.env.Client, o, text)
}

// cmpSDK compares SDK structs, ignoring their unexported no-copy fields.
var cmpSDK = cmp.FilterPath(func(p cmp.Path) bool {
	f, ok := p.Last().(cmp.StructField)
	return ok && !token.IsExported(f.Name())
}, cmp.Ignore())

// resync asks the reconciler to look at o again at once, leaving the spec as the user wrote
// it.
func (h *harness) resync(o client.Object) {
	h.t.Helper()
	kubetest.Resync(h.t, h.env.Client, o)
}
