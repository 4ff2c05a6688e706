package emulator_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// createGroup creates a security group and returns its id.
func createGroup(t *testing.T, c *ec2.Client, vpc, name string) string {
	t.Helper()
	out, err := c.CreateSecurityGroup(context.Background(), &ec2.CreateSecurityGroupInput{VpcId: aws.String(vpc), GroupName: aws.String(name),
		Description: aws.String(name + " tier"), TagSpecifications: nameTag(types.ResourceTypeSecurityGroup, name)})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.GroupId)
}

// tcp is an ingress or egress permission for one TCP port.
func tcp(port int32) types.IpPermission {
	return types.IpPermission{IpProtocol: aws.String("tcp"), FromPort: aws.Int32(port), ToPort: aws.Int32(port)}
}

func TestEC2SecurityGroupRules(t *testing.T) {
	_, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	web, lb := createGroup(t, c, vpc, "web"), createGroup(t, c, vpc, "lb")

	https := tcp(443)
	https.IpRanges = []types.IpRange{{CidrIp: aws.String("10.0.0.0/16"), Description: aws.String("vpc")}, {CidrIp: aws.String("192.168.0.0/24")}}
	https.Ipv6Ranges = []types.Ipv6Range{{CidrIpv6: aws.String("::/0")}}
	https.PrefixListIds = []types.PrefixListId{{PrefixListId: aws.String("pl-0123456789abcdef0")}}
	https.UserIdGroupPairs = []types.UserIdGroupPair{{GroupId: aws.String(lb), Description: aws.String("from the load balancer")}}
	ping := types.IpPermission{IpProtocol: aws.String("icmp"), FromPort: aws.Int32(8), ToPort: aws.Int32(-1), IpRanges: []types.IpRange{{CidrIp: aws.String("10.0.0.0/8")}}}
	added, err := c.AuthorizeSecurityGroupIngress(ctx, &ec2.AuthorizeSecurityGroupIngressInput{GroupId: aws.String(web), IpPermissions: []types.IpPermission{https, ping},
		TagSpecifications: nameTag(types.ResourceTypeSecurityGroupRule, "https")})
	if err != nil {
		t.Fatal(err)
	}
	if len(added.SecurityGroupRules) != 6 || !aws.ToBool(added.Return) || !strings.HasPrefix(aws.ToString(added.SecurityGroupRules[0].SecurityGroupRuleId), "sgr-") {
		t.Fatalf("AuthorizeSecurityGroupIngress returned %+v; want one sgr- rule per source", added.SecurityGroupRules)
	}

	got, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupIds: []string{web}})
	if err != nil {
		t.Fatal(err)
	}
	g := got.SecurityGroups[0]
	account := aws.ToString(g.OwnerId)
	want := []types.IpPermission{
		{IpProtocol: aws.String("tcp"), FromPort: aws.Int32(443), ToPort: aws.Int32(443), IpRanges: https.IpRanges, Ipv6Ranges: https.Ipv6Ranges,
			PrefixListIds: https.PrefixListIds, UserIdGroupPairs: []types.UserIdGroupPair{{GroupId: aws.String(lb), UserId: aws.String(account), Description: aws.String("from the load balancer")}}},
		{IpProtocol: aws.String("icmp"), FromPort: aws.Int32(8), ToPort: aws.Int32(-1), IpRanges: ping.IpRanges},
	}
	ignore := cmpopts.IgnoreUnexported(types.IpPermission{}, types.IpRange{}, types.Ipv6Range{}, types.PrefixListId{}, types.UserIdGroupPair{})
	if diff := cmp.Diff(want, g.IpPermissions, ignore, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("ingress as IpPermissions: -want +got:\n%s", diff)
	}
	egress := []types.IpPermission{{IpProtocol: aws.String("-1"), IpRanges: []types.IpRange{{CidrIp: aws.String("0.0.0.0/0")}}}}
	if diff := cmp.Diff(egress, g.IpPermissionsEgress, ignore, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("a new group allows all IPv4 egress: -want +got:\n%s", diff)
	}

	cases := map[string]struct {
		reason string
		args   func() error
		want   string
	}{
		"Duplicate": {reason: "A rule that exists cannot be added again.", want: "InvalidPermission.Duplicate", args: func() error {
			p := tcp(443)
			p.IpRanges = []types.IpRange{{CidrIp: aws.String("192.168.0.0/24"), Description: aws.String("other description")}}
			_, err := c.AuthorizeSecurityGroupIngress(ctx, &ec2.AuthorizeSecurityGroupIngressInput{GroupId: aws.String(web), IpPermissions: []types.IpPermission{p}})
			return err
		}},
		"DuplicateEgress": {reason: "The default egress rule exists.", want: "InvalidPermission.Duplicate", args: func() error {
			_, err := c.AuthorizeSecurityGroupEgress(ctx, &ec2.AuthorizeSecurityGroupEgressInput{GroupId: aws.String(web), IpPermissions: egress})
			return err
		}},
		"UnknownProtocol": {reason: "Protocols are names or numbers.", want: "InvalidParameterValue", args: func() error {
			p := tcp(1)
			p.IpProtocol, p.IpRanges = aws.String("bogus"), []types.IpRange{{CidrIp: aws.String("10.0.0.0/8")}}
			_, err := c.AuthorizeSecurityGroupIngress(ctx, &ec2.AuthorizeSecurityGroupIngressInput{GroupId: aws.String(web), IpPermissions: []types.IpPermission{p}})
			return err
		}},
		"NoPorts": {reason: "TCP rules need a port range.", want: "InvalidParameterValue", args: func() error {
			p := types.IpPermission{IpProtocol: aws.String("tcp"), IpRanges: []types.IpRange{{CidrIp: aws.String("10.0.0.0/8")}}}
			_, err := c.AuthorizeSecurityGroupIngress(ctx, &ec2.AuthorizeSecurityGroupIngressInput{GroupId: aws.String(web), IpPermissions: []types.IpPermission{p}})
			return err
		}},
		"BadCidr": {reason: "Sources are CIDR blocks.", want: "InvalidParameterValue", args: func() error {
			p := tcp(22)
			p.IpRanges = []types.IpRange{{CidrIp: aws.String("10.0.0.0/40")}}
			_, err := c.AuthorizeSecurityGroupIngress(ctx, &ec2.AuthorizeSecurityGroupIngressInput{GroupId: aws.String(web), IpPermissions: []types.IpPermission{p}})
			return err
		}},
		"UnknownGroupSource": {reason: "A referenced group must exist.", want: "InvalidGroup.NotFound", args: func() error {
			p := tcp(22)
			p.UserIdGroupPairs = []types.UserIdGroupPair{{GroupId: aws.String("sg-0123456789abcdef0")}}
			_, err := c.AuthorizeSecurityGroupIngress(ctx, &ec2.AuthorizeSecurityGroupIngressInput{GroupId: aws.String(web), IpPermissions: []types.IpPermission{p}})
			return err
		}},
		"RevokeAbsent": {reason: "In a non-default VPC, revoking a rule that is not there fails.", want: "InvalidPermission.NotFound", args: func() error {
			p := tcp(8080)
			p.IpRanges = []types.IpRange{{CidrIp: aws.String("10.0.0.0/16")}}
			_, err := c.RevokeSecurityGroupIngress(ctx, &ec2.RevokeSecurityGroupIngressInput{GroupId: aws.String(web), IpPermissions: []types.IpPermission{p}})
			return err
		}},
		"RevokeUnknownRuleID": {reason: "Rule ids must exist.", want: "InvalidSecurityGroupRuleId.NotFound", args: func() error {
			_, err := c.RevokeSecurityGroupIngress(ctx, &ec2.RevokeSecurityGroupIngressInput{GroupId: aws.String(web), SecurityGroupRuleIds: []string{"sgr-0123456789abcdef0"}})
			return err
		}},
		"DuplicateName": {reason: "Group names are unique in a VPC.", want: "InvalidGroup.Duplicate", args: func() error {
			_, err := c.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{VpcId: aws.String(vpc), GroupName: aws.String("web"), Description: aws.String("again")})
			return err
		}},
		"UnknownName": {reason: "A group named by name alone is looked up in the default VPC.", want: "InvalidGroup.NotFound", args: func() error {
			_, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupNames: []string{"web"}})
			return err
		}},
		"DescribeMissing": {reason: "Describing an unknown group.", want: "InvalidGroup.NotFound", args: func() error {
			_, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupIds: []string{web, "sg-0123456789abcdef0"}})
			return err
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, errorCode(tc.args())); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}

	rules, err := c.DescribeSecurityGroupRules(ctx, &ec2.DescribeSecurityGroupRulesInput{Filters: []types.Filter{filter("group-id", web)}})
	if err != nil || len(rules.SecurityGroupRules) != 7 {
		t.Fatalf("DescribeSecurityGroupRules by group: %d rules, %v; want 6 ingress and 1 egress", len(rules.SecurityGroupRules), err)
	}
	var ref, icmp string
	for _, r := range rules.SecurityGroupRules {
		if r.ReferencedGroupInfo != nil && aws.ToString(r.ReferencedGroupInfo.GroupId) == lb {
			ref = aws.ToString(r.SecurityGroupRuleId)
		}
		if aws.ToString(r.IpProtocol) == "icmp" {
			icmp = aws.ToString(r.SecurityGroupRuleId)
		}
	}
	byID, err := c.DescribeSecurityGroupRules(ctx, &ec2.DescribeSecurityGroupRulesInput{SecurityGroupRuleIds: []string{ref}})
	if err != nil || len(byID.SecurityGroupRules) != 1 || len(byID.SecurityGroupRules[0].Tags) != 1 {
		t.Errorf("DescribeSecurityGroupRules by id: %+v, %v", byID, err)
	}
	if _, err := c.DeleteSecurityGroup(ctx, &ec2.DeleteSecurityGroupInput{GroupId: aws.String(lb)}); errorCode(err) != "DependencyViolation" {
		t.Errorf("deleting a group another group's rule refers to gave %v", err)
	}
	revoked, err := c.RevokeSecurityGroupIngress(ctx, &ec2.RevokeSecurityGroupIngressInput{GroupId: aws.String(web), SecurityGroupRuleIds: []string{ref}})
	if err != nil || len(revoked.RevokedSecurityGroupRules) != 1 {
		t.Fatalf("revoke by rule id: %+v, %v", revoked, err)
	}
	if _, err := c.DeleteSecurityGroup(ctx, &ec2.DeleteSecurityGroupInput{GroupId: aws.String(lb)}); err != nil {
		t.Errorf("once unreferenced the group can go: %v", err)
	}
	if _, err := c.RevokeSecurityGroupIngress(ctx, &ec2.RevokeSecurityGroupIngressInput{GroupId: aws.String(web), IpPermissions: []types.IpPermission{ping}}); err != nil {
		t.Errorf("revoke by value: %v", err)
	}
	if _, err := c.DescribeSecurityGroupRules(ctx, &ec2.DescribeSecurityGroupRulesInput{SecurityGroupRuleIds: []string{icmp}}); errorCode(err) != "InvalidSecurityGroupRuleId.NotFound" {
		t.Errorf("a revoked rule gave %v", err)
	}
	if _, err := c.RevokeSecurityGroupEgress(ctx, &ec2.RevokeSecurityGroupEgressInput{GroupId: aws.String(web), IpPermissions: egress}); err != nil {
		t.Fatal(err)
	}
	out := tcp(5432)
	out.IpRanges = []types.IpRange{{CidrIp: aws.String("10.0.16.0/20")}}
	if _, err := c.AuthorizeSecurityGroupEgress(ctx, &ec2.AuthorizeSecurityGroupEgressInput{GroupId: aws.String(web), IpPermissions: []types.IpPermission{out}}); err != nil {
		t.Fatal(err)
	}
	filtered, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{Filters: []types.Filter{filter("vpc-id", vpc), filter("egress.ip-permission.to-port", "5432")}})
	if err != nil || len(filtered.SecurityGroups) != 1 || aws.ToString(filtered.SecurityGroups[0].GroupId) != web {
		t.Errorf("by egress port: %+v, %v", filtered, err)
	}
}

