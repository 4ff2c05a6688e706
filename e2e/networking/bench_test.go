package networking_test

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// benchSyncPeriod is the sync period of the steady-state benchmark: longer than the listing's
// time to live, as the default (10 minutes) is, so that each sync finds the listing expired.
const benchSyncPeriod = 90 * time.Second

// BenchmarkSteadyStateCalls creates 200 security groups (with a rule each) and 500 subnets in
// five VPCs, waits until all are Ready, and counts the EC2 calls of the next sync period (each
// resource is looked at once in it, the period being jittered by ±10%), per resource. Run it
// with -bench SteadyStateCalls -benchtime 1x; it takes about four minutes.
func BenchmarkSteadyStateCalls(b *testing.B) {
	for range b.N {
		h := startWith(b, testTransitions, func(o *operator.Options) { o.WaitInterval, o.SyncPeriod = 200*time.Millisecond, benchSyncPeriod })
		ns := h.env.Namespace(b)
		h.provider(b, ns, "aws")
		var vpcs []*v1alpha1.VPC
		for i := range 5 {
			vpcs = append(vpcs, h.readyVPC(b, ns, fmt.Sprintf("net-%d", i), fmt.Sprintf("10.%d.0.0/16", i)))
		}
		var objs []*v1alpha1.SecurityGroup
		for i := range 200 {
			g := newGroup(ns, fmt.Sprintf("sg-%03d", i), vpcs[0].Status.VPCID, func(g *v1alpha1.SecurityGroup) {
				g.Spec.GroupName = fmt.Sprintf("group-%03d", i)
				g.Spec.IngressRules = []v1alpha1.SecurityGroupRule{tcp(443, 443, "10.0.0.0/8")}
			})
			kubetest.Create(b, h.c, g)
			objs = append(objs, g)
		}
		var subnets []*v1alpha1.Subnet
		for i := range 500 {
			s := &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("subnet-%03d", i)}}
			s.Spec.ProviderRef.Name, s.Spec.VPCID = "aws", vpcs[i%5].Status.VPCID
			s.Spec.CIDRBlock = fmt.Sprintf("10.%d.%d.0/24", i%5, i/5)
			kubetest.Create(b, h.c, s)
			subnets = append(subnets, s)
		}
		for _, g := range objs {
			kubetest.WaitFor(b, h.c, g, 5*time.Minute, "Ready", func(g *v1alpha1.SecurityGroup) bool {
				return g.Status.ObservedGeneration == g.Generation && g.Status.Ready
			})
		}
		for _, s := range subnets {
			kubetest.WaitFor(b, h.c, s, 5*time.Minute, "Ready", func(s *v1alpha1.Subnet) bool { return s.Status.ObservedGeneration == s.Generation && s.Status.Ready })
		}
		h.emu.Calls.Reset()
		b.ResetTimer()
		time.Sleep(benchSyncPeriod*11/10 + 5*time.Second)
		b.StopTimer()
		calls := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")
		groups := calls["DescribeSecurityGroups"] + calls["AuthorizeSecurityGroupIngress"] + calls["RevokeSecurityGroupIngress"] +
			calls["AuthorizeSecurityGroupEgress"] + calls["RevokeSecurityGroupEgress"]
		subnetCalls := calls["DescribeSubnets"] + calls["ModifySubnetAttribute"]
		b.ReportMetric(float64(groups)/200, "calls/securitygroup/sync")
		b.ReportMetric(float64(subnetCalls)/500, "calls/subnet/sync")
		b.ReportMetric(float64(kubetest.Total(calls))/705, "calls/resource/sync")
		fmt.Printf("steady state, one sync period: %d EC2 calls for 200 security groups, 500 subnets and 5 VPCs (%.3f per resource): %v\n",
			kubetest.Total(calls), float64(kubetest.Total(calls))/705, calls)
	}
}

