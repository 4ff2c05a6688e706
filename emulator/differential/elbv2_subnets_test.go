package differential

import (
	"context"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// zonedSubnets is one side's clients and three subnets of one VPC: two in us-east-1a, one in
// us-east-1b.
type zonedSubnets struct {
	ec2        *ec2.Client
	elb        *elb.Client
	a1, a2, b1 string
}

// setup makes the VPC and its subnets.
func (z *zonedSubnets) setup(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	vpc, err := z.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.0.0.0/16")})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range []struct {
		zone string
		id   *string
	}{{"us-east-1a", &z.a1}, {"us-east-1a", &z.a2}, {"us-east-1b", &z.b1}} {
		out, err := z.ec2.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, AvailabilityZone: aws.String(s.zone),
			CidrBlock: aws.String("10.0." + strconv.Itoa(i) + ".0/24")})
		if err != nil {
			t.Fatal(err)
		}
		*s.id = aws.ToString(out.Subnet.SubnetId)
	}
}

// subnetSteps creates load balancers on subnets of one and two zones.
func subnetSteps() []step[*zonedSubnets] {
	create := func(name string, typ types.LoadBalancerTypeEnum, subnets func(z *zonedSubnets) []string) step[*zonedSubnets] {
		return step[*zonedSubnets]{name, errorOutcome(func(z *zonedSubnets) error {
			_, err := z.elb.CreateLoadBalancer(context.Background(), &elb.CreateLoadBalancerInput{Name: aws.String("diff-" + name), Type: typ, Subnets: subnets(z)})
			return err
		})}
	}
	return []step[*zonedSubnets]{
		create("ALBOneSubnet", types.LoadBalancerTypeEnumApplication, func(z *zonedSubnets) []string { return []string{z.a1} }),
		create("ALBOneZone", types.LoadBalancerTypeEnumApplication, func(z *zonedSubnets) []string { return []string{z.a1, z.a2} }),
		create("ALBTwoZones", types.LoadBalancerTypeEnumApplication, func(z *zonedSubnets) []string { return []string{z.a1, z.b1} }),
		create("NLBOneSubnet", types.LoadBalancerTypeEnumNetwork, func(z *zonedSubnets) []string { return []string{z.a1} }),
	}
}

// TestELBv2SubnetsAgainstMoto compares the subnets CreateLoadBalancer accepts with moto's.
func TestELBv2SubnetsAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	emuCfg, peerCfg := sdkConfig(t, emu.URL), sdkConfig(t, peerURL)
	emuSide := &zonedSubnets{ec2: ec2.NewFromConfig(emuCfg), elb: elb.NewFromConfig(emuCfg)}
	peerSide := &zonedSubnets{ec2: ec2.NewFromConfig(peerCfg), elb: elb.NewFromConfig(peerCfg)}
	emuSide.setup(t)
	peerSide.setup(t)
	compare(t, emuSide, peerSide, "moto "+motoVersion, subnetSteps(), map[string]string{
		"ALBOneSubnet": "moto creates an Application Load Balancer on one subnet; AWS answers ValidationError, \"At least two subnets in two " +
			"different Availability Zones must be specified\" (Availability Zones for your Application Load Balancer)",
		"ALBOneZone": "moto accepts two subnets of one zone; AWS answers InvalidConfigurationRequest, \"A load balancer cannot be attached to " +
			"multiple subnets in the same Availability Zone\" (CreateLoadBalancer: one subnet per zone)",
	})
}
