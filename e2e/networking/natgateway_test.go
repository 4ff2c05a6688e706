package networking_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/natgateway"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestNATGatewaySeedExamples applies the seed's NAT gateway examples verbatim; their
// placeholder subnet ids are accepted at admission, and once real ids of public subnets (in a
// VPC with an internet gateway attached) are put there, each gateway becomes available with an
// Elastic IP the operator allocated, which it releases after the gateway is deleted.
func TestNATGatewaySeedExamples(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")

	subnetID := h.natNetwork(t, "default", "seed", "10.0.1.0/24", "us-east-1a", true)
	for _, u := range h.apply(t, "natgateway-public.yaml", "default") {
		h.patchSpec(t, u, `{"subnetID":"`+subnetID+`"}`)
	}
	nat := kubetest.WaitReady(t, h.c, &v1alpha1.NATGateway{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "production-nat-1a"}})
	if nat.Status.State != "available" || nat.Status.SubnetID != subnetID || nat.Status.PublicIP == "" || nat.Status.PrivateIP == "" {
		t.Errorf("NAT gateway status: %+v", nat.Status)
	}
	gw := h.natState(t, nat.Status.NATGatewayID)
	if tags := tagMap(gw.Tags); tags["Name"] != "production-nat-gateway" || tags["Environment"] != "production" || tags[shared.TagOwnerUID] != string(nat.UID) {
		t.Errorf("NAT gateway tags: %v", tags)
	}
	addr := h.eipState(t, nat.Status.AllocationID)
	if tags := tagMap(addr.Tags); tags[natgateway.TagAllocatedFor] != string(nat.UID) || tags[shared.TagOwnerKind] != "NATGateway" {
		t.Errorf("the allocated Elastic IP's tags: %v", tags)
	}
	if aws.ToString(addr.PublicIp) != nat.Status.PublicIP {
		t.Errorf("the gateway's public IP %s is not its Elastic IP's %s", nat.Status.PublicIP, aws.ToString(addr.PublicIp))
	}

	// The multi-AZ example, in a namespace of its own, with a public subnet in each zone.
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	subnets := map[string]string{
		"nat-gateway-1a": h.natNetwork(t, ns, "multi", "10.0.1.0/24", "us-east-1a", true),
	}
	subnets["nat-gateway-1b"] = h.natSubnet(t, ns, "public-1b", "multi", "10.0.2.0/24", "us-east-1b")
	for _, u := range h.apply(t, "natgateway-multi-az.yaml", ns) {
		h.patchSpec(t, u, `{"subnetID":"`+subnets[u.GetName()]+`"}`)
	}
	ips := map[string]bool{}
	for name, subnetID := range subnets {
		g := kubetest.WaitReady(t, h.c, &v1alpha1.NATGateway{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}})
		if g.Status.SubnetID != subnetID {
			t.Errorf("%s is in %s, want %s", name, g.Status.SubnetID, subnetID)
		}
		ips[g.Status.PublicIP] = true
	}
	if len(ips) != 2 {
		t.Errorf("the two gateways share an address: %v", ips)
	}

	kubetest.Delete(t, h.c, nat)
	if gw := h.natState(t, nat.Status.NATGatewayID); gw.State != types.NatGatewayStateDeleted {
		t.Errorf("the gateway is %s after its object went, want deleted", gw.State)
	}
	h.wantNoAddress(t, nat.Status.AllocationID)
}