// BenchmarkMultiTierTimeToReady applies the multi-tier example with references at once, with the
// emulator's default lifecycle durations and the operator's default options (a resource AWS is
// still creating is looked at again every 5s), and reports the time until every object is
// Ready, and the EC2 and ELBv2 calls it took.
func BenchmarkMultiTierTimeToReady(b *testing.B) {
	for range b.N {
		h := startWith(b, nil, func(*operator.Options) {})
		ns := h.env.Namespace(b)
		h.provider(b, ns, "production-aws")
		objs := kubetest.SeedObjects(b, "../../examples/networking/multi-tier-references.yaml")
		began := time.Now()
		for _, u := range objs {
			u.SetNamespace(ns)
			kubetest.Create(b, h.c, u)
		}
		for _, u := range objs {
			kubetest.WaitFor(b, h.c, h.managedOf(b, u), 5*time.Minute, "Ready", func(o shared.Managed) bool {
				return o.GetManagedStatus().Ready && o.GetManagedStatus().ObservedGeneration == o.GetGeneration()
			})
		}
		elapsed := time.Since(began)
		snapshot := h.emu.Calls.Snapshot()
		calls, lbCalls := kubetest.Total(kubetest.Calls(snapshot, "EC2")), kubetest.Total(kubetest.Calls(snapshot, "ELBv2"))
		b.ReportMetric(elapsed.Seconds(), "s-to-ready")
		b.ReportMetric(float64(calls), "ec2-calls")
		b.ReportMetric(float64(lbCalls), "elbv2-calls")
		b.Logf("multi-tier example (%d objects): every one Ready after %s, %d EC2 calls, %d ELBv2 calls", len(objs), elapsed.Round(100*time.Millisecond), calls, lbCalls)
	}
}

// BenchmarkSeedExamples applies the networking family's examples of the kinds the other
// benchmarks leave out, one after the other, with the emulator's default lifecycle durations and
// the operator's default options, and reports for each the AWS calls it took to create, the time
// from apply to Ready, and the AWS calls of one sync at steady state. Run it with
// -benchtime=1x: every example is created once.
func BenchmarkSeedExamples(b *testing.B) {
	h := startWith(b, nil, func(*operator.Options) {})
	h.provider(b, "default", "production-aws")
	for _, tc := range []struct {
		file    string
		obj     shared.Managed
		service string
	}{
		{"elasticip.yaml", &v1alpha1.ElasticIP{ObjectMeta: seedMeta("production-eip")}, "EC2"},
		// The ALB with its listener rules and its instance target (the NLB is made alongside;
		// the figures are the ALB's, which waits for its EC2Instance).
		{"load-balancers.yaml", &v1alpha1.ALB{ObjectMeta: seedMeta("storefront")}, "ELBv2"},
		// The endpoints' VPC, subnets, route tables and security group (their figures are the
		// multi-tier benchmark's), then the endpoints.
		{"multi-tier-references.yaml", &v1alpha1.RouteTable{ObjectMeta: seedMeta("private")}, "EC2"},
		{"vpcendpoint.yaml", &v1alpha1.VPCEndpoint{ObjectMeta: seedMeta("ecr-api")}, "EC2"},
		{"route53.yaml", &v1alpha1.Route53RecordSet{ObjectMeta: seedMeta("shop-api-canary")}, "Route53"},
		// Two VPCs, the connection between them (accepted by the operator) and a route table on
		// each side through it; the figures are the connection's.
		{"vpcpeering.yaml", &v1alpha1.VPCPeeringConnection{ObjectMeta: seedMeta("orders-to-billing")}, "EC2"},
	} {
		b.Run(tc.file, func(b *testing.B) {
			if b.N > 1 {
				b.Skip("each example is created once; run with -benchtime=1x")
			}
			h.emu.Calls.Reset()
			began := time.Now()
			h.apply(b, tc.file, "default")
			o := kubetest.WaitReady(b, h.c, tc.obj)
			kubetest.SeedFigures(b, h.c, o, began, func() map[string]int { return kubetest.Calls(h.emu.Calls.Snapshot(), tc.service) }, h.emu.Calls.Reset)
		})
	}
}

// seedMeta returns the metadata naming the example object name in the namespace default.
func seedMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: "default", Name: name}
}

// managedOf returns an empty typed object of u's kind with u's namespace and name.
func (h *harness) managedOf(t testing.TB, u *unstructured.Unstructured) shared.Managed {
	t.Helper()
	o, err := h.env.Scheme.New(u.GroupVersionKind())
	if err != nil {
		t.Fatalf("%s: %v", u.GetKind(), err)
	}
	m := o.(shared.Managed)
	m.SetNamespace(u.GetNamespace())
	m.SetName(u.GetName())
	return m
}
