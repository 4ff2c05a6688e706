package networking_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestNetworkingSeedExamples applies the seed's VPC, subnet and internet gateway examples
// verbatim; the placeholder VPC ids are accepted at admission, and once a real id is put there
// every object becomes Ready and AWS matches it.
func TestNetworkingSeedExamples(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	ctx := context.Background()

	h.apply(t, "vpc-basic.yaml", "default")
	vpc := kubetest.WaitReady(t, h.c, &v1alpha1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "production-vpc"}})
	out, err := h.ec2.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{VpcIds: []string{vpc.Status.VPCID}})
	if err != nil || len(out.Vpcs) != 1 || aws.ToString(out.Vpcs[0].CidrBlock) != "10.0.0.0/16" {
		t.Fatalf("the VPC in AWS: %+v, %v", out, err)
	}
	tags := tagMap(out.Vpcs[0].Tags)
	if tags["Name"] != "production-vpc" || tags[shared.TagOwnerUID] != string(vpc.UID) {
		t.Errorf("VPC tags: %v", tags)
	}
	hostnames, err := h.ec2.DescribeVpcAttribute(ctx, &ec2.DescribeVpcAttributeInput{VpcId: aws.String(vpc.Status.VPCID), Attribute: types.VpcAttributeNameEnableDnsHostnames})
	if err != nil || !aws.ToBool(hostnames.EnableDnsHostnames.Value) {
		t.Errorf("enableDnsHostnames not applied: %v", err)
	}

	for _, file := range []string{"subnet-public.yaml", "subnet-private.yaml", "internetgateway.yaml"} {
		for _, u := range h.apply(t, file, "default") {
			h.patchSpec(t, u, `{"vpcID":"`+vpc.Status.VPCID+`"}`)
		}
	}
	pub := kubetest.WaitReady(t, h.c, &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "public-subnet-1a"}})
	priv := kubetest.WaitReady(t, h.c, &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "private-subnet-1b"}})
	igw := kubetest.WaitReady(t, h.c, &v1alpha1.InternetGateway{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "production-igw"}})
	if pub.Status.AvailabilityZone != "us-east-1a" || priv.Status.AvailabilityZone != "us-east-1b" || pub.Status.AvailableIPAddressCount != 251 {
		t.Errorf("subnet status: %+v / %+v", pub.Status, priv.Status)
	}
	subnets, err := h.ec2.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{SubnetIds: []string{pub.Status.SubnetID, priv.Status.SubnetID}})
	if err != nil || len(subnets.Subnets) != 2 {
		t.Fatal(err)
	}
	for _, s := range subnets.Subnets {
		if public := aws.ToString(s.SubnetId) == pub.Status.SubnetID; aws.ToBool(s.MapPublicIpOnLaunch) != public {
			t.Errorf("subnet %s mapPublicIpOnLaunch = %v", aws.ToString(s.SubnetId), aws.ToBool(s.MapPublicIpOnLaunch))
		}
	}
	if igw.Status.VPCID != vpc.Status.VPCID || igw.Status.State != "attached" {
		t.Errorf("internet gateway status: %+v", igw.Status)
	}

	// The quick start, and the multi-AZ example in a VPC of its own (both use 10.0.1.0/24).
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws-provider")
	quick := h.apply(t, "quickstart.yaml", ns)
	qvpc := kubetest.WaitReady(t, h.c, &v1alpha1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "production-vpc"}})
	h.patchSpec(t, quick[1], `{"vpcID":"`+qvpc.Status.VPCID+`"}`)
	kubetest.WaitReady(t, h.c, &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "public-subnet"}})

	ns2 := h.env.Namespace(t)
	h.provider(t, ns2, "production-aws")
	mvpc := &v1alpha1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: ns2, Name: "multi-az"}}
	mvpc.Spec.ProviderRef.Name, mvpc.Spec.CIDRBlock = "production-aws", "10.0.0.0/16"
	kubetest.Create(t, h.c, mvpc)
	mvpc = kubetest.WaitReady(t, h.c, mvpc)
	for _, u := range h.apply(t, "subnet-multi-az.yaml", ns2) {
		h.patchSpec(t, u, `{"vpcID":"`+mvpc.Status.VPCID+`"}`)
	}
	for _, name := range []string{"public-subnet-1a", "public-subnet-1b"} {
		kubetest.WaitReady(t, h.c, &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns2, Name: name}})
	}
}