// TestNATGatewayAddresses uses an ElasticIP given by allocationRef (kept when the gateway goes,
// and released only once the gateway no longer holds it) and a private gateway, which has no
// address and needs no internet gateway.
func TestNATGatewayAddresses(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	subnetID := h.natNetwork(t, ns, "net", "10.0.1.0/24", "us-east-1a", true)

	eip := &v1alpha1.ElasticIP{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "nat-address"}}
	eip.Spec.ProviderRef.Name = "aws"
	nat := h.newNAT(ns, "with-eip", subnetID, func(g *v1alpha1.NATGateway) { g.Spec.AllocationRef = &shared.Reference{Name: "nat-address"} })
	kubetest.Create(t, h.c, nat)
	kubetest.WaitCondition(t, h.c, nat, "Ready", "False", "ReferenceNotFound")
	kubetest.Create(t, h.c, eip)
	eip = kubetest.WaitReady(t, h.c, eip)
	nat = kubetest.WaitReady(t, h.c, nat)
	if nat.Status.AllocationID != eip.Status.AllocationID || nat.Status.PublicIP != eip.Status.PublicIP {
		t.Errorf("the gateway has %s (%s), want the ElasticIP's %s (%s)", nat.Status.AllocationID, nat.Status.PublicIP, eip.Status.AllocationID, eip.Status.PublicIP)
	}
	if n := h.allocatedAddresses(t, nat); n != 0 {
		t.Errorf("the operator allocated %d addresses for a gateway that was given one", n)
	}

	// The address cannot go while the gateway holds it; it waits and says why.
	if err := h.c.Delete(context.Background(), eip); err != nil {
		t.Fatal(err)
	}
	got := kubetest.WaitCondition(t, h.c, eip, "Synced", "False", "DependencyViolation")
	if msg := findCondition(got.Status.Conditions, "Synced").Message; !strings.Contains(msg, "InvalidIPAddress.InUse") {
		t.Errorf("the waiting condition does not say why: %q", msg)
	}
	kubetest.Delete(t, h.c, nat)
	kubetest.WaitGone(t, h.c, eip)
	h.wantNoAddress(t, eip.Status.AllocationID)

	// A private gateway: no Elastic IP, no internet gateway needed, and its type is fixed.
	privSubnet := h.natSubnet(t, ns, "private", "net", "10.0.2.0/24", "us-east-1a")
	priv := h.newNAT(ns, "private", privSubnet, func(g *v1alpha1.NATGateway) { g.Spec.ConnectivityType = "private" })
	kubetest.Create(t, h.c, priv)
	priv = kubetest.WaitReady(t, h.c, priv)
	if priv.Status.PublicIP != "" || priv.Status.AllocationID != "" || priv.Status.PrivateIP == "" {
		t.Errorf("private gateway status: %+v", priv.Status)
	}
	if err := h.c.Patch(context.Background(), priv, client.RawPatch(k8stypes.MergePatchType, []byte(`{"spec":{"connectivityType":"public"}}`))); err == nil ||
		!strings.Contains(err.Error(), "connectivityType cannot change") {
		t.Errorf("changing the connectivity type of an existing gateway: %v", err)
	}
}

// TestNATGatewayCrashSafety checks that a gateway whose recorded id is lost is found again
// rather than created twice, that a repeated create with the gateway's client token answers
// the same gateway, and that a gateway deleted outside the operator is replaced (with a new
// token) on the same Elastic IP.
func TestNATGatewayCrashSafety(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	subnetID := h.natNetwork(t, ns, "net", "10.0.1.0/24", "us-east-1a", true)
	nat := h.newNAT(ns, "nat", subnetID, nil)
	kubetest.Create(t, h.c, nat)
	nat = kubetest.WaitReady(t, h.c, nat)
	id, alloc := nat.Status.NATGatewayID, nat.Status.AllocationID

	// The create call repeated with the first gateway's token: the same gateway.
	again, err := h.ec2.CreateNatGateway(ctx, &ec2.CreateNatGatewayInput{SubnetId: aws.String(subnetID), AllocationId: aws.String(alloc),
		ClientToken: aws.String(string(nat.UID))})
	if err != nil || aws.ToString(again.NatGateway.NatGatewayId) != id {
		t.Fatalf("a repeated create with the client token made %v (%v), want %s", again, err, id)
	}

	// The recorded id lost (a crash before it was written): found again by its tags.
	patch := `{"metadata":{"annotations":{"` + shared.AnnotationExternalName + `":null}}}`
	if err := h.c.Patch(ctx, nat, client.RawPatch(k8stypes.MergePatchType, []byte(patch))); err != nil {
		t.Fatal(err)
	}
	kubetest.Resync(t, h.c, nat)
	kubetest.WaitFor(t, h.c, nat, kubetest.Timeout, "the gateway found again", func(g *v1alpha1.NATGateway) bool {
		return g.Annotations[shared.AnnotationExternalName] == id
	})
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")["CreateNatGateway"]; n != 2 {
		t.Errorf("CreateNatGateway called %d times, want 2 (the operator's and the test's)", n)
	}

	// Deleted outside the operator: replaced once it is deleted, with the same address.
	if _, err := h.ec2.DeleteNatGateway(ctx, &ec2.DeleteNatGatewayInput{NatGatewayId: aws.String(id)}); err != nil {
		t.Fatal(err)
	}
	kubetest.Resync(t, h.c, nat)
	nat = kubetest.WaitFor(t, h.c, nat, kubetest.Timeout, "a replacement", func(g *v1alpha1.NATGateway) bool {
		return g.Status.NATGatewayID != id && g.Status.State == "available"
	})
	if nat.Status.AllocationID != alloc {
		t.Errorf("the replacement has the Elastic IP %s, want %s", nat.Status.AllocationID, alloc)
	}
	if n := h.allocatedAddresses(t, nat); n != 1 {
		t.Errorf("%d addresses allocated for the gateway, want 1", n)
	}
}

