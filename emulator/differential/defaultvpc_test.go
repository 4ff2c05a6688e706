package differential

import (
	"context"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// defaultNetwork is one side's EC2 client and what the steps learn of its default VPC: the VPC,
// its internet gateway and the group the steps create in it.
type defaultNetwork struct {
	ec2             *ec2.Client
	vpc, igw, group string
}

// defaultVpcSteps is the sequence both sides run on a new account's us-east-1: the default VPC
// and what comes with it, and the calls that fall back to it when the request names no VPC or
// subnet.
func defaultVpcSteps() []step[*defaultNetwork] {
	ctx := context.Background()
	launch := func(n *defaultNetwork, in *ec2.RunInstancesInput) outcome {
		in.ImageId, in.MinCount, in.MaxCount = aws.String("ami-0123456789abcdef0"), aws.Int32(1), aws.Int32(1)
		out, err := n.ec2.RunInstances(ctx, in)
		if err != nil {
			return observe(err, nil)
		}
		i := out.Instances[0]
		var groups []string
		for _, g := range i.SecurityGroups {
			groups = append(groups, aws.ToString(g.GroupName))
		}
		return observe(nil, map[string]string{"zone": aws.ToString(i.Placement.AvailabilityZone), "inDefaultVpc": strconv.FormatBool(aws.ToString(i.VpcId) == n.vpc),
			"public": strconv.FormatBool(i.PublicIpAddress != nil), "groups": strings.Join(groups, ",")})
	}
	return []step[*defaultNetwork]{
		{"DescribeDefaultVpc", func(n *defaultNetwork) outcome {
			out, err := n.ec2.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{Filters: []types.Filter{filter("is-default", "true")}})
			if err != nil || len(out.Vpcs) != 1 {
				return observe(err, map[string]string{"count": strconv.Itoa(len(out.Vpcs))})
			}
			v := out.Vpcs[0]
			n.vpc = aws.ToString(v.VpcId)
			return observe(nil, map[string]string{"cidr": aws.ToString(v.CidrBlock), "isDefault": strconv.FormatBool(aws.ToBool(v.IsDefault)), "state": string(v.State)})
		}},
		{"DescribeNonDefaultVpcs", func(n *defaultNetwork) outcome {
			out, err := n.ec2.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{Filters: []types.Filter{filter("is-default", "false")}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"count": strconv.Itoa(len(out.Vpcs))})
		}},
		{"DefaultSubnets", func(n *defaultNetwork) outcome {
			out, err := n.ec2.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{Filters: []types.Filter{filter("default-for-az", "true")}})
			if err != nil {
				return observe(err, nil)
			}
			f := map[string]string{"count": strconv.Itoa(len(out.Subnets))}
			for _, s := range out.Subnets {
				f[aws.ToString(s.AvailabilityZone)] = aws.ToString(s.CidrBlock) + " public=" + strconv.FormatBool(aws.ToBool(s.MapPublicIpOnLaunch)) +
					" inDefaultVpc=" + strconv.FormatBool(aws.ToString(s.VpcId) == n.vpc)
			}
			return observe(nil, f)
		}},
		{"DefaultInternetGateway", func(n *defaultNetwork) outcome {
			out, err := n.ec2.DescribeInternetGateways(ctx, &ec2.DescribeInternetGatewaysInput{Filters: []types.Filter{filter("attachment.vpc-id", n.vpc)}})
			if err != nil {
				return observe(err, nil)
			}
			if len(out.InternetGateways) == 1 {
				n.igw = aws.ToString(out.InternetGateways[0].InternetGatewayId)
			}
			return observe(nil, map[string]string{"count": strconv.Itoa(len(out.InternetGateways))})
		}},
		{"DefaultMainRouteTable", func(n *defaultNetwork) outcome {
			out, err := n.ec2.DescribeRouteTables(ctx, &ec2.DescribeRouteTablesInput{Filters: []types.Filter{filter("vpc-id", n.vpc), filter("association.main", "true")}})
			if err != nil {
				return observe(err, nil)
			}
			f := map[string]string{"count": strconv.Itoa(len(out.RouteTables))}
			for _, t := range out.RouteTables {
				for _, r := range t.Routes {
					target := aws.ToString(r.GatewayId)
					if target == n.igw && target != "" {
						target = "the default VPC's internet gateway"
					}
					f[aws.ToString(r.DestinationCidrBlock)] = target
				}
			}
			return observe(nil, f)
		}},
		{"DefaultSecurityGroup", func(n *defaultNetwork) outcome {
			out, err := n.ec2.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupNames: []string{"default"}})
			if err != nil {
				return observe(err, nil)
			}
			var vpcs []string
			for _, g := range out.SecurityGroups {
				vpcs = append(vpcs, strconv.FormatBool(aws.ToString(g.VpcId) == n.vpc))
			}
			sort.Strings(vpcs)
			return observe(nil, map[string]string{"inDefaultVpc": strings.Join(vpcs, ",")})
		}},
		{"CreateGroupWithoutVpc", func(n *defaultNetwork) outcome {
			out, err := n.ec2.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{GroupName: aws.String("web"), Description: aws.String("web")})
			if err != nil {
				return observe(err, nil)
			}
			n.group = aws.ToString(out.GroupId)
			got, err := n.ec2.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupIds: []string{n.group}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"inDefaultVpc": strconv.FormatBool(aws.ToString(got.SecurityGroups[0].VpcId) == n.vpc)})
		}},
		{"DescribeGroupByName", func(n *defaultNetwork) outcome {
			out, err := n.ec2.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupNames: []string{"web"}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"count": strconv.Itoa(len(out.SecurityGroups)), "same": strconv.FormatBool(aws.ToString(out.SecurityGroups[0].GroupId) == n.group)})
		}},
		{"DescribeUnknownGroupName", func(n *defaultNetwork) outcome {
			_, err := n.ec2.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupNames: []string{"db"}})
			return observe(err, nil)
		}},
		{"RunWithoutSubnet", func(n *defaultNetwork) outcome { return launch(n, &ec2.RunInstancesInput{}) }},
		{"RunInZoneWithoutSubnet", func(n *defaultNetwork) outcome {
			return launch(n, &ec2.RunInstancesInput{Placement: &types.Placement{AvailabilityZone: aws.String("us-east-1c")}})
		}},
		{"RunWithGroupName", func(n *defaultNetwork) outcome {
			return launch(n, &ec2.RunInstancesInput{SecurityGroups: []string{"web"}})
		}},
		{"DeleteDefaultVpcInUse", func(n *defaultNetwork) outcome {
			_, err := n.ec2.DeleteVpc(ctx, &ec2.DeleteVpcInput{VpcId: aws.String(n.vpc)})
			return observe(err, nil)
		}},
	}
}

