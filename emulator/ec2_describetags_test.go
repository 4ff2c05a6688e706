package emulator_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// tagSpec returns the TagSpecifications that give a new resource of type rt the tags pairs
// ("key=value") name.
func tagSpec(rt types.ResourceType, pairs ...string) []types.TagSpecification {
	var tags []types.Tag
	for _, p := range pairs {
		k, v, _ := strings.Cut(p, "=")
		tags = append(tags, types.Tag{Key: aws.String(k), Value: aws.String(v)})
	}
	return []types.TagSpecification{{ResourceType: rt, Tags: tags}}
}

// describedTags returns DescribeTags' answer as "resource-type id key=value" lines, in the
// order it gave them.
func describedTags(tags []types.TagDescription) []string {
	var out []string
	for _, d := range tags {
		out = append(out, string(d.ResourceType)+" "+aws.ToString(d.ResourceId)+" "+aws.ToString(d.Key)+"="+aws.ToString(d.Value))
	}
	return out
}

// TestEC2DescribeTags tags a VPC, a subnet, an internet gateway, an Elastic IP, a security
// group and an instance, and checks DescribeTags with each documented filter, its order (by
// resource id, then key), its MaxResults bounds and NextToken pages, its refusal of an
// undocumented filter, and that a deleted resource's tags are gone.
func TestEC2DescribeTags(t *testing.T) {
	_, url := start(t, emulator.Options{})
	c := ec2.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	vpc, err := c.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.0.0.0/16"), TagSpecifications: tagSpec(types.ResourceTypeVpc, "Name=tags", "env=prod")})
	if err != nil {
		t.Fatal(err)
	}
	subnet, err := c.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, CidrBlock: aws.String("10.0.1.0/24"), TagSpecifications: tagSpec(types.ResourceTypeSubnet, "env=prod")})
	if err != nil {
		t.Fatal(err)
	}
	igw, err := c.CreateInternetGateway(ctx, &ec2.CreateInternetGatewayInput{TagSpecifications: tagSpec(types.ResourceTypeInternetGateway, "env=dev", "owner=net")})
	if err != nil {
		t.Fatal(err)
	}
	eip, err := c.AllocateAddress(ctx, &ec2.AllocateAddressInput{Domain: types.DomainTypeVpc, TagSpecifications: tagSpec(types.ResourceTypeElasticIp, "env=prod")})
	if err != nil {
		t.Fatal(err)
	}
	group, err := c.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{GroupName: aws.String("web"), Description: aws.String("web"), VpcId: vpc.Vpc.VpcId,
		TagSpecifications: tagSpec(types.ResourceTypeSecurityGroup, "team=web")})
	if err != nil {
		t.Fatal(err)
	}
	run, err := c.RunInstances(ctx, &ec2.RunInstancesInput{ImageId: aws.String(testAMI), MinCount: aws.Int32(1), MaxCount: aws.Int32(1), SubnetId: subnet.Subnet.SubnetId,
		TagSpecifications: tagSpec(types.ResourceTypeInstance, "env=prod")})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{"vpc": aws.ToString(vpc.Vpc.VpcId), "subnet": aws.ToString(subnet.Subnet.SubnetId), "igw": aws.ToString(igw.InternetGateway.InternetGatewayId),
		"eip": aws.ToString(eip.AllocationId), "sg": aws.ToString(group.GroupId), "i": aws.ToString(run.Instances[0].InstanceId)}
	line := func(rt, id, tag string) string { return rt + " " + ids[id] + " " + tag }
	filter := func(name string, values ...string) types.Filter {
		return types.Filter{Name: aws.String(name), Values: values}
	}
	cases := map[string]struct {
		reason  string
		filters []types.Filter
		want    []string
	}{
		"ByResourceType": {"resource-type keeps one type, named as TagSpecification names it.", []types.Filter{filter("resource-type", "elastic-ip", "internet-gateway")},
			sortedByResource([]string{line("elastic-ip", "eip", "env=prod"), line("internet-gateway", "igw", "env=dev"), line("internet-gateway", "igw", "owner=net")})},
		"ByResourceID": {"resource-id keeps one resource's tags, by key.", []types.Filter{filter("resource-id", ids["vpc"])},
			[]string{line("vpc", "vpc", "Name=tags"), line("vpc", "vpc", "env=prod")}},
		"ByKeyAndValue": {"key and value are ANDed, and take wildcards.", []types.Filter{filter("key", "env"), filter("value", "pro*"), filter("resource-type", "vpc", "subnet", "instance")},
			sortedByResource([]string{line("vpc", "vpc", "env=prod"), line("subnet", "subnet", "env=prod"), line("instance", "i", "env=prod")})},
		"ByTag": {"tag:<key> keeps every tag of the resources that have the tag.", []types.Filter{filter("tag:owner", "net")},
			[]string{line("internet-gateway", "igw", "env=dev"), line("internet-gateway", "igw", "owner=net")}},
		"SecurityGroup": {"A security group is a security-group.", []types.Filter{filter("key", "team")}, []string{line("security-group", "sg", "team=web")}},
		"NoMatch":       {"A value no tag has keeps nothing.", []types.Filter{filter("value", "staging")}, nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := c.DescribeTags(ctx, &ec2.DescribeTagsInput{Filters: tc.filters})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, describedTags(out.Tags)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}

	all, err := c.DescribeTags(ctx, &ec2.DescribeTagsInput{})
	if err != nil || len(all.Tags) != 8 || all.NextToken != nil {
		t.Fatalf("DescribeTags without filters: %v, %v; want the 8 tags in one answer", describedTags(all.Tags), err)
	}
	if got := describedTags(all.Tags); !cmp.Equal(got, sortedByResource(got)) {
		t.Errorf("DescribeTags order: %v; want by resource id, then key", got)
	}
	var paged []types.TagDescription
	p := ec2.NewDescribeTagsPaginator(c, &ec2.DescribeTagsInput{MaxResults: aws.Int32(5)})
	for pages := 0; p.HasMorePages(); pages++ {
		page, err := p.NextPage(ctx)
		if err != nil || pages > 1 || len(page.Tags) > 5 {
			t.Fatalf("page %d: %v, %v", pages, describedTags(page.Tags), err)
		}
		paged = append(paged, page.Tags...)
	}
	if diff := cmp.Diff(describedTags(all.Tags), describedTags(paged)); diff != "" {
		t.Errorf("pages of 5 differ from the whole answer:\n%s", diff)
	}

	refused := map[string]struct {
		reason string
		in     ec2.DescribeTagsInput
		want   string
	}{
		"MaxResultsLow":  {"MaxResults is at least 5.", ec2.DescribeTagsInput{MaxResults: aws.Int32(4)}, "InvalidParameterValue"},
		"MaxResultsHigh": {"MaxResults is at most 1000.", ec2.DescribeTagsInput{MaxResults: aws.Int32(1001)}, "InvalidParameterValue"},
		"BadToken":       {"A token no page gave is refused.", ec2.DescribeTagsInput{MaxResults: aws.Int32(5), NextToken: aws.String("nope")}, "InvalidPaginationToken"},
		"TagKeyFilter":   {"tag-key is not a DescribeTags filter.", ec2.DescribeTagsInput{Filters: []types.Filter{filter("tag-key", "env")}}, "InvalidParameterValue"},
	}
	for name, tc := range refused {
		t.Run(name, func(t *testing.T) {
			_, err := c.DescribeTags(ctx, &tc.in)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}

	if _, err := c.DeleteSecurityGroup(ctx, &ec2.DeleteSecurityGroupInput{GroupId: group.GroupId}); err != nil {
		t.Fatal(err)
	}
	gone, err := c.DescribeTags(ctx, &ec2.DescribeTagsInput{Filters: []types.Filter{filter("resource-id", ids["sg"])}})
	if err != nil || len(gone.Tags) != 0 {
		t.Errorf("tags of a deleted security group: %v, %v", describedTags(gone.Tags), err)
	}
}

// sortedByResource sorts describedTags lines by resource id, then key, keeping lines unchanged.
func sortedByResource(lines []string) []string {
	out := append([]string(nil), lines...)
	slices.SortStableFunc(out, func(a, b string) int {
		return strings.Compare(strings.SplitN(a, " ", 2)[1], strings.SplitN(b, " ", 2)[1])
	})
	return out
}