// TestNATGatewayFailure checks that a gateway AWS fails (its Elastic IP held by another
// gateway) is reported as Stalled with AWS's reason, and replaced once the spec changes.
func TestNATGatewayFailure(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	subnetID := h.natNetwork(t, ns, "net", "10.0.1.0/24", "us-east-1a", true)
	first := h.newNAT(ns, "first", subnetID, nil)
	kubetest.Create(t, h.c, first)
	first = kubetest.WaitReady(t, h.c, first)

	second := h.newNAT(ns, "second", subnetID, func(g *v1alpha1.NATGateway) { g.Spec.AllocationID = first.Status.AllocationID })
	kubetest.Create(t, h.c, second)
	second = kubetest.WaitCondition(t, h.c, second, "Stalled", "True", condition.ReasonNATGatewayFailed)
	if msg := findCondition(second.Status.Conditions, "Stalled").Message; !strings.Contains(msg, "Resource.AlreadyAssociated") {
		t.Errorf("the condition does not give AWS's reason: %q", msg)
	}
	if second.Status.State != "failed" || second.Status.FailureCode != "Resource.AlreadyAssociated" {
		t.Errorf("failed gateway status: %+v", second.Status)
	}
	failed := second.Status.NATGatewayID

	// A failed gateway's address can be corrected: the operator allocates one and replaces it.
	h.patchSpec(t, second, `{"allocationID":null}`)
	second = kubetest.WaitReady(t, h.c, second)
	if second.Status.NATGatewayID == failed || second.Status.AllocationID == first.Status.AllocationID {
		t.Errorf("not replaced: %+v", second.Status)
	}
	kubetest.Delete(t, h.c, second)
	h.wantNoAddress(t, second.Status.AllocationID)
}

// TestNATGatewayDeletionPolicies deletes gateways under each policy: Delete deletes the gateway
// and releases its allocated Elastic IP; Retain keeps both, tagged; Orphan keeps both without
// the ownership tags.
func TestNATGatewayDeletionPolicies(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	subnetID := h.natNetwork(t, ns, "net", "10.0.1.0/24", "us-east-1a", true)
	nats := map[shared.DeletionPolicy]*v1alpha1.NATGateway{}
	for _, policy := range []shared.DeletionPolicy{shared.DeletionPolicyDelete, shared.DeletionPolicyRetain, shared.DeletionPolicyOrphan} {
		g := h.newNAT(ns, strings.ToLower(string(policy)), subnetID, func(g *v1alpha1.NATGateway) { g.Spec.DeletionPolicy = policy })
		kubetest.Create(t, h.c, g)
		nats[policy] = g
	}
	for policy, g := range nats {
		g = kubetest.WaitReady(t, h.c, g)
		kubetest.Delete(t, h.c, g)
		gw := h.natState(t, g.Status.NATGatewayID)
		if policy == shared.DeletionPolicyDelete {
			if gw.State != types.NatGatewayStateDeleted {
				t.Errorf("Delete: the gateway is %s", gw.State)
			}
			h.wantNoAddress(t, g.Status.AllocationID)
			continue
		}
		gwTags, addrTags := tagMap(gw.Tags), tagMap(h.eipState(t, g.Status.AllocationID).Tags)
		switch policy {
		case shared.DeletionPolicyRetain:
			if gw.State != types.NatGatewayStateAvailable || gwTags[shared.TagOwnerUID] != string(g.UID) || addrTags[natgateway.TagAllocatedFor] != string(g.UID) {
				t.Errorf("Retain: the gateway is %s with tags %v, its address has %v", gw.State, gwTags, addrTags)
			}
		case shared.DeletionPolicyOrphan:
			if gw.State != types.NatGatewayStateAvailable || gwTags[shared.TagOwnerUID] != "" || addrTags[shared.TagOwnerUID] != "" || addrTags[natgateway.TagAllocatedFor] != "" {
				t.Errorf("Orphan: the gateway is %s with tags %v, its address has %v", gw.State, gwTags, addrTags)
			}
		}
	}
}

