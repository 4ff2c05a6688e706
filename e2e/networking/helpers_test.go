package networking_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/ec2"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/compute"
	"github.com/runner-codes/infra-operator/operators/networking"
	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/security"
	"github.com/runner-codes/infra-operator/operators/security/acmcertificate"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// Test credentials for the emulator; any key is accepted.
const (
	testAccessKey = "AKIDNETWORKTEST"
	testSecretKey = "networking-test-secret"
)

// testTransitions are the emulator's lifecycle durations in tests: short, so tests see every
// state without waiting.
var testTransitions = map[string]time.Duration{"EC2": 300 * time.Millisecond, "ELBv2": 300 * time.Millisecond}

// harness is a control plane, an emulated AWS, the networking family's controllers and the
// security family's, whose ACM certificates load balancer listeners refer to (a certificate
// pending validation is looked at again within a second, not minutes).
type harness struct {
	env *testenv.Env
	emu *emulator.Server
	ec2 *ec2.Client
	elb *elb.Client
	c   client.Client
}

// start starts the control plane with the networking and security CRDs, the emulator
// (lifecycles of 300ms) and both families' controllers with short waits.
func start(t testing.TB) *harness {
	t.Helper()
	return startWith(t, testTransitions, func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond })
}

// startWith is start with the family's options changed by tune after the short waits are set.
func startWith(t testing.TB, transitions map[string]time.Duration, tune func(*operator.Options)) *harness {
	t.Helper()
	emu := emulator.New(emulator.Options{Transitions: transitions})
	// The compute family: the load balancer example's target instance, Lambda targets.
	env := families.Start(t, emu, tune, networking.Family(), compute.Family(),
		security.FamilyWith(security.Tunables{ACMCertificate: acmcertificate.Tunables{RecheckMin: 200 * time.Millisecond, RecheckMax: time.Second}}))
	cfg := env.AWSConfig(testAccessKey, testSecretKey)
	return &harness{env: env, emu: emu, ec2: ec2.NewFromConfig(cfg), elb: elb.NewFromConfig(cfg), c: env.Client}
}

// provider creates an AWSProvider named name in ns that reaches the emulator.
func (h *harness) provider(t testing.TB, ns, name string) {
	t.Helper()
	h.env.Provider(t, ns, name, testAccessKey, testSecretKey)
}

// apply applies an example file of examples/networking into ns (objects naming their
// namespace keep it).
func (h *harness) apply(t testing.TB, file, ns string) []*unstructured.Unstructured {
	t.Helper()
	return kubetest.ApplySeed(t, h.c, filepath.Join("..", "..", "examples", "networking", file), ns)
}

// patchSpec merge-patches the spec of o with the JSON object spec.
func (h *harness) patchSpec(t testing.TB, o client.Object, spec string) {
	t.Helper()
	if err := h.c.Patch(context.Background(), o, client.RawPatch(types.MergePatchType, []byte(`{"spec":`+spec+`}`))); err != nil {
		t.Fatalf("patch %s: %v", o.GetName(), err)
	}
}

// readyVPC creates a VPC named name in ns with the provider "aws" and waits until it is Ready.
func (h *harness) readyVPC(t testing.TB, ns, name, cidr string) *v1alpha1.VPC {
	t.Helper()
	v := &v1alpha1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	v.Spec.ProviderRef.Name, v.Spec.CIDRBlock = "aws", cidr
	kubetest.Create(t, h.c, v)
	return kubetest.WaitReady(t, h.c, v)
}
