package differential

import (
	"context"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// aliasSide is one side's clients for the alias sequence and what its steps made: the zone, the
// load balancer's DNS name and canonical hosted zone.
type aliasSide struct {
	r53          *route53.Client
	ec2          *ec2.Client
	elb          *elb.Client
	zone         *string
	lbName, lbZn string
}

// aliasSteps is the sequence both sides run: a zone, an Application Load Balancer, and alias
// records to it, to a load balancer and a distribution that do not exist, to the load balancer
// in another zone, and to a missing record of another hosted zone.
func aliasSteps() []step[*aliasSide] {
	ctx := context.Background()
	alias := func(name string, target func(s *aliasSide) (string, string)) func(s *aliasSide) outcome {
		return func(s *aliasSide) outcome {
			dns, zone := target(s)
			_, err := s.r53.ChangeResourceRecordSets(ctx, &route53.ChangeResourceRecordSetsInput{HostedZoneId: s.zone, ChangeBatch: &types.ChangeBatch{Changes: []types.Change{
				{Action: types.ChangeActionCreate, ResourceRecordSet: &types.ResourceRecordSet{Name: aws.String(name), Type: types.RRTypeA,
					AliasTarget: &types.AliasTarget{DNSName: aws.String(dns), HostedZoneId: aws.String(zone)}}}}}})
			return observe(err, nil)
		}
	}
	return []step[*aliasSide]{
		{"CreateHostedZone", func(s *aliasSide) outcome {
			out, err := s.r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("alias.example.com"), CallerReference: aws.String("alias-1")})
			if err == nil {
				s.zone = out.HostedZone.Id
			}
			return observe(err, nil)
		}},
		{"CreateLoadBalancer", func(s *aliasSide) outcome {
			vpc, err := s.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.7.0.0/16")})
			if err != nil {
				return observe(err, nil)
			}
			var subnets []string
			for i, az := range []string{"us-east-1a", "us-east-1b"} {
				sn, err := s.ec2.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, CidrBlock: aws.String("10.7." + strconv.Itoa(i) + ".0/24"), AvailabilityZone: aws.String(az)})
				if err != nil {
					return observe(err, nil)
				}
				subnets = append(subnets, aws.ToString(sn.Subnet.SubnetId))
			}
			out, err := s.elb.CreateLoadBalancer(ctx, &elb.CreateLoadBalancerInput{Name: aws.String("alias-lb"), Subnets: subnets})
			if err != nil {
				return observe(err, nil)
			}
			s.lbName, s.lbZn = aws.ToString(out.LoadBalancers[0].DNSName), aws.ToString(out.LoadBalancers[0].CanonicalHostedZoneId)
			return observe(nil, map[string]string{"zone": s.lbZn})
		}},
		{"AliasToLoadBalancer", alias("www.alias.example.com", func(s *aliasSide) (string, string) { return s.lbName, s.lbZn })},
		{"AliasToDualStack", alias("www6.alias.example.com", func(s *aliasSide) (string, string) { return "dualstack." + s.lbName, s.lbZn })},
		{"AliasToMissingLoadBalancer", alias("gone.alias.example.com", func(s *aliasSide) (string, string) {
			return "gone-1234567890.us-east-1.elb.amazonaws.com", s.lbZn
		})},
		{"AliasInOtherZone", alias("nlb.alias.example.com", func(s *aliasSide) (string, string) { return s.lbName, "Z26RNL4JYFTOTI" })},
		{"AliasToMissingDistribution", alias("cdn.alias.example.com", func(*aliasSide) (string, string) {
			return "d0000000000000.cloudfront.net", "Z2FDTNDATAQYW2"
		})},
		{"AliasToMissingRecordOfZone", alias("self.alias.example.com", func(s *aliasSide) (string, string) {
			return "missing.alias.example.com", aws.ToString(s.zone)[len("/hostedzone/"):]
		})},
	}
}

// TestRoute53AliasTargetsAgainstMoto runs the alias sequence on the emulator and on moto. The
// emulator checks alias targets against the load balancers, distributions and API domains of
// the account, as AWS does; moto checks none of them.
func TestRoute53AliasTargetsAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	side := func(cfg aws.Config) *aliasSide {
		return &aliasSide{r53: route53.NewFromConfig(cfg), ec2: ec2.NewFromConfig(cfg), elb: elb.NewFromConfig(cfg)}
	}
	compare(t, side(sdkConfig(t, emu.URL)), side(sdkConfig(t, peerURL)), "moto "+motoVersion, aliasSteps(), map[string]string{
		"CreateLoadBalancer": "moto gives every load balancer the made-up hosted zone Z2P70J7EXAMPLE; AWS gives an Application Load Balancer " +
			"of us-east-1 Z35SXDOTRQ7X7K (Elastic Load Balancing endpoints and quotas)",
		"AliasToMissingLoadBalancer": "moto accepts an alias to a load balancer the account does not have; AWS answers InvalidChangeBatch " +
			"(Tried to create an alias that targets …, but that target was not found)",
		"AliasInOtherZone": "moto accepts an alias to a load balancer in a hosted zone that does not serve it; AWS answers InvalidChangeBatch " +
			"(… but the alias target name does not lie within the target zone)",
		"AliasToMissingDistribution": "moto accepts an alias to a distribution the account does not have; AWS answers InvalidChangeBatch",
		"AliasToMissingRecordOfZone": "moto accepts an alias to a record of the zone that does not exist; AWS answers InvalidChangeBatch " +
			"(… but that target was not found)",
	})
}
