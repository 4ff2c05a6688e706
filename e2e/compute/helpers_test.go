package compute_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/compute"
	"github.com/runner-codes/infra-operator/operators/networking"
	"github.com/runner-codes/infra-operator/operators/security"
	"github.com/runner-codes/infra-operator/operators/security/iamrole"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/awsfixture"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// Test credentials for the emulator; any key is accepted.
const (
	testAccessKey = "AKIDCOMPUTETEST"
	testSecretKey = "compute-test-secret"
	// seedAccount is the account of the seed examples' ARNs (arn:aws:iam::123456789012:...).
	seedAccount = "123456789012"
)

// testTransitions are the emulator's lifecycle durations in tests: short, so tests see every
// state without waiting.
var testTransitions = map[string]time.Duration{"EC2": 300 * time.Millisecond, "EKS": 300 * time.Millisecond}

// harness is a control plane, an emulated AWS, the compute family's controllers, the networking
// family's, whose subnets and security groups instances refer to, and the security family's,
// whose IAM roles functions refer to (a new role is Ready 1s after its creation, not 10s).
type harness struct {
	env    *testenv.Env
	emu    *emulator.Server
	ec2    *ec2.Client
	lambda *lambda.Client
	s3     *s3.Client
	c      client.Client
}

// start starts the control plane with the compute, networking and security CRDs, the emulator (lifecycles
// of 300ms) and both families' controllers with short waits.
func start(t testing.TB) *harness {
	t.Helper()
	return startWith(t, testTransitions, func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond })
}

// startWith is start with the emulator's lifecycle durations and the families' options changed
// by tune (nil transitions and a tune that changes nothing give the defaults a user has).
func startWith(t testing.TB, transitions map[string]time.Duration, tune func(*operator.Options)) *harness {
	t.Helper()
	// The test key belongs to the account the seed examples' role ARNs name, so that the roles
	// they pass are of the provider's account, as the open default of --passable-roles wants.
	emu := emulator.New(emulator.Options{Transitions: transitions, Accounts: map[string]string{testAccessKey: seedAccount}})
	env := families.Start(t, emu, tune, compute.Family(), networking.Family(),
		security.FamilyWith(security.Tunables{IAMRole: iamrole.Tunables{Propagation: time.Second}}))
	cfg := env.AWSConfig(testAccessKey, testSecretKey)
	return &harness{env: env, emu: emu, ec2: ec2.NewFromConfig(cfg), lambda: lambda.NewFromConfig(cfg),
		s3: s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true }), c: env.Client}
}

// provider creates an AWSProvider named name in ns that reaches the emulator.
func (h *harness) provider(t testing.TB, ns, name string) {
	t.Helper()
	h.env.Provider(t, ns, name, testAccessKey, testSecretKey)
}

// apply applies an example file of examples/compute into ns (objects naming their namespace
// keep it).
func (h *harness) apply(t testing.TB, file, ns string) []*unstructured.Unstructured {
	t.Helper()
	return kubetest.ApplySeed(t, h.c, seedPath(file), ns)
}

// seedPath returns the path of an example file of examples/compute.
func seedPath(file string) string {
	return filepath.Join("..", "..", "examples", "compute", file)
}

// patchSpec merge-patches the spec of o with the JSON object spec.
func (h *harness) patchSpec(t testing.TB, o client.Object, spec string) {
	t.Helper()
	if err := h.c.Patch(context.Background(), o, client.RawPatch(k8stypes.MergePatchType, []byte(`{"spec":`+spec+`}`))); err != nil {
		t.Fatalf("patch %s: %v", o.GetName(), err)
	}
}

// network makes, through EC2, a VPC with a subnet and a security group, as made outside the
// cluster, and returns their ids.
func (h *harness) network(t testing.TB, cidr, subnetCIDR string) (subnet, group string) {
	t.Helper()
	return awsfixture.Network(t, h.ec2, cidr, subnetCIDR)
}

// instance reads instance id from EC2.
func (h *harness) instance(t testing.TB, id string) types.Instance {
	t.Helper()
	out, err := h.ec2.DescribeInstances(context.Background(), &ec2.DescribeInstancesInput{InstanceIds: []string{id}})
	if err != nil || len(out.Reservations) == 0 {
		t.Fatalf("describe instance %s: %v", id, err)
	}
	return out.Reservations[0].Instances[0]
}

// attribute reads one attribute of instance id from EC2.
func (h *harness) attribute(t testing.TB, id string, name types.InstanceAttributeName) *ec2.DescribeInstanceAttributeOutput {
	t.Helper()
	out, err := h.ec2.DescribeInstanceAttribute(context.Background(), &ec2.DescribeInstanceAttributeInput{InstanceId: aws.String(id), Attribute: name})
	if err != nil {
		t.Fatalf("describe %s of instance %s: %v", name, id, err)
	}
	return out
}

// tagMap returns an EC2 tag list as a map.
func tagMap(tags []types.Tag) map[string]string {
	out := map[string]string{}
	for _, t := range tags {
		out[aws.ToString(t.Key)] = aws.ToString(t.Value)
	}
	return out
}
