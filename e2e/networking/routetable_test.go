package networking_test

import (
	"context"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// awsTable returns route table id as AWS shows it: its routes as "destination target" and the
// subnets associated with it, each sorted.
func (h *harness) awsTable(t testing.TB, id string) (routes, subnets []string) {
	t.Helper()
	out, err := h.ec2.DescribeRouteTables(context.Background(), &ec2.DescribeRouteTablesInput{RouteTableIds: []string{id}})
	if err != nil || len(out.RouteTables) != 1 {
		t.Fatalf("describe route table %s: %v", id, err)
	}
	for _, r := range out.RouteTables[0].Routes {
		target := aws.ToString(r.GatewayId) + aws.ToString(r.NatGatewayId) + aws.ToString(r.VpcPeeringConnectionId)
		routes = append(routes, aws.ToString(r.DestinationCidrBlock)+" "+target)
	}
	for _, a := range out.RouteTables[0].Associations {
		subnets = append(subnets, aws.ToString(a.SubnetId))
	}
	slices.Sort(routes)
	slices.Sort(subnets)
	return routes, subnets
}

// TestRouteTable creates a table with a route to an internet gateway reference and the subnets
// a selector picks, adds a route (only that route is created), follows a subnet's labels,
// deletes a route added outside the operator, and deletes the table (disassociating it first).
func TestRouteTable(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	vpc := h.readyVPC(t, ns, "net", "10.0.0.0/16")
	igw := &v1alpha1.InternetGateway{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "igw"}}
	igw.Spec.ProviderRef.Name, igw.Spec.VPCRef = "aws", &shared.Reference{Name: "net"}
	kubetest.Create(t, h.c, igw)
	subnets := map[string]*v1alpha1.Subnet{}
	for name, cidr := range map[string]string{"a": "10.0.1.0/24", "b": "10.0.2.0/24", "c": "10.0.3.0/24"} {
		s := &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"tier": "public"}}}
		if name == "c" {
			s.Labels["tier"] = "private"
		}
		s.Spec.ProviderRef.Name, s.Spec.VPCRef, s.Spec.CIDRBlock = "aws", &shared.Reference{Name: "net"}, cidr
		kubetest.Create(t, h.c, s)
		subnets[name] = s
	}
	rt := &v1alpha1.RouteTable{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "public"}}
	rt.Spec.ProviderRef.Name, rt.Spec.VPCRef = "aws", &shared.Reference{Name: "net"}
	rt.Spec.Routes = []v1alpha1.Route{{DestinationCIDRBlock: "0.0.0.0/0", InternetGatewayRef: &shared.Reference{Name: "igw"}}}
	rt.Spec.SubnetSelector = &shared.Selector{MatchLabels: map[string]string{"tier": "public"}}
	kubetest.Create(t, h.c, rt)
	rt = kubetest.WaitReady(t, h.c, rt)
	igw = kubetest.WaitReady(t, h.c, igw)
	for _, s := range subnets {
		kubetest.WaitReady(t, h.c, s)
	}
	id, gw := rt.Status.RouteTableID, igw.Status.InternetGatewayID
	routes, assoc := h.awsTable(t, id)
	want := []string{subnets["a"].Status.SubnetID, subnets["b"].Status.SubnetID}
	slices.Sort(want)
	if !slices.Equal(routes, []string{"0.0.0.0/0 " + gw, "10.0.0.0/16 local"}) || !slices.Equal(assoc, want) {
		t.Fatalf("route table in AWS: routes %v, subnets %v (want %v)", routes, assoc, want)
	}
	if rt.Status.VPCID != vpc.Status.VPCID || len(rt.Status.Associations) != 2 || rt.Status.Associations[0].AssociationID == "" {
		t.Errorf("status: %+v", rt.Status)
	}

	t.Run("only the new route is created", func(t *testing.T) {
		// A peering connection to another VPC, made outside the operator and still pending: the
		// route is made, a blackhole until the connection is accepted.
		peer, err := h.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("192.168.0.0/16")})
		if err != nil {
			t.Fatal(err)
		}
		pcx, err := h.ec2.CreateVpcPeeringConnection(ctx, &ec2.CreateVpcPeeringConnectionInput{VpcId: aws.String(vpc.Status.VPCID), PeerVpcId: peer.Vpc.VpcId})
		if err != nil {
			t.Fatal(err)
		}
		h.emu.Calls.Reset()
		kubetest.Update(t, h.c, rt, func(rt *v1alpha1.RouteTable) {
			rt.Spec.Routes = append(rt.Spec.Routes, v1alpha1.Route{DestinationCIDRBlock: "192.168.0.0/16",
				VPCPeeringConnectionID: aws.ToString(pcx.VpcPeeringConnection.VpcPeeringConnectionId)})
		})
		kubetest.WaitReady(t, h.c, rt)
		calls := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")
		if calls["CreateRoute"] != 1 || calls["ReplaceRoute"]+calls["DeleteRoute"]+calls["AssociateRouteTable"]+calls["DisassociateRouteTable"] != 0 {
			t.Errorf("calls for one added route: %v", calls)
		}
	})

	t.Run("a subnet that loses the label is disassociated", func(t *testing.T) {
		kubetest.Update(t, h.c, subnets["b"], func(s *v1alpha1.Subnet) { s.Labels["tier"] = "private" })
		kubetest.WaitFor(t, h.c, rt, kubetest.Timeout, "one association", func(rt *v1alpha1.RouteTable) bool { return len(rt.Status.Associations) == 1 })
		if _, assoc := h.awsTable(t, id); !slices.Equal(assoc, []string{subnets["a"].Status.SubnetID}) {
			t.Errorf("associated subnets in AWS: %v", assoc)
		}
	})

	t.Run("a route added outside the operator is deleted", func(t *testing.T) {
		if _, err := h.ec2.CreateRoute(ctx, &ec2.CreateRouteInput{RouteTableId: aws.String(id), DestinationCidrBlock: aws.String("172.16.0.0/12"), GatewayId: aws.String(gw)}); err != nil {
			t.Fatal(err)
		}
		kubetest.ResyncUntil(t, h.c, rt, "the added route deleted", func() bool { routes, _ := h.awsTable(t, id); return len(routes) == 3 })
		kubetest.WaitEvent(t, h.c, rt, "DriftDetected", "routes")
	})

	t.Run("delete disassociates, then deletes", func(t *testing.T) {
		kubetest.Delete(t, h.c, rt)
		if _, err := h.ec2.DescribeRouteTables(ctx, &ec2.DescribeRouteTablesInput{RouteTableIds: []string{id}}); err == nil {
			t.Errorf("route table %s is still in AWS", id)
		}
	})
}

