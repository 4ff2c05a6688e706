package security_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/security"
	"github.com/runner-codes/infra-operator/operators/security/acmcertificate"
	"github.com/runner-codes/infra-operator/operators/security/iamrole"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// Test credentials for the emulator; any key is accepted.
const (
	testAccessKey = "AKIDSECURITYTEST"
	testSecretKey = "security-test-secret"
)

// harness is a control plane, an emulated AWS and the security family's controllers.
type harness struct {
	env *testenv.Env
	emu *emulator.Server
	iam *iam.Client
	acm *acm.Client
	c   client.Client
}

// start starts the control plane with the security CRDs, the emulator and the family's
// controllers with short waits; a new role is Ready 1s after its creation instead of 10s, and a
// certificate pending validation is looked at again within a second instead of minutes.
func start(t testing.TB) *harness {
	t.Helper()
	return startWith(t, security.Tunables{
		IAMRole:        iamrole.Tunables{Propagation: time.Second},
		ACMCertificate: acmcertificate.Tunables{RecheckMin: 200 * time.Millisecond, RecheckMax: time.Second},
	}, func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond })
}

// startWith is start with the kinds' timings and the family's options changed by tune (zero
// timings and a tune that changes nothing give the defaults a user has).
func startWith(t testing.TB, timings security.Tunables, tune func(*operator.Options)) *harness {
	t.Helper()
	emu := emulator.New(emulator.Options{})
	env := families.Start(t, emu, tune, security.FamilyWith(timings))
	cfg := env.AWSConfig(testAccessKey, testSecretKey)
	return &harness{env: env, emu: emu, iam: iam.NewFromConfig(cfg), acm: acm.NewFromConfig(cfg), c: env.Client}
}

// provider creates an AWSProvider named name in ns that reaches the emulator.
func (h *harness) provider(t testing.TB, ns, name string) {
	t.Helper()
	h.env.Provider(t, ns, name, testAccessKey, testSecretKey)
}

// apply applies an example file of examples/security into ns (objects naming their namespace
// keep it).
func (h *harness) apply(t testing.TB, file, ns string) []*unstructured.Unstructured {
	t.Helper()
	return kubetest.ApplySeed(t, h.c, seedPath(file), ns)
}

// seedPath returns the path of an example file of examples/security.
func seedPath(file string) string {
	return filepath.Join("..", "..", "examples", "security", file)
}

// patchSpec merge-patches the spec of o with the JSON object spec.
func (h *harness) patchSpec(t testing.TB, o client.Object, spec string) {
	t.Helper()
	if err := h.c.Patch(context.Background(), o, client.RawPatch(k8stypes.MergePatchType, []byte(`{"spec":`+spec+`}`))); err != nil {
		t.Fatalf("patch %s: %v", o.GetName(), err)
	}
}
