package containers_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/compute"
	"github.com/runner-codes/infra-operator/operators/containers"
	"github.com/runner-codes/infra-operator/operators/networking"
	"github.com/runner-codes/infra-operator/operators/security"
	"github.com/runner-codes/infra-operator/operators/security/iamrole"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// Test credentials for the emulator; any key is accepted.
const (
	testAccessKey = "AKIDCONTAINERSTEST"
	testSecretKey = "containers-test-secret"
)

// harness is a control plane, an emulated AWS and the containers family's controllers with the
// security family (the KMSKeys a repository's encryption may name, the roles and secrets of task
// definitions) and the networking family (the subnets, security groups and load balancers of
// services).
type harness struct {
	env *testenv.Env
	emu *emulator.Server
	ecr *ecr.Client
	ecs *ecs.Client
	c   client.Client
}

// start starts the harness with short waits: the operator looks again every 200ms, an ECS
// service's tasks change state 300ms after a change, and an IAM role is taken as propagated
// after a second.
func start(t testing.TB) *harness {
	t.Helper()
	return startWith(t, emulator.Options{Transitions: ecsTransitions},
		func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond })
}

// startWith starts the harness with the emulator's options and the family's options changed by
// tune (empty options and a tune that changes nothing give the defaults a user has).
func startWith(t testing.TB, opts emulator.Options, tune func(*operator.Options)) *harness {
	t.Helper()
	emu := emulator.New(opts)
	// The compute family: the load balancer example's target instance.
	env := families.Start(t, emu, tune, containers.Family(), networking.Family(), compute.Family(),
		security.FamilyWith(security.Tunables{IAMRole: iamrole.Tunables{Propagation: time.Second}}))
	cfg := env.AWSConfig(testAccessKey, testSecretKey)
	return &harness{env: env, emu: emu, ecr: ecr.NewFromConfig(cfg), ecs: ecs.NewFromConfig(cfg), c: env.Client}
}

// provider creates an AWSProvider named name in ns that reaches the emulator.
func (h *harness) provider(t testing.TB, ns, name string) {
	t.Helper()
	h.env.Provider(t, ns, name, testAccessKey, testSecretKey)
}

// apply applies an example file of examples/containers into ns (objects naming their namespace
// keep it); a file of another family's examples is named by its directory, for example
// "../networking/load-balancers.yaml".
func (h *harness) apply(t testing.TB, file, ns string) []*unstructured.Unstructured {
	t.Helper()
	return kubetest.ApplySeed(t, h.c, filepath.Join("..", "..", "examples", "containers", file), ns)
}

// patchSpec merge-patches the spec of o with the JSON object spec.
func (h *harness) patchSpec(t testing.TB, o client.Object, spec string) {
	t.Helper()
	if err := h.c.Patch(context.Background(), o, rawSpec(spec)); err != nil {
		t.Fatalf("patch %s: %v", o.GetName(), err)
	}
}

// awsCalls returns how many calls of service the emulator answered since its counters were
// last reset.
func (h *harness) awsCalls(service string) int {
	return kubetest.Total(kubetest.Calls(h.emu.Calls.Snapshot(), service))
}

// keyOf returns o's namespace and name.
func keyOf(o client.Object) client.ObjectKey { return client.ObjectKeyFromObject(o) }

// findCondition returns o's condition of type typ, or an empty one.
func findCondition(o shared.Managed, typ string) metav1.Condition {
	if c := meta.FindStatusCondition(o.GetManagedStatus().Conditions, typ); c != nil {
		return *c
	}
	return metav1.Condition{}
}

// rawSpec returns a merge patch of the spec with the JSON object spec.
func rawSpec(spec string) client.Patch {
	return client.RawPatch(k8stypes.MergePatchType, []byte(`{"spec":`+spec+`}`))
}

// isReady reports whether o's Ready condition is True.
func isReady(o shared.Managed) bool {
	return meta.IsStatusConditionTrue(o.GetManagedStatus().Conditions, "Ready")
}