// TestReferencesConverge applies the multi-tier example with references, in reverse order, and
// checks that every object converges with the ids of what it refers to; then deletes the whole
// stack at once and checks that nothing is left in AWS, not even the NAT gateway's Elastic IP.
func TestReferencesConverge(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	ctx := context.Background()
	objs := kubetest.SeedObjects(t, "../../examples/networking/multi-tier-references.yaml")
	for i := len(objs) - 1; i >= 0; i-- {
		objs[i].SetNamespace(ns)
		if err := h.c.Create(ctx, objs[i]); err != nil {
			t.Fatal(err)
		}
	}
	sub := kubetest.WaitCondition(t, h.c, &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "public-1a"}}, "Ready", "False", "ReferenceNotReady")
	if c := findCondition(sub.Status.Conditions, "Ready"); !strings.Contains(c.Message, "spec.vpcRef: VPC "+ns+"/app-vpc") {
		t.Errorf("the waiting condition does not name the reference: %q", c.Message)
	}
	vpc := kubetest.WaitReady(t, h.c, &v1alpha1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "app-vpc"}})
	for _, name := range []string{"private-1a", "public-1a"} {
		sub = kubetest.WaitReady(t, h.c, &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}})
		if sub.Status.VPCID != vpc.Status.VPCID {
			t.Errorf("subnet %s is in %s, want %s", name, sub.Status.VPCID, vpc.Status.VPCID)
		}
	}
	igw := kubetest.WaitReady(t, h.c, &v1alpha1.InternetGateway{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "app-igw"}})
	if igw.Status.VPCID != vpc.Status.VPCID {
		t.Errorf("the gateway is attached to %q, want %s", igw.Status.VPCID, vpc.Status.VPCID)
	}
	nat := kubetest.WaitReady(t, h.c, &v1alpha1.NATGateway{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "nat-1a"}})
	if nat.Status.SubnetID != sub.Status.SubnetID || nat.Status.PublicIP == "" || nat.Status.AllocationID == "" {
		t.Errorf("NAT gateway status: %+v (subnet %s)", nat.Status, sub.Status.SubnetID)
	}
	public := kubetest.WaitReady(t, h.c, &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "public-1a"}})
	private := kubetest.WaitReady(t, h.c, &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "private-1a"}})
	public1b := kubetest.WaitReady(t, h.c, &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "public-1b"}})
	publicRT := kubetest.WaitReady(t, h.c, &v1alpha1.RouteTable{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "public"}})
	privateRT := kubetest.WaitReady(t, h.c, &v1alpha1.RouteTable{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "private"}})
	for _, tc := range []struct {
		rt      *v1alpha1.RouteTable
		target  string
		subnets []string
	}{{publicRT, igw.Status.InternetGatewayID, []string{public.Status.SubnetID, public1b.Status.SubnetID}}, {privateRT, nat.Status.NATGatewayID, []string{private.Status.SubnetID}}} {
		routes, subnets := h.awsTable(t, tc.rt.Status.RouteTableID)
		if !slices.Equal(routes, []string{"0.0.0.0/0 " + tc.target, "10.0.0.0/16 local"}) || !managed.SameSet(subnets, tc.subnets) {
			t.Errorf("route table %s in AWS: routes %v, subnets %v; want a default route to %s and subnets %v", tc.rt.Name, routes, subnets, tc.target, tc.subnets)
		}
	}
	web := kubetest.WaitReady(t, h.c, &v1alpha1.SecurityGroup{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web"}})
	if got := h.awsRules(t, web.Status.GroupID, false); len(got) != 4 || web.Status.VPCID != vpc.Status.VPCID {
		t.Errorf("security group %s in %s: ingress rules %v", web.Status.GroupID, web.Status.VPCID, got)
	}
	alb := kubetest.WaitReady(t, h.c, &v1alpha1.ALB{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "app"}})
	lb := h.loadBalancer(t, alb.Status.ARN)
	if !managed.SameSet(observedSubnetIDs(lb), []string{public.Status.SubnetID, public1b.Status.SubnetID}) || !slices.Equal(lb.SecurityGroups, []string{web.Status.GroupID}) ||
		aws.ToString(lb.VpcId) != vpc.Status.VPCID {
		t.Errorf("the ALB in AWS: subnets %v, security groups %v, VPC %s", observedSubnetIDs(lb), lb.SecurityGroups, aws.ToString(lb.VpcId))
	}
	if l := h.listeners(t, alb.Status.ARN)[80]; len(alb.Status.TargetGroups) != 1 || aws.ToString(l.DefaultActions[0].TargetGroupArn) != alb.Status.TargetGroups[0].ARN {
		t.Errorf("the ALB's listener does not forward to its target group: %+v, %+v", l, alb.Status.TargetGroups)
	}

	// Deleting the VPC first waits for its subnets and gateways, the public subnet for its NAT
	// gateway; then the whole stack goes.
	kubetest.Delete(t, h.c, &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "private-1a"}})
	if err := h.c.Delete(ctx, vpc); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitCondition(t, h.c, vpc, "Synced", "False", "DependencyViolation")
	if err := h.c.Delete(ctx, sub); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitCondition(t, h.c, sub, "Synced", "False", "DependencyViolation")
	for _, o := range []client.Object{igw, nat, publicRT, privateRT, web, alb, public1b} {
		if err := h.c.Delete(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range []client.Object{nat, sub, igw, publicRT, privateRT, web, alb, public1b, vpc} {
		kubetest.WaitGone(t, h.c, o)
	}
	if out, err := h.elb.DescribeLoadBalancers(ctx, &elb.DescribeLoadBalancersInput{}); err != nil || len(out.LoadBalancers) != 0 {
		t.Errorf("load balancers left in AWS: %v (%v)", out, err)
	}
	if out, err := h.elb.DescribeTargetGroups(ctx, &elb.DescribeTargetGroupsInput{}); err != nil || len(out.TargetGroups) != 0 {
		t.Errorf("target groups left in AWS: %v (%v)", out, err)
	}
	left, err := h.ec2.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{VpcIds: []string{vpc.Status.VPCID}})
	if err == nil && len(left.Vpcs) > 0 {
		t.Errorf("the VPC is still in AWS: %+v", left.Vpcs)
	}
	// The account's default VPC keeps its own internet gateway; any other one is a leak.
	defaults, err := h.ec2.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{Filters: []types.Filter{{Name: aws.String("is-default"), Values: []string{"true"}}}})
	if err != nil || len(defaults.Vpcs) != 1 {
		t.Fatalf("the default VPC: %+v, %v", defaults, err)
	}
	gws, _ := h.ec2.DescribeInternetGateways(ctx, &ec2.DescribeInternetGatewaysInput{})
	for _, g := range gws.InternetGateways {
		if len(g.Attachments) != 1 || aws.ToString(g.Attachments[0].VpcId) != aws.ToString(defaults.Vpcs[0].VpcId) {
			t.Errorf("internet gateway %s left in AWS", aws.ToString(g.InternetGatewayId))
		}
	}
	nats, _ := h.ec2.DescribeNatGateways(ctx, &ec2.DescribeNatGatewaysInput{})
	for _, g := range nats.NatGateways {
		if g.State != types.NatGatewayStateDeleted {
			t.Errorf("NAT gateway %s left in AWS, %s", aws.ToString(g.NatGatewayId), g.State)
		}
	}
	addrs, _ := h.ec2.DescribeAddresses(ctx, &ec2.DescribeAddressesInput{})
	if len(addrs.Addresses) != 0 {
		t.Errorf("Elastic IPs left in AWS: %d", len(addrs.Addresses))
	}
}