// TestNATGatewayBadInput checks admission refusals and a reference to a missing subnet.
func TestNATGatewayBadInput(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	for name, tc := range map[string]struct {
		mutate func(*v1alpha1.NATGateway)
		want   string
	}{
		"allocation on a private gateway": {func(g *v1alpha1.NATGateway) {
			g.Spec.ConnectivityType, g.Spec.AllocationID = "private", "eipalloc-0123456789abcdef0"
		}, "a private NAT gateway has no Elastic IP"},
		"subnet id and ref":         {func(g *v1alpha1.NATGateway) { g.Spec.SubnetRef = &shared.Reference{Name: "x"} }, "exactly one of subnetID and subnetRef"},
		"neither subnet id nor ref": {func(g *v1alpha1.NATGateway) { g.Spec.SubnetID = "" }, "exactly one of subnetID and subnetRef"},
		"allocation id and ref": {func(g *v1alpha1.NATGateway) {
			g.Spec.AllocationID, g.Spec.AllocationRef = "eipalloc-0123456789abcdef0", &shared.Reference{Name: "x"}
		}, "at most one of allocationID and allocationRef"},
		"unknown connectivity type": {func(g *v1alpha1.NATGateway) { g.Spec.ConnectivityType = "hybrid" }, "connectivityType"},
		"not a subnet id":           {func(g *v1alpha1.NATGateway) { g.Spec.SubnetID = "vpc-0123" }, "subnetID"},
	} {
		t.Run(name, func(t *testing.T) {
			kubetest.MustRefuse(t, h.c, h.newNAT(ns, "bad", "subnet-0123456789abcdef0", tc.mutate), tc.want)
		})
	}
	t.Run("an Elastic IP outside the vpc domain", func(t *testing.T) {
		e := &v1alpha1.ElasticIP{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "classic"}}
		e.Spec.ProviderRef.Name, e.Spec.Domain = "aws", "standard"
		kubetest.MustRefuse(t, h.c, e, "domain")
	})
	t.Run("a reference to a missing subnet waits and says so", func(t *testing.T) {
		g := h.newNAT(ns, "orphan", "", func(g *v1alpha1.NATGateway) { g.Spec.SubnetRef = &shared.Reference{Name: "nope"} })
		kubetest.Create(t, h.c, g)
		got := kubetest.WaitCondition(t, h.c, g, "Ready", "False", "ReferenceNotFound")
		if msg := findCondition(got.Status.Conditions, "Ready").Message; !strings.Contains(msg, "spec.subnetRef: Subnet "+ns+"/nope") {
			t.Errorf("the condition does not name the reference: %q", msg)
		}
	})
	t.Run("a public gateway waits for an internet gateway", func(t *testing.T) {
		subnetID := h.natNetwork(t, ns, "no-igw", "10.9.1.0/24", "us-east-1a", false)
		g := h.newNAT(ns, "no-igw", subnetID, nil)
		kubetest.Create(t, h.c, g)
		kubetest.WaitCondition(t, h.c, g, "Ready", "False", condition.ReasonNoInternetGateway)
		if n := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")["CreateNatGateway"]; n != 0 {
			t.Errorf("CreateNatGateway called %d times before the VPC had an internet gateway", n)
		}
	})
}