// TestRouteTableBadInput checks admission's refusals of route tables.
func TestRouteTableBadInput(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	table := func(name string, mutate func(*v1alpha1.RouteTable)) *v1alpha1.RouteTable {
		rt := &v1alpha1.RouteTable{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		rt.Spec.ProviderRef.Name, rt.Spec.VPCID = "aws", "vpc-1"
		rt.Spec.Routes = []v1alpha1.Route{{DestinationCIDRBlock: "0.0.0.0/0", GatewayID: "igw-1"}}
		mutate(rt)
		return rt
	}
	for name, tc := range map[string]struct {
		obj  client.Object
		want string
	}{
		"invalid CIDR": {table("a", func(rt *v1alpha1.RouteTable) { rt.Spec.Routes[0].DestinationCIDRBlock = "0.0.0.0/33" }), "must be an IPv4 CIDR"},
		"two destinations": {table("b", func(rt *v1alpha1.RouteTable) { rt.Spec.Routes[0].DestinationIPv6CIDRBlock = "::/0" }),
			"exactly one of destinationCidrBlock"},
		"two targets": {table("c", func(rt *v1alpha1.RouteTable) { rt.Spec.Routes[0].InternetGatewayRef = &shared.Reference{Name: "igw"} }), "exactly one target"},
		"no target":   {table("d", func(rt *v1alpha1.RouteTable) { rt.Spec.Routes[0].GatewayID = "" }), "exactly one target"},
		"peering id and ref": {table("g", func(rt *v1alpha1.RouteTable) {
			rt.Spec.Routes[0].GatewayID, rt.Spec.Routes[0].VPCPeeringConnectionID = "", "pcx-0123456789abcdef0"
			rt.Spec.Routes[0].VPCPeeringConnectionRef = &shared.Reference{Name: "peering"}
		}), "exactly one target"},
		"both id and ref": {table("e", func(rt *v1alpha1.RouteTable) { rt.Spec.VPCRef = &shared.Reference{Name: "net"} }),
			"exactly one of vpcID and vpcRef"},
		"subnet ids and selector": {table("f", func(rt *v1alpha1.RouteTable) {
			rt.Spec.SubnetIDs, rt.Spec.SubnetSelector = []string{"subnet-1"}, &shared.Selector{MatchLabels: map[string]string{"tier": "public"}}
		}), "at most one of subnetIDs, subnetRefs and subnetSelector"},
	} {
		t.Run(name, func(t *testing.T) { kubetest.MustRefuse(t, h.c, tc.obj, tc.want) })
	}

	t.Run("two routes to one destination are refused by the reconciler", func(t *testing.T) {
		h.provider(t, ns, "aws")
		rt := table("twice", func(rt *v1alpha1.RouteTable) {
			rt.Spec.Routes = append(rt.Spec.Routes, v1alpha1.Route{DestinationCIDRBlock: "0.0.0.0/0", NATGatewayID: "nat-1"})
		})
		kubetest.Create(t, h.c, rt)
		kubetest.WaitCondition(t, h.c, rt, "Stalled", "True", "InvalidSpec")
	})
}
