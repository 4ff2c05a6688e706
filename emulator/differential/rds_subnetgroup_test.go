package differential

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/emulator"
)

// subnetGroups is one side's EC2 and RDS clients and the subnets the steps made, one per zone
// (moto's RDS looks the subnets of a subnet group up in its EC2).
type subnetGroups struct {
	ec2     *ec2.Client
	rds     *rds.Client
	subnets []string
}

// subnetGroupSteps is the DB subnet group sequence both sides run: made with two subnets,
// changed to three and back to two, and the changes RDS refuses.
func subnetGroupSteps() []step[*subnetGroups] {
	ctx := context.Background()
	modify := func(name string, n int, description *string) func(c *subnetGroups) outcome {
		return func(c *subnetGroups) outcome {
			out, err := c.rds.ModifyDBSubnetGroup(ctx, &rds.ModifyDBSubnetGroupInput{DBSubnetGroupName: aws.String(name), SubnetIds: c.subnets[:n],
				DBSubnetGroupDescription: description})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"name": aws.ToString(out.DBSubnetGroup.DBSubnetGroupName), "subnets": strconv.Itoa(len(out.DBSubnetGroup.Subnets))})
		}
	}
	describe := func(c *subnetGroups) outcome {
		out, err := c.rds.DescribeDBSubnetGroups(ctx, &rds.DescribeDBSubnetGroupsInput{DBSubnetGroupName: aws.String("diff-private")})
		if err != nil {
			return observe(err, nil)
		}
		g := out.DBSubnetGroups[0]
		return observe(nil, map[string]string{"subnets": strconv.Itoa(len(g.Subnets)), "description": aws.ToString(g.DBSubnetGroupDescription)})
	}
	return []step[*subnetGroups]{
		{"MakeSubnets", func(c *subnetGroups) outcome {
			vpc, err := c.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.30.0.0/16")})
			if err != nil {
				return observe(err, nil)
			}
			for n, zone := range []string{"a", "b", "c"} {
				s, err := c.ec2.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, CidrBlock: aws.String(fmt.Sprintf("10.30.%d.0/24", n)),
					AvailabilityZone: aws.String("us-east-1" + zone)})
				if err != nil {
					return observe(err, nil)
				}
				c.subnets = append(c.subnets, aws.ToString(s.Subnet.SubnetId))
			}
			return observe(nil, nil)
		}},
		{"CreateWithTwoSubnets", func(c *subnetGroups) outcome {
			_, err := c.rds.CreateDBSubnetGroup(ctx, &rds.CreateDBSubnetGroupInput{DBSubnetGroupName: aws.String("diff-private"),
				DBSubnetGroupDescription: aws.String("private"), SubnetIds: c.subnets[:2]})
			return observe(err, nil)
		}},
		{"ModifyToThree", modify("diff-private", 3, aws.String("moved"))},
		{"DescribeThree", describe},
		{"ModifyBackToTwo", modify("diff-private", 2, aws.String("moved back"))},
		{"DescribeTwo", describe},
		{"ModifyUnknown", modify("diff-nothing", 2, aws.String("nothing"))},
		{"ModifyWithoutDescription", modify("diff-private", 3, nil)},
		{"DescribeKeptDescription", describe},
	}
}

// TestSubnetGroupsAgainstMoto compares DB subnet group changes (ModifyDBSubnetGroup) with
// moto's RDS.
func TestSubnetGroupsAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	side := func(url string) *subnetGroups {
		cfg := sdkConfig(t, url)
		return &subnetGroups{ec2: ec2.NewFromConfig(cfg), rds: rds.NewFromConfig(cfg)}
	}
	// moto 5.2.1's modify_db_subnet_group pops the group from its backend and never stores it
	// again, so the group is gone after its first change, and a name it does not hold is a
	// KeyError (HTTP 500). AWS changes the group in place and answers an unknown name with
	// DBSubnetGroupNotFoundFault (Amazon RDS API reference, ModifyDBSubnetGroup); the emulator
	// follows AWS.
	const lost = "moto loses a DB subnet group on its first ModifyDBSubnetGroup"
	const keyError = "moto answers ModifyDBSubnetGroup of a group it does not hold with HTTP 500; AWS answers DBSubnetGroupNotFoundFault"
	compare(t, side(emu.URL), side(peerURL), "moto "+motoVersion, subnetGroupSteps(), map[string]string{
		"DescribeThree":            lost,
		"ModifyBackToTwo":          lost + ", then " + keyError,
		"DescribeTwo":              lost,
		"ModifyUnknown":            keyError,
		"ModifyWithoutDescription": lost + ", then " + keyError,
		"DescribeKeptDescription":  lost,
	})
}