// TestNetworkingBadInput checks admission refusals and AWS's refusals of what admission
// cannot know.
func TestNetworkingBadInput(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	newVPC := func(name, cidr string) *v1alpha1.VPC {
		v := &v1alpha1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		v.Spec.ProviderRef.Name, v.Spec.CIDRBlock = "aws", cidr
		return v
	}
	newSubnet := func(name, cidr string, mutate func(*v1alpha1.Subnet)) *v1alpha1.Subnet {
		s := &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		s.Spec.ProviderRef.Name, s.Spec.CIDRBlock, s.Spec.VPCID = "aws", cidr, "vpc-0123456789abcdef0"
		if mutate != nil {
			mutate(s)
		}
		return s
	}
	for name, tc := range map[string]struct {
		obj  client.Object
		want string
	}{
		"invalid CIDR":        {newVPC("a", "10.0.0.300/16"), "must be an IPv4 CIDR"},
		"prefix too wide":     {newVPC("b", "10.0.0.0/8"), "/16 to /28"},
		"host bits set":       {newVPC("c", "10.0.0.1/16"), "host bits set"},
		"id and ref":          {newSubnet("d", "10.0.1.0/24", func(s *v1alpha1.Subnet) { s.Spec.VPCRef = &shared.Reference{Name: "x"} }), "exactly one of vpcID and vpcRef"},
		"neither id nor ref":  {newSubnet("e", "10.0.1.0/24", func(s *v1alpha1.Subnet) { s.Spec.VPCID = "" }), "exactly one of vpcID and vpcRef"},
		"subnet prefix range": {newSubnet("f", "10.0.1.0/29", nil), "/16 to /28"},
	} {
		t.Run(name, func(t *testing.T) { kubetest.MustRefuse(t, h.c, tc.obj, tc.want) })
	}

	t.Run("overlapping CIDRs are AWS's refusal, terminal", func(t *testing.T) {
		vpc := newVPC("net", "10.1.0.0/16")
		kubetest.Create(t, h.c, vpc)
		vpc = kubetest.WaitReady(t, h.c, vpc)
		first := newSubnet("first", "10.1.1.0/24", func(s *v1alpha1.Subnet) { s.Spec.VPCID = vpc.Status.VPCID })
		kubetest.Create(t, h.c, first)
		kubetest.WaitReady(t, h.c, first)
		for name, cidr := range map[string]string{"overlap": "10.1.1.128/25"} {
			s := newSubnet(name, cidr, func(s *v1alpha1.Subnet) { s.Spec.VPCID = vpc.Status.VPCID })
			kubetest.Create(t, h.c, s)
			got := kubetest.WaitCondition(t, h.c, s, "Stalled", "True", "AWSRejectedRequest")
			t.Logf("%s: %s", name, findCondition(got.Status.Conditions, "Stalled").Message)
		}
	})
	t.Run("a reference to a missing VPC waits and says so", func(t *testing.T) {
		s := newSubnet("orphan", "10.3.0.0/24", func(s *v1alpha1.Subnet) { s.Spec.VPCID, s.Spec.VPCRef = "", &shared.Reference{Name: "nope"} })
		kubetest.Create(t, h.c, s)
		kubetest.WaitCondition(t, h.c, s, "Ready", "False", "ReferenceNotFound")
	})
}

func findCondition(conds []metav1.Condition, typ string) metav1.Condition {
	for _, c := range conds {
		if c.Type == typ {
			return c
		}
	}
	return metav1.Condition{}
}

func tagMap(list []types.Tag) map[string]string {
	out := map[string]string{}
	for _, t := range list {
		out[aws.ToString(t.Key)] = aws.ToString(t.Value)
	}
	return out
}