// TestEC2DescribeSecurityGroupsBatch reads many groups by id in one call, and pages.
func TestEC2DescribeSecurityGroupsBatch(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	var ids []string
	for i := range 200 {
		ids = append(ids, createGroup(t, c, vpc, fmt.Sprintf("app-%03d", i)))
	}
	before := e.Calls.Total("EC2", "DescribeSecurityGroups")
	out, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupIds: ids})
	if err != nil || len(out.SecurityGroups) != 200 || e.Calls.Total("EC2", "DescribeSecurityGroups")-before != 1 {
		t.Fatalf("200 ids: %d groups, %v", len(out.SecurityGroups), err)
	}
	byName, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{Filters: []types.Filter{filter("group-name", "app-01*"), filter("tag:Name", "app-*")}})
	if err != nil || len(byName.SecurityGroups) != 10 {
		t.Errorf("by group-name and tag: %d, %v", len(byName.SecurityGroups), err)
	}
	n := 0
	p := ec2.NewDescribeSecurityGroupsPaginator(c, &ec2.DescribeSecurityGroupsInput{MaxResults: aws.Int32(50), Filters: []types.Filter{filter("vpc-id", vpc)}})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n += len(page.SecurityGroups)
	}
	if n != 201 {
		t.Errorf("paging through the VPC's groups found %d, want 200 and the default group", n)
	}
}