// TestDefaultVpcAgainstMoto compares the default VPC of a new account with moto's.
func TestDefaultVpcAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	emuSide := &defaultNetwork{ec2: ec2.NewFromConfig(sdkConfig(t, emu.URL))}
	peerSide := &defaultNetwork{ec2: ec2.NewFromConfig(sdkConfig(t, peerURL))}
	// AWS gives the default VPC an internet gateway and a main route table that sends 0.0.0.0/0 to
	// it (Amazon VPC User Guide, Default VPCs: default VPC components); moto's default VPC has
	// neither.
	const noGateway = "moto's default VPC has no internet gateway; AWS's comes with one attached and a 0.0.0.0/0 route to it in the main route table"
	// RunInstances: "If you don't specify a security group ID, we use the default security group
	// for the VPC"; moto launches into the default subnet with no group at all.
	const noDefaultGroup = "moto launches without a security group; AWS puts the instance in the VPC's default security group"
	compare(t, emuSide, peerSide, "moto "+motoVersion, defaultVpcSteps(), map[string]string{
		"DefaultInternetGateway": noGateway,
		"DefaultMainRouteTable":  noGateway,
		"RunWithoutSubnet":       noDefaultGroup,
		"RunInZoneWithoutSubnet": noDefaultGroup,
	})
}
