package emulator_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	acmtypes "github.com/aws/aws-sdk-go-v2/service/acm/types"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestELBv2ListenerCertificatesInUse checks that an HTTPS listener's ACM certificate is in use
// by its load balancer, so that ACM refuses to delete it, and is free again once no listener
// names it: after the listener moves to another certificate, and after the load balancer goes.
// A certificate ARN ACM does not know is still accepted.
func TestELBv2ListenerCertificatesInUse(t *testing.T) {
	_, url := start(t, emulator.Options{Transitions: map[string]time.Duration{"ACM": 0}})
	cfg := sdkConfig(t, url, "AKID", 1)
	ctx := context.Background()
	ec := ec2.NewFromConfig(cfg)
	vpc := createVpc(t, ec, "10.0.0.0/16")
	n := network{vpc: vpc, subnets: []string{createSubnet(t, ec, vpc, "10.0.1.0/24"), createSubnet(t, ec, vpc, "10.0.2.0/24")}, group: createGroup(t, ec, vpc, "web")}
	c, certs := elb.NewFromConfig(cfg), acm.NewFromConfig(cfg)
	request := func(domain string) *string {
		out, err := certs.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String(domain), ValidationMethod: acmtypes.ValidationMethodDns})
		if err != nil {
			t.Fatal(err)
		}
		return out.CertificateArn
	}
	users := func(arn *string) []string {
		t.Helper()
		return describeCert(t, certs, arn).InUseBy
	}
	first, second := request("www.example.com"), request("shop.example.com")
	lb := createLB(t, c, alb("web", n)).LoadBalancerArn
	fixed := []types.Action{{Type: types.ActionTypeEnumFixedResponse, FixedResponseConfig: &types.FixedResponseActionConfig{StatusCode: aws.String("404")}}}
	l, err := c.CreateListener(ctx, &elb.CreateListenerInput{LoadBalancerArn: lb, Protocol: types.ProtocolEnumHttps, Port: aws.Int32(443),
		Certificates: []types.Certificate{{CertificateArn: first}}, DefaultActions: fixed})
	if err != nil {
		t.Fatal(err)
	}
	if got := users(first); !cmp.Equal(got, []string{aws.ToString(lb)}) {
		t.Errorf("the listener's certificate is used by %v, want the load balancer", got)
	}
	if _, err := certs.DeleteCertificate(ctx, &acm.DeleteCertificateInput{CertificateArn: first}); errorCode(err) != "ResourceInUseException" {
		t.Errorf("deleting a certificate a listener uses: %v, want ResourceInUseException", err)
	}
	if _, err := c.ModifyListener(ctx, &elb.ModifyListenerInput{ListenerArn: l.Listeners[0].ListenerArn,
		Certificates: []types.Certificate{{CertificateArn: second}}}); err != nil {
		t.Fatal(err)
	}
	if a, b := users(first), users(second); len(a) != 0 || !cmp.Equal(b, []string{aws.ToString(lb)}) {
		t.Errorf("after the listener moved: the first certificate is used by %v, the second by %v", a, b)
	}
	if _, err := c.CreateListener(ctx, &elb.CreateListenerInput{LoadBalancerArn: lb, Protocol: types.ProtocolEnumHttps, Port: aws.Int32(8443),
		Certificates: []types.Certificate{{CertificateArn: aws.String(testCert)}}, DefaultActions: fixed}); err != nil {
		t.Errorf("a certificate ACM does not know: %v, want it accepted", err)
	}
	if _, err := c.DeleteLoadBalancer(ctx, &elb.DeleteLoadBalancerInput{LoadBalancerArn: lb}); err != nil {
		t.Fatal(err)
	}
	if got := users(second); len(got) != 0 {
		t.Errorf("after the load balancer went the certificate is used by %v", got)
	}
	for _, arn := range []*string{first, second} {
		if _, err := certs.DeleteCertificate(ctx, &acm.DeleteCertificateInput{CertificateArn: arn}); err != nil {
			t.Errorf("deleting a certificate nothing uses: %v", err)
		}
	}
}
