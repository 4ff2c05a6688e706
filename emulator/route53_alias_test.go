package emulator_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	agtypes "github.com/aws/aws-sdk-go-v2/service/apigateway/types"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"
)

// TestRoute53AliasTargets checks alias targets against the services that make them, as AWS
// does: a load balancer (with or without dualstack.) in its canonical hosted zone, a CloudFront
// distribution in Z2FDTNDATAQYW2, an API Gateway regional domain in API Gateway's zone, and a
// record of another hosted zone of the account; a target the account does not have is "not
// found", one served in another zone "does not lie within the target zone"; other targets (an S3
// website endpoint) are taken as given.
func TestRoute53AliasTargets(t *testing.T) {
	ctx := context.Background()
	_, cfg, n := elbWorld(t)
	lb := createLB(t, elb.NewFromConfig(cfg), alb("shop", n))
	dist, err := cloudfront.NewFromConfig(cfg).CreateDistribution(ctx, &cloudfront.CreateDistributionInput{DistributionConfig: s3Distribution("alias-1")})
	if err != nil {
		t.Fatal(err)
	}
	cert, err := acm.NewFromConfig(cfg).RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("api.example.com")})
	if err != nil {
		t.Fatal(err)
	}
	domain, err := apigateway.NewFromConfig(cfg).CreateDomainName(ctx, &apigateway.CreateDomainNameInput{DomainName: aws.String("api.example.com"),
		EndpointConfiguration: &agtypes.EndpointConfiguration{Types: []agtypes.EndpointType{agtypes.EndpointTypeRegional}}, RegionalCertificateArn: cert.CertificateArn})
	if err != nil {
		t.Fatal(err)
	}
	r53 := route53.NewFromConfig(cfg)
	zone := func(name string) *string {
		out, err := r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String(name), CallerReference: aws.String(name)})
		if err != nil {
			t.Fatal(err)
		}
		return out.HostedZone.Id
	}
	id, other := zone("example.com"), zone("example.net")
	if _, err := r53.ChangeResourceRecordSets(ctx, &route53.ChangeResourceRecordSetsInput{HostedZoneId: other, ChangeBatch: &types.ChangeBatch{Changes: []types.Change{
		{Action: types.ChangeActionCreate, ResourceRecordSet: &types.ResourceRecordSet{Name: aws.String("www.example.net"), Type: types.RRTypeA, TTL: aws.Int64(60),
			ResourceRecords: []types.ResourceRecord{{Value: aws.String("192.0.2.1")}}}}}}}); err != nil {
		t.Fatal(err)
	}
	otherID := aws.String(aws.ToString(other)[len("/hostedzone/"):])
	lbZone, lbName := lb.CanonicalHostedZoneId, aws.ToString(lb.DNSName)
	for _, c := range []struct {
		what, name, target string
		zone               *string
		text               string // "" for success
	}{
		{"the ALB", "www", lbName, lbZone, ""},
		{"the ALB, dual-stack", "www6", "dualstack." + lbName, lbZone, ""},
		{"the ALB in the NLBs' zone", "bad1", lbName, aws.String("Z26RNL4JYFTOTI"), "but the alias target name does not lie within the target zone"},
		{"a load balancer the account lacks", "bad2", "gone-123.us-east-1.elb.amazonaws.com", lbZone, "Tried to create an alias that targets gone-123.us-east-1.elb.amazonaws.com., type A in zone " + aws.ToString(lbZone) + ", but that target was not found"},
		{"the distribution", "cdn", aws.ToString(dist.Distribution.DomainName), aws.String("Z2FDTNDATAQYW2"), ""},
		{"a distribution the account lacks", "bad3", "d0000000000000.cloudfront.net", aws.String("Z2FDTNDATAQYW2"), "but that target was not found"},
		{"the API domain", "api", aws.ToString(domain.RegionalDomainName), domain.RegionalHostedZoneId, ""},
		{"a record of another zone", "net", "www.example.net", otherID, ""},
		{"a missing record of another zone", "bad4", "api.example.net", otherID, "but that target was not found"},
		{"a name outside another zone", "bad5", "www.example.org", otherID, "but the alias target name does not lie within the target zone"},
		{"an S3 website endpoint, taken as given", "site", "s3-website-us-east-1.amazonaws.com", aws.String("Z3AQBSTGFYJSTF"), ""},
	} {
		_, err := r53.ChangeResourceRecordSets(ctx, &route53.ChangeResourceRecordSetsInput{HostedZoneId: id, ChangeBatch: &types.ChangeBatch{Changes: []types.Change{
			{Action: types.ChangeActionCreate, ResourceRecordSet: &types.ResourceRecordSet{Name: aws.String(c.name + ".example.com"), Type: types.RRTypeA,
				AliasTarget: &types.AliasTarget{DNSName: aws.String(c.target), HostedZoneId: c.zone}}}}}})
		if c.text == "" {
			if err != nil {
				t.Errorf("alias to %s: %v", c.what, err)
			}
			continue
		}
		wantMessage(t, "alias to "+c.what, err, "InvalidChangeBatch", c.text)
	}
}
