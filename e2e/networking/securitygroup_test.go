package networking_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// newGroup returns a SecurityGroup named name in ns, in VPC vpcID, with the provider "aws".
func newGroup(ns, name, vpcID string, mutate func(*v1alpha1.SecurityGroup)) *v1alpha1.SecurityGroup {
	g := &v1alpha1.SecurityGroup{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	g.Spec.ProviderRef.Name, g.Spec.GroupName, g.Spec.VPCID = "aws", name, vpcID
	if mutate != nil {
		mutate(g)
	}
	return g
}

// tcp returns a tcp rule for ports from..to from the IPv4 ranges cidrs.
func tcp(from, to int32, cidrs ...string) v1alpha1.SecurityGroupRule {
	return v1alpha1.SecurityGroupRule{Protocol: "tcp", FromPort: aws.Int32(from), ToPort: aws.Int32(to), CIDRBlocks: cidrs}
}

// awsRules returns the atomic rules of group id in AWS, one string per rule, sorted.
func (h *harness) awsRules(t testing.TB, id string, egress bool) []string {
	t.Helper()
	out, err := h.ec2.DescribeSecurityGroupRules(context.Background(), &ec2.DescribeSecurityGroupRulesInput{
		Filters: []types.Filter{{Name: aws.String("group-id"), Values: []string{id}}}})
	if err != nil {
		t.Fatalf("describe the rules of %s: %v", id, err)
	}
	var rules []string
	for _, r := range out.SecurityGroupRules {
		if aws.ToBool(r.IsEgress) != egress {
			continue
		}
		peer := aws.ToString(r.CidrIpv4) + aws.ToString(r.CidrIpv6) + aws.ToString(r.PrefixListId)
		if r.ReferencedGroupInfo != nil {
			peer = aws.ToString(r.ReferencedGroupInfo.GroupId)
		}
		rules = append(rules, fmt.Sprintf("%s %d-%d %s", aws.ToString(r.IpProtocol), aws.ToInt32(r.FromPort), aws.ToInt32(r.ToPort), peer))
	}
	slices.Sort(rules)
	return rules
}

// TestSecurityGroupRules creates groups with rules (a reference to another group and to the
// group itself, egress absent and empty), changes the rules and checks that only the
// difference is authorised and revoked, reverts a rule added outside the operator, and checks
// that a group another group's rule refers to is deleted only once that rule is gone.
func TestSecurityGroupRules(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	vpc := h.readyVPC(t, ns, "net", "10.0.0.0/16")

	icmp := v1alpha1.SecurityGroupRule{Protocol: "icmp", FromPort: aws.Int32(8), CIDRBlocks: []string{"10.0.0.0/8"}}
	https := tcp(443, 443, "0.0.0.0/0")
	https.IPv6CIDRBlocks, https.Description = []string{"::/0"}, "https"
	web := newGroup(ns, "web", vpc.Status.VPCID, func(g *v1alpha1.SecurityGroup) {
		g.Spec.IngressRules = []v1alpha1.SecurityGroupRule{https, tcp(22, 22, "10.0.0.0/8"), icmp}
	})
	kubetest.Create(t, h.c, web)
	web = kubetest.WaitReady(t, h.c, web)
	webID := web.Status.GroupID
	if web.Status.VPCID != vpc.Status.VPCID || webID == "" {
		t.Fatalf("status: %+v", web.Status)
	}
	want := []string{"icmp 8--1 10.0.0.0/8", "tcp 22-22 10.0.0.0/8", "tcp 443-443 0.0.0.0/0", "tcp 443-443 ::/0"}
	if got := h.awsRules(t, webID, false); !slices.Equal(got, want) {
		t.Errorf("ingress rules in AWS: %v, want %v", got, want)
	}
	if got := h.awsRules(t, webID, true); !slices.Equal(got, []string{"-1 -1--1 0.0.0.0/0"}) {
		t.Errorf("egress rules in AWS (absent: AWS's default): %v", got)
	}

	// A group that allows the first group and itself, with no egress at all; it refers to the
	// first by name.
	app := newGroup(ns, "app", "", func(g *v1alpha1.SecurityGroup) {
		g.Spec.VPCRef = &shared.Reference{Name: "net"}
		g.Spec.IngressRules = []v1alpha1.SecurityGroupRule{{Protocol: "tcp", FromPort: aws.Int32(8080), ToPort: aws.Int32(8080),
			SourceSecurityGroupRefs: []shared.Reference{{Name: "web"}, {Name: "app"}}}}
		g.Spec.EgressRules = []v1alpha1.SecurityGroupRule{}
	})
	kubetest.Create(t, h.c, app)
	app = kubetest.WaitReady(t, h.c, app)
	appID := app.Status.GroupID
	want = []string{"tcp 8080-8080 " + appID, "tcp 8080-8080 " + webID}
	slices.Sort(want)
	if got := h.awsRules(t, appID, false); !slices.Equal(got, want) {
		t.Errorf("app ingress rules in AWS: %v, want %v", got, want)
	}
	if got := h.awsRules(t, appID, true); len(got) != 0 {
		t.Errorf("app egress rules in AWS (empty list: none): %v", got)
	}

	t.Run("only the difference is authorised and revoked", func(t *testing.T) {
		h.emu.Calls.Reset()
		kubetest.Update(t, h.c, web, func(g *v1alpha1.SecurityGroup) {
			g.Spec.IngressRules = []v1alpha1.SecurityGroupRule{https, icmp, {Protocol: "udp", FromPort: aws.Int32(53), ToPort: aws.Int32(53), CIDRBlocks: []string{"10.0.0.0/16"}}}
		})
		kubetest.WaitReady(t, h.c, web)
		calls := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")
		if calls["RevokeSecurityGroupIngress"] != 1 || calls["AuthorizeSecurityGroupIngress"] != 1 ||
			calls["RevokeSecurityGroupEgress"]+calls["AuthorizeSecurityGroupEgress"] != 0 {
			t.Errorf("calls for one rule swapped: %v", calls)
		}
		want := []string{"icmp 8--1 10.0.0.0/8", "tcp 443-443 0.0.0.0/0", "tcp 443-443 ::/0", "udp 53-53 10.0.0.0/16"}
		if got := h.awsRules(t, webID, false); !slices.Equal(got, want) {
			t.Errorf("ingress rules in AWS: %v, want %v", got, want)
		}
	})

	t.Run("a rule added outside the operator is revoked", func(t *testing.T) {
		if _, err := h.ec2.AuthorizeSecurityGroupIngress(ctx, &ec2.AuthorizeSecurityGroupIngressInput{GroupId: aws.String(webID),
			IpPermissions: []types.IpPermission{{IpProtocol: aws.String("tcp"), FromPort: aws.Int32(3306), ToPort: aws.Int32(3306),
				IpRanges: []types.IpRange{{CidrIp: aws.String("0.0.0.0/0")}}}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := h.ec2.AuthorizeSecurityGroupEgress(ctx, &ec2.AuthorizeSecurityGroupEgressInput{GroupId: aws.String(appID),
			IpPermissions: []types.IpPermission{{IpProtocol: aws.String("-1"), IpRanges: []types.IpRange{{CidrIp: aws.String("0.0.0.0/0")}}}}}); err != nil {
			t.Fatal(err)
		}
		kubetest.ResyncUntil(t, h.c, web, "the added ingress rule revoked", func() bool { return len(h.awsRules(t, webID, false)) == 4 })
		kubetest.ResyncUntil(t, h.c, app, "the added egress rule revoked", func() bool { return len(h.awsRules(t, appID, true)) == 0 })
		kubetest.WaitEvent(t, h.c, web, "DriftDetected", "ingressRules")
		kubetest.WaitEvent(t, h.c, app, "DriftDetected", "egressRules")
	})

	t.Run("a group another group refers to waits for it", func(t *testing.T) {
		if err := h.c.Delete(ctx, web); err != nil {
			t.Fatal(err)
		}
		kubetest.WaitCondition(t, h.c, web, "Synced", "False", "DependencyViolation")
		kubetest.Delete(t, h.c, app)
		kubetest.WaitGone(t, h.c, web)
		out, err := h.ec2.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{Filters: []types.Filter{{Name: aws.String("vpc-id"), Values: []string{vpc.Status.VPCID}}}})
		if err != nil || len(out.SecurityGroups) != 1 || aws.ToString(out.SecurityGroups[0].GroupName) != "default" {
			t.Errorf("groups left in the VPC: %+v, %v", out, err)
		}
	})
}

// TestSecurityGroupDeletionPolicies deletes groups under Retain and Orphan and checks what is
// left in AWS (Delete is covered by TestSecurityGroupRules).
func TestSecurityGroupDeletionPolicies(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	vpc := h.readyVPC(t, ns, "net", "10.0.0.0/16")
	for _, policy := range []shared.DeletionPolicy{shared.DeletionPolicyRetain, shared.DeletionPolicyOrphan} {
		t.Run(string(policy), func(t *testing.T) {
			g := newGroup(ns, "kept-"+strings.ToLower(string(policy)), vpc.Status.VPCID, func(g *v1alpha1.SecurityGroup) {
				g.Spec.DeletionPolicy = policy
				g.Spec.IngressRules = []v1alpha1.SecurityGroupRule{tcp(80, 80, "0.0.0.0/0")}
			})
			kubetest.Create(t, h.c, g)
			g = kubetest.WaitReady(t, h.c, g)
			kubetest.Delete(t, h.c, g)
			out, err := h.ec2.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupIds: []string{g.Status.GroupID}})
			if err != nil || len(out.SecurityGroups) != 1 {
				t.Fatalf("the group is not in AWS any more: %v", err)
			}
			_, owned := tagMap(out.SecurityGroups[0].Tags)[shared.TagOwnerUID]
			if owned != (policy == shared.DeletionPolicyRetain) {
				t.Errorf("ownership tag kept = %v under %s", owned, policy)
			}
			if got := h.awsRules(t, g.Status.GroupID, false); len(got) != 1 {
				t.Errorf("rules of the kept group: %v", got)
			}
		})
	}
}

// TestSecurityGroupBadInput checks admission's refusals of security groups.
func TestSecurityGroupBadInput(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	rule := func(mutate func(*v1alpha1.SecurityGroupRule)) func(*v1alpha1.SecurityGroup) {
		return func(g *v1alpha1.SecurityGroup) {
			r := tcp(80, 80, "10.0.0.0/8")
			mutate(&r)
			g.Spec.IngressRules = []v1alpha1.SecurityGroupRule{r}
		}
	}
	for name, tc := range map[string]struct {
		obj  client.Object
		want string
	}{
		"invalid CIDR":      {newGroup(ns, "a", "vpc-1", rule(func(r *v1alpha1.SecurityGroupRule) { r.CIDRBlocks = []string{"10.0.0.300/24"} })), "must be IPv4 CIDRs"},
		"host bits":         {newGroup(ns, "b", "vpc-1", rule(func(r *v1alpha1.SecurityGroupRule) { r.CIDRBlocks = []string{"10.0.0.1/8"} })), "host bits set"},
		"IPv6 as IPv4":      {newGroup(ns, "c", "vpc-1", rule(func(r *v1alpha1.SecurityGroupRule) { r.CIDRBlocks = []string{"::/0"} })), "must be IPv4 CIDRs"},
		"ports on all":      {newGroup(ns, "d", "vpc-1", rule(func(r *v1alpha1.SecurityGroupRule) { r.Protocol = "all" })), "only for tcp, udp, icmp and icmpv6"},
		"tcp without ports": {newGroup(ns, "e", "vpc-1", rule(func(r *v1alpha1.SecurityGroupRule) { r.FromPort, r.ToPort = nil, nil })), "needs fromPort and toPort"},
		"ports reversed":    {newGroup(ns, "f", "vpc-1", rule(func(r *v1alpha1.SecurityGroupRule) { r.FromPort = aws.Int32(90) })), "fromPort <= toPort"},
		"port out of range": {newGroup(ns, "g", "vpc-1", rule(func(r *v1alpha1.SecurityGroupRule) { r.ToPort = aws.Int32(70000) })), "65535"},
		"unknown protocol":  {newGroup(ns, "h", "vpc-1", rule(func(r *v1alpha1.SecurityGroupRule) { r.Protocol = "300" })), "0 to 255"},
		"icmp code too large": {newGroup(ns, "i", "vpc-1", rule(func(r *v1alpha1.SecurityGroupRule) {
			r.Protocol, r.FromPort, r.ToPort = "icmp", aws.Int32(8), aws.Int32(300)
		})), "each -1 (any) to 255"},
		"no source":          {newGroup(ns, "j", "vpc-1", rule(func(r *v1alpha1.SecurityGroupRule) { r.CIDRBlocks = nil })), "needs at least one of"},
		"both id and ref":    {newGroup(ns, "k", "vpc-1", func(g *v1alpha1.SecurityGroup) { g.Spec.VPCRef = &shared.Reference{Name: "net"} }), "exactly one of vpcID and vpcRef"},
		"neither id nor ref": {newGroup(ns, "l", "", nil), "exactly one of vpcID and vpcRef"},
		"reserved name":      {newGroup(ns, "m", "vpc-1", func(g *v1alpha1.SecurityGroup) { g.Spec.GroupName = "sg-web" }), "may not start with sg-"},
		"reserved object name without groupName": {newGroup(ns, "sg-web", "vpc-1", func(g *v1alpha1.SecurityGroup) { g.Spec.GroupName = "" }),
			"the object's name is not a valid security group name (it may not start with sg- or be default); set spec.groupName"},
		"object named default without groupName": {newGroup(ns, "default", "vpc-1", func(g *v1alpha1.SecurityGroup) { g.Spec.GroupName = "" }), "set spec.groupName"},
	} {
		t.Run(name, func(t *testing.T) { kubetest.MustRefuse(t, h.c, tc.obj, tc.want) })
	}

	t.Run("name, description and VPC cannot change once the group exists", func(t *testing.T) {
		h.provider(t, ns, "aws")
		vpc := h.readyVPC(t, ns, "net", "10.0.0.0/16")
		g := newGroup(ns, "fixed", vpc.Status.VPCID, nil)
		kubetest.Create(t, h.c, g)
		g = kubetest.WaitReady(t, h.c, g)
		if g.Spec.Description != "Managed by infra-operator" {
			t.Errorf("default description: %q", g.Spec.Description)
		}
		kubetest.MustRefuseUpdate(t, h.c, g, func(g *v1alpha1.SecurityGroup) { g.Spec.GroupName = "other" }, "cannot change once the security group exists")
	})
}

// TestSecurityGroupNameDefault creates a group without groupName and checks that AWS names it
// after the object, that the name cannot be set (nor changed) once the group exists, and that an
// object whose name AWS refuses for a group is admitted once it sets groupName.
func TestSecurityGroupNameDefault(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	vpc := h.readyVPC(t, ns, "net", "10.0.0.0/16")

	g := newGroup(ns, "unnamed", vpc.Status.VPCID, func(g *v1alpha1.SecurityGroup) { g.Spec.GroupName = "" })
	kubetest.Create(t, h.c, g)
	g = kubetest.WaitReady(t, h.c, g)
	out, err := h.ec2.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupIds: []string{g.Status.GroupID}})
	if err != nil || len(out.SecurityGroups) != 1 {
		t.Fatalf("describe group %s: %v", g.Status.GroupID, err)
	}
	if name := aws.ToString(out.SecurityGroups[0].GroupName); name != "unnamed" {
		t.Errorf("group name in AWS: %q, want the object's name", name)
	}
	g.Spec.GroupName = "named-later"
	if err := h.c.Update(ctx, g); err == nil || !strings.Contains(err.Error(), "cannot change once the security group exists") {
		t.Errorf("setting groupName on an existing group: %v", err)
	}

	// The way out of the refusal of a reserved object name: spec.groupName.
	reserved := newGroup(ns, "sg-web", vpc.Status.VPCID, func(g *v1alpha1.SecurityGroup) { g.Spec.GroupName = "web" })
	kubetest.Create(t, h.c, reserved)
	kubetest.WaitReady(t, h.c, reserved)
}
