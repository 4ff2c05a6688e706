package differential

import (
	"context"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// taggedNetwork is one side's EC2 client and the roles of the resources the DescribeTags steps
// tag, by id, so that the two sides' answers compare without their ids.
type taggedNetwork struct {
	ec2   *ec2.Client
	roles map[string]string
}

// tagged returns TagSpecifications giving a resource of type rt the tags of pairs ("k=v").
func tagged(rt types.ResourceType, pairs ...string) []types.TagSpecification {
	var tags []types.Tag
	for _, p := range pairs {
		k, v, _ := strings.Cut(p, "=")
		tags = append(tags, types.Tag{Key: aws.String(k), Value: aws.String(v)})
	}
	return []types.TagSpecification{{ResourceType: rt, Tags: tags}}
}

// describeTagsSteps is the sequence both sides run: a VPC, a subnet, an internet gateway, a
// security group and an Elastic IP made with tags, then DescribeTags with each documented
// filter, MaxResults and a filter DescribeTags does not document.
func describeTagsSteps() []step[*taggedNetwork] {
	ctx := context.Background()
	created := func(role string, create func(n *taggedNetwork) (string, error)) step[*taggedNetwork] {
		return step[*taggedNetwork]{"Create" + role, func(n *taggedNetwork) outcome {
			id, err := create(n)
			if err == nil {
				n.roles[id] = role
			}
			return observe(err, nil)
		}}
	}
	vpcOf := func(n *taggedNetwork) *string {
		for id, role := range n.roles {
			if role == "Vpc" {
				return aws.String(id)
			}
		}
		return nil
	}
	describe := func(name string, in func(n *taggedNetwork) *ec2.DescribeTagsInput) step[*taggedNetwork] {
		return step[*taggedNetwork]{name, func(n *taggedNetwork) outcome {
			out, err := n.ec2.DescribeTags(ctx, in(n))
			if err != nil {
				return observe(err, nil)
			}
			var lines []string
			for _, d := range out.Tags {
				if role, ok := n.roles[aws.ToString(d.ResourceId)]; ok {
					lines = append(lines, role+"/"+string(d.ResourceType)+" "+aws.ToString(d.Key)+"="+aws.ToString(d.Value))
				}
			}
			slices.Sort(lines)
			return observe(nil, map[string]string{"tags": strings.Join(lines, ","), "more": strconv.FormatBool(out.NextToken != nil)})
		}}
	}
	filtered := func(name string, filters ...types.Filter) step[*taggedNetwork] {
		return describe(name, func(*taggedNetwork) *ec2.DescribeTagsInput { return &ec2.DescribeTagsInput{Filters: filters} })
	}
	filter := func(name string, values ...string) types.Filter {
		return types.Filter{Name: aws.String(name), Values: values}
	}
	return []step[*taggedNetwork]{
		created("Vpc", func(n *taggedNetwork) (string, error) {
			out, err := n.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.0.0.0/16"), TagSpecifications: tagged(types.ResourceTypeVpc, "Name=tags", "env=prod")})
			if err != nil {
				return "", err
			}
			return aws.ToString(out.Vpc.VpcId), nil
		}),
		created("Subnet", func(n *taggedNetwork) (string, error) {
			out, err := n.ec2.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: vpcOf(n), CidrBlock: aws.String("10.0.1.0/24"), TagSpecifications: tagged(types.ResourceTypeSubnet, "env=prod")})
			if err != nil {
				return "", err
			}
			return aws.ToString(out.Subnet.SubnetId), nil
		}),
		created("Gateway", func(n *taggedNetwork) (string, error) {
			out, err := n.ec2.CreateInternetGateway(ctx, &ec2.CreateInternetGatewayInput{TagSpecifications: tagged(types.ResourceTypeInternetGateway, "env=dev", "owner=net")})
			if err != nil {
				return "", err
			}
			return aws.ToString(out.InternetGateway.InternetGatewayId), nil
		}),
		created("Group", func(n *taggedNetwork) (string, error) {
			out, err := n.ec2.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{GroupName: aws.String("web"), Description: aws.String("web"), VpcId: vpcOf(n),
				TagSpecifications: tagged(types.ResourceTypeSecurityGroup, "team=web")})
			if err != nil {
				return "", err
			}
			return aws.ToString(out.GroupId), nil
		}),
		created("Address", func(n *taggedNetwork) (string, error) {
			out, err := n.ec2.AllocateAddress(ctx, &ec2.AllocateAddressInput{Domain: types.DomainTypeVpc, TagSpecifications: tagged(types.ResourceTypeElasticIp, "env=prod")})
			if err != nil {
				return "", err
			}
			return aws.ToString(out.AllocationId), nil
		}),
		filtered("ByResourceType", filter("resource-type", "vpc", "subnet", "internet-gateway", "security-group")),
		filtered("ByElasticIpType", filter("resource-type", "elastic-ip")),
		describe("ByResourceId", func(n *taggedNetwork) *ec2.DescribeTagsInput {
			return &ec2.DescribeTagsInput{Filters: []types.Filter{filter("resource-id", aws.ToString(vpcOf(n)))}}
		}),
		filtered("ByKey", filter("key", "env"), filter("resource-type", "vpc", "subnet", "internet-gateway")),
		filtered("ByValueWildcard", filter("value", "pro*", "we?"), filter("resource-type", "vpc", "subnet", "security-group")),
		filtered("ByTag", filter("tag:owner", "net")),
		filtered("UndocumentedFilter", filter("tag-key", "env")),
		describe("MaxResultsTooSmall", func(*taggedNetwork) *ec2.DescribeTagsInput { return &ec2.DescribeTagsInput{MaxResults: aws.Int32(4)} }),
		describe("FirstPageOfFive", func(*taggedNetwork) *ec2.DescribeTagsInput { return &ec2.DescribeTagsInput{MaxResults: aws.Int32(5)} }),
	}
}

// TestDescribeTagsAgainstMoto compares EC2's DescribeTags with moto's.
func TestDescribeTagsAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	emuSide := &taggedNetwork{ec2: ec2.NewFromConfig(sdkConfig(t, emu.URL)), roles: map[string]string{}}
	peerSide := &taggedNetwork{ec2: ec2.NewFromConfig(sdkConfig(t, peerURL)), roles: map[string]string{}}
	compare(t, emuSide, peerSide, "moto "+motoVersion, describeTagsSteps(), map[string]string{
		"ByElasticIpType": "moto names an Elastic IP's resource type vpc-elastic-ip, so the filter finds none; AWS's resource type is elastic-ip " +
			"(DescribeTags, resource-type filter; TagSpecification)",
		"ByTag": "moto ignores the tag:<key> filter and answers every tag; AWS keeps the tags of the resources that have the tag (DescribeTags, Filters)",
		"UndocumentedFilter": "moto ignores a filter it does not know; the emulator answers InvalidParameterValue, as EC2 does for a filter an " +
			"operation does not document (DescribeTags lists key, resource-id, resource-type, tag:<key> and value)",
		"MaxResultsTooSmall": "moto does not check MaxResults; AWS takes 5 to 1000 (DescribeTags, MaxResults) and answers InvalidParameterValue",
		"FirstPageOfFive":    "moto does not paginate DescribeTags: it answers every tag at once; AWS answers at most MaxResults and a NextToken",
	})
}
