package networking_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestVPCEndpoint applies the example endpoints on the multi-tier example's VPC and checks them
// in EC2 (the S3 gateway's route in the private route table, the ECR interface endpoint's subnet,
// security group and private DNS), the calls they took, that a steady sync writes nothing, that a
// route table taken off outside the operator is put back, that a policy change is applied, that
// another namespace's endpoint on this namespace's route table (by id) is refused before any
// write, what admission refuses, and deletion (the gateway's route goes with it).
func TestVPCEndpoint(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	ctx := context.Background()
	h.apply(t, "multi-tier-references.yaml", ns)
	rt := kubetest.WaitFor(t, h.c, &v1alpha1.RouteTable{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "private"}}, time.Minute, "Ready",
		func(o *v1alpha1.RouteTable) bool {
			return meta.IsStatusConditionTrue(o.Status.Conditions, condition.TypeReady)
		})
	kubetest.WaitFor(t, h.c, &v1alpha1.SecurityGroup{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web"}}, time.Minute, "Ready",
		func(o *v1alpha1.SecurityGroup) bool {
			return meta.IsStatusConditionTrue(o.Status.Conditions, condition.TypeReady)
		})

	h.emu.Calls.Reset()
	began := time.Now()
	h.apply(t, "vpcendpoint.yaml", ns)
	gw := kubetest.WaitReady(t, h.c, &v1alpha1.VPCEndpoint{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "s3-gateway"}})
	in := kubetest.WaitReady(t, h.c, &v1alpha1.VPCEndpoint{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ecr-api"}})
	calls := endpointCalls(kubetest.Calls(h.emu.Calls.Snapshot(), "EC2"))
	t.Logf("figures: both endpoints Ready %s after apply; VPC endpoint calls to create both %v", time.Since(began).Round(time.Millisecond), calls)
	if calls["CreateVpcEndpoint"] != 2 {
		t.Errorf("CreateVpcEndpoint calls %d, want 2", calls["CreateVpcEndpoint"])
	}
	g := h.endpoint(t, gw.Status.VPCEndpointID)
	if !slices.Equal(g.RouteTableIds, []string{rt.Status.RouteTableID}) || g.VpcEndpointType != types.VpcEndpointTypeGateway {
		t.Errorf("gateway endpoint in EC2: %+v", g)
	}
	if tags := tagMap(g.Tags); tags["Environment"] != "production" || tags[shared.TagOwnerUID] != string(gw.UID) {
		t.Errorf("gateway endpoint tags %v", tags)
	}
	if !h.routesTo(t, rt.Status.RouteTableID, gw.Status.VPCEndpointID) {
		t.Errorf("route table %s has no route through %s", rt.Status.RouteTableID, gw.Status.VPCEndpointID)
	}
	// The RouteTable that owns the private route table leaves the endpoint's route alone.
	h.emu.Calls.Reset()
	kubetest.ResyncUntil(t, h.c, rt, "the route table read again", func() bool {
		return kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")["DescribeRouteTables"] > 0
	})
	time.Sleep(500 * time.Millisecond)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")["DeleteRoute"]; n != 0 || !h.routesTo(t, rt.Status.RouteTableID, gw.Status.VPCEndpointID) {
		t.Errorf("the RouteTable removed the route of VPC endpoint %s (%d DeleteRoute calls)", gw.Status.VPCEndpointID, n)
	}
	i := h.endpoint(t, in.Status.VPCEndpointID)
	if len(i.SubnetIds) != 1 || len(i.Groups) != 1 || !aws.ToBool(i.PrivateDnsEnabled) || len(in.Status.DNSNames) == 0 {
		t.Errorf("interface endpoint in EC2: %+v, status %+v", i, in.Status)
	}

	// A steady sync writes nothing.
	h.emu.Calls.Reset()
	kubetest.Resync(t, h.c, gw)
	kubetest.WaitFor(t, h.c, gw, kubetest.Timeout, "the resync seen", func(*v1alpha1.VPCEndpoint) bool {
		return kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")["DescribeVpcEndpoints"] > 0
	})
	steady := endpointCalls(kubetest.Calls(h.emu.Calls.Snapshot(), "EC2"))
	t.Logf("figures: VPC endpoint calls per steady sync %v", steady)
	if steady["ModifyVpcEndpoint"]+steady["CreateVpcEndpoint"] != 0 {
		t.Errorf("a steady sync wrote: %v", steady)
	}

	// Drift: the route table taken off outside the operator is put back.
	if _, err := h.ec2.ModifyVpcEndpoint(ctx, &ec2.ModifyVpcEndpointInput{VpcEndpointId: aws.String(gw.Status.VPCEndpointID),
		RemoveRouteTableIds: []string{rt.Status.RouteTableID}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, gw, "the route table put back", func() bool {
		return slices.Equal(h.endpoint(t, gw.Status.VPCEndpointID).RouteTableIds, []string{rt.Status.RouteTableID})
	})

	// A policy change is applied; unset, the policy goes back to AWS's full access.
	kubetest.Update(t, h.c, gw, func(o *v1alpha1.VPCEndpoint) { o.Spec.PolicyDocument = "" })
	kubetest.WaitFor(t, h.c, gw, kubetest.Timeout, "the policy reset", func(o *v1alpha1.VPCEndpoint) bool {
		return o.Status.ObservedGeneration == o.Generation && meta.IsStatusConditionTrue(o.Status.Conditions, condition.TypeReady)
	})
	if p := aws.ToString(h.endpoint(t, gw.Status.VPCEndpointID).PolicyDocument); p != "" && !strings.Contains(p, `"Action":"*"`) {
		t.Errorf("policy after the reset: %s", p)
	}

	// Another namespace's endpoint on this namespace's route table, by id, is refused.
	other := h.env.Namespace(t)
	h.provider(t, other, "production-aws")
	h.emu.Calls.Reset()
	hostile := &v1alpha1.VPCEndpoint{ObjectMeta: metav1.ObjectMeta{Namespace: other, Name: "hostile"}}
	hostile.Spec.ProviderRef.Name = "production-aws"
	hostile.Spec.VPCID, hostile.Spec.ServiceName, hostile.Spec.Type = rt.Status.VPCID, "com.amazonaws.us-east-1.dynamodb", "Gateway"
	hostile.Spec.RouteTableIDs = []string{rt.Status.RouteTableID}
	kubetest.Create(t, h.c, hostile)
	kubetest.WaitCondition(t, h.c, hostile, condition.TypeSynced, "False", condition.ReasonForeignWriteNotAllowed)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")["CreateVpcEndpoint"]; n != 0 {
		t.Errorf("a refused endpoint made %d CreateVpcEndpoint calls", n)
	}
	kubetest.Delete(t, h.c, hostile)

	// Admission refuses what EC2 would.
	bad := hostile.DeepCopy()
	bad.ObjectMeta = metav1.ObjectMeta{Namespace: ns, Name: "bad"}
	bad.Spec.ServiceName = "com.amazonaws.us-east-1.ecr.api"
	kubetest.MustRefuse(t, h.c, bad, "gateway endpoints exist for S3 and DynamoDB only")
	kubetest.MustRefuseUpdate(t, h.c, in, func(o *v1alpha1.VPCEndpoint) { o.Spec.Type = "Gateway" }, "type cannot change")

	// Deletion: the gateway endpoint goes, and its route with it.
	kubetest.Delete(t, h.c, gw)
	kubetest.WaitGone(t, h.c, gw)
	if h.routesTo(t, rt.Status.RouteTableID, gw.Status.VPCEndpointID) {
		t.Errorf("route table %s still routes through the deleted endpoint", rt.Status.RouteTableID)
	}
}

