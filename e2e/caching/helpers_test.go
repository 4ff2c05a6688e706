package caching_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/caching"
	"github.com/runner-codes/infra-operator/operators/networking"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/awsfixture"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// Test credentials for the emulator; any key is accepted.
const (
	testAccessKey = "AKIDCACHINGTEST"
	testSecretKey = "caching-test-secret"
)

// harness is a control plane, an emulated AWS, the caching family's controllers and the
// networking family's, whose subnets and security groups clusters refer to.
type harness struct {
	env *testenv.Env
	emu *emulator.Server
	ec  *elasticache.Client
	ec2 *ec2.Client
	c   client.Client
}

// start starts the harness with short waits: ElastiCache's lifecycles take 300ms, and objects
// waiting for AWS are looked at again every 200ms.
func start(t testing.TB) *harness {
	t.Helper()
	return startWith(t, emulator.Options{Transitions: map[string]time.Duration{"ElastiCache": 300 * time.Millisecond, "EC2": 300 * time.Millisecond}},
		func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond })
}

// startWith starts the harness with the emulator's options and the families' options changed
// by tune (empty options and a tune that changes nothing give the defaults a user has).
func startWith(t testing.TB, opts emulator.Options, tune func(*operator.Options)) *harness {
	t.Helper()
	emu := emulator.New(opts)
	env := families.Start(t, emu, tune, caching.Family(), networking.Family())
	cfg := env.AWSConfig(testAccessKey, testSecretKey)
	return &harness{env: env, emu: emu, ec: elasticache.NewFromConfig(cfg), ec2: ec2.NewFromConfig(cfg), c: env.Client}
}

// provider creates an AWSProvider named name in ns that reaches the emulator.
func (h *harness) provider(t testing.TB, ns, name string) {
	t.Helper()
	h.env.Provider(t, ns, name, testAccessKey, testSecretKey)
}

// applySwapped applies an example file of examples/caching into ns (objects naming their
// namespace keep it), with the
// spec fields of set (placeholders swapped for real ids) put into each object before it is
// created, so that the operator never sees the placeholders.
func (h *harness) applySwapped(t testing.TB, file, ns string, set map[string]any) []*unstructured.Unstructured {
	t.Helper()
	objs := kubetest.SeedObjects(t, seedPath(file))
	h.createSwapped(t, objs, ns, set)
	return objs
}

// createSwapped creates objs as applySwapped does.
func (h *harness) createSwapped(t testing.TB, objs []*unstructured.Unstructured, ns string, set map[string]any) {
	t.Helper()
	for _, u := range objs {
		if u.GetNamespace() == "" {
			u.SetNamespace(ns)
		}
		for field, v := range set {
			if err := unstructured.SetNestedField(u.Object, v, "spec", field); err != nil {
				t.Fatal(err)
			}
		}
		kubetest.Create(t, h.c, u)
	}
}

// applyKind applies, as applySwapped does, only the objects of an example file whose kind is
// that of like.
func (h *harness) applyKind(t testing.TB, file, ns string, like client.Object, set map[string]any) {
	t.Helper()
	gvk, err := apiutil.GVKForObject(like, h.c.Scheme())
	if err != nil {
		t.Fatal(err)
	}
	objs := kubetest.SeedObjects(t, seedPath(file))
	h.createSwapped(t, slices.DeleteFunc(objs, func(u *unstructured.Unstructured) bool { return u.GetKind() != gvk.Kind }), ns, set)
}

// seedPath returns the path of an example file of examples/caching.
func seedPath(file string) string {
	return filepath.Join("..", "..", "examples", "caching", file)
}

// network makes, through EC2, a VPC with a subnet and a security group, as made outside the
// cluster, and returns their ids.
func (h *harness) network(t testing.TB, cidr, subnetCIDR string) (subnet, group string) {
	t.Helper()
	return awsfixture.Network(t, h.ec2, cidr, subnetCIDR)
}

// subnetGroup makes, through ElastiCache, a cache subnet group of subnet named name, as a user
// of the seed example has one.
func (h *harness) subnetGroup(t testing.TB, name, subnet string) {
	t.Helper()
	if _, err := h.ec.CreateCacheSubnetGroup(context.Background(), &elasticache.CreateCacheSubnetGroupInput{CacheSubnetGroupName: aws.String(name),
		CacheSubnetGroupDescription: aws.String("made outside the cluster"), SubnetIds: []string{subnet}}); err != nil {
		t.Fatalf("create cache subnet group %s: %v", name, err)
	}
}

// calls returns the ElastiCache calls the emulator counted since its counters were last reset,
// by operation.
func (h *harness) calls() map[string]int {
	return kubetest.Calls(h.emu.Calls.Snapshot(), "ElastiCache")
}

// isReady reports whether o's Ready condition is True.
func isReady(o shared.Managed) bool {
	return meta.IsStatusConditionTrue(o.GetManagedStatus().Conditions, "Ready")
}