// newNAT returns a public NATGateway in subnet subnetID using the AWSProvider "aws", changed by
// mutate.
func (h *harness) newNAT(ns, name, subnetID string, mutate func(*v1alpha1.NATGateway)) *v1alpha1.NATGateway {
	g := &v1alpha1.NATGateway{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	g.Spec.ProviderRef.Name, g.Spec.SubnetID = "aws", subnetID
	g.Spec.Tags = map[string]string{"Name": name}
	if mutate != nil {
		mutate(g)
	}
	return g
}

// natNetwork makes a VPC named vpcName (10.0.0.0/16, or the /16 around cidr) in ns with an
// internet gateway attached when igw is true, and a subnet of it, all Ready, using the
// namespace's only AWSProvider; it returns the subnet's id.
func (h *harness) natNetwork(t *testing.T, ns, vpcName, cidr, zone string, igw bool) string {
	t.Helper()
	providerName := h.onlyProvider(t, ns)
	vpc := &v1alpha1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: vpcName}}
	vpc.Spec.ProviderRef.Name, vpc.Spec.CIDRBlock = providerName, strings.Join(strings.Split(cidr, ".")[:2], ".")+".0.0/16"
	kubetest.Create(t, h.c, vpc)
	if igw {
		g := &v1alpha1.InternetGateway{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: vpcName}}
		g.Spec.ProviderRef.Name, g.Spec.VPCRef = providerName, &shared.Reference{Name: vpcName}
		kubetest.Create(t, h.c, g)
		kubetest.WaitReady(t, h.c, g)
	}
	return h.natSubnet(t, ns, vpcName+"-"+zone, vpcName, cidr, zone)
}

// natSubnet makes a Ready subnet named name of the VPC object vpcName in ns and returns its id.
func (h *harness) natSubnet(t *testing.T, ns, name, vpcName, cidr, zone string) string {
	t.Helper()
	s := &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	s.Spec.ProviderRef.Name, s.Spec.VPCRef, s.Spec.CIDRBlock, s.Spec.AvailabilityZone = h.onlyProvider(t, ns), &shared.Reference{Name: vpcName}, cidr, zone
	kubetest.Create(t, h.c, s)
	return kubetest.WaitReady(t, h.c, s).Status.SubnetID
}

// onlyProvider returns the name of the only AWSProvider in ns.
func (h *harness) onlyProvider(t *testing.T, ns string) string {
	t.Helper()
	var list shared.AWSProviderList
	if err := h.c.List(context.Background(), &list, client.InNamespace(ns)); err != nil || len(list.Items) != 1 {
		t.Fatalf("want one AWSProvider in %s: %d, %v", ns, len(list.Items), err)
	}
	return list.Items[0].Name
}

// natState returns what AWS says about NAT gateway id.
func (h *harness) natState(t *testing.T, id string) types.NatGateway {
	t.Helper()
	out, err := h.ec2.DescribeNatGateways(context.Background(), &ec2.DescribeNatGatewaysInput{NatGatewayIds: []string{id}})
	if err != nil || len(out.NatGateways) != 1 {
		t.Fatalf("describe NAT gateway %s: %+v, %v", id, out, err)
	}
	return out.NatGateways[0]
}

// eipState returns what AWS says about Elastic IP id.
func (h *harness) eipState(t *testing.T, id string) types.Address {
	t.Helper()
	out, err := h.ec2.DescribeAddresses(context.Background(), &ec2.DescribeAddressesInput{AllocationIds: []string{id}})
	if err != nil || len(out.Addresses) != 1 {
		t.Fatalf("describe Elastic IP %s: %+v, %v", id, out, err)
	}
	return out.Addresses[0]
}

// wantNoAddress checks that Elastic IP id was released.
func (h *harness) wantNoAddress(t *testing.T, id string) {
	t.Helper()
	out, err := h.ec2.DescribeAddresses(context.Background(), &ec2.DescribeAddressesInput{AllocationIds: []string{id}})
	if err == nil {
		t.Errorf("Elastic IP %s was not released: %+v", id, out.Addresses)
	}
}

// allocatedAddresses counts the Elastic IPs the operator allocated for g.
func (h *harness) allocatedAddresses(t *testing.T, g *v1alpha1.NATGateway) int {
	t.Helper()
	out, err := h.ec2.DescribeAddresses(context.Background(), &ec2.DescribeAddressesInput{
		Filters: []types.Filter{{Name: aws.String("tag:" + natgateway.TagAllocatedFor), Values: []string{string(g.UID)}}}})
	if err != nil {
		t.Fatal(err)
	}
	return len(out.Addresses)
}