// endpointCalls keeps the VPC endpoint calls of an EC2 call count.
func endpointCalls(calls map[string]int) map[string]int {
	out := map[string]int{}
	for op, n := range calls {
		if strings.Contains(op, "VpcEndpoint") {
			out[op] = n
		}
	}
	return out
}

// endpoint describes the VPC endpoint id.
func (h *harness) endpoint(t testing.TB, id string) types.VpcEndpoint {
	t.Helper()
	out, err := h.ec2.DescribeVpcEndpoints(context.Background(), &ec2.DescribeVpcEndpointsInput{VpcEndpointIds: []string{id}})
	if err != nil || len(out.VpcEndpoints) != 1 {
		t.Fatalf("describe VPC endpoint %s: %+v, %v", id, out, err)
	}
	return out.VpcEndpoints[0]
}

// routesTo reports whether route table id has a route through the gateway endpoint vpce.
func (h *harness) routesTo(t testing.TB, id, vpce string) bool {
	t.Helper()
	out, err := h.ec2.DescribeRouteTables(context.Background(), &ec2.DescribeRouteTablesInput{RouteTableIds: []string{id}})
	if err != nil || len(out.RouteTables) != 1 {
		t.Fatalf("describe route table %s: %+v, %v", id, out, err)
	}
	return slices.ContainsFunc(out.RouteTables[0].Routes, func(r types.Route) bool { return aws.ToString(r.GatewayId) == vpce })
}
