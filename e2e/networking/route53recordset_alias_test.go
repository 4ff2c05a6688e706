package networking_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	acmtypes "github.com/aws/aws-sdk-go-v2/service/acm/types"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/edge"
	edgev1 "github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking"
	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestRoute53RecordSetCloudFrontAlias runs the networking family with the edge family: an alias
// record set names the CloudFront distribution of examples/edge/cloudfrontdistribution-domain.yaml
// by reference and gets its domain name in CloudFront's hosted zone; an alias to a distribution
// the account does not have is refused by Route 53 (the emulator checks alias targets as AWS
// does) and reported as terminal.
func TestRoute53RecordSetCloudFrontAlias(t *testing.T) {
	emu := emulator.New(emulator.Options{Transitions: map[string]time.Duration{"CloudFront": 300 * time.Millisecond, "Route53": 300 * time.Millisecond}})
	env := families.Start(t, emu, func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond }, networking.Family(), edge.Family())
	ns := env.Namespace(t)
	env.Provider(t, ns, "production-aws", testAccessKey, testSecretKey)
	c := env.Client
	api := route53.NewFromConfig(env.AWSConfig(testAccessKey, testSecretKey))
	kubetest.ApplySeed(t, c, filepath.Join("..", "..", "examples", "edge", "cloudfrontdistribution-domain.yaml"), ns)
	dist := kubetest.WaitReady(t, c, &edgev1.CloudFrontDistribution{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "storefront-cdn"}})

	zone := &v1alpha1.Route53HostedZone{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "static"}}
	zone.Spec.ProviderRef.Name, zone.Spec.Name = "production-aws", "static-test.example.net"
	kubetest.Create(t, c, zone)
	record := &v1alpha1.Route53RecordSet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "static-cdn"}}
	record.Spec.ProviderRef.Name, record.Spec.ZoneRef = "production-aws", &shared.Reference{Name: "static"}
	record.Spec.Name, record.Spec.Type = "@", "A"
	record.Spec.AliasTarget = &v1alpha1.AliasTarget{CloudFrontDistributionRef: &shared.Reference{Name: "storefront-cdn"}}
	kubetest.Create(t, c, record)
	record = kubetest.WaitReady(t, c, record)
	zone = kubetest.WaitReady(t, c, zone)
	got := recordSet(t, api, zone.Status.HostedZoneID, "static-test.example.net.", "A", "")
	if a := got.AliasTarget; a == nil || !strings.EqualFold(strings.TrimSuffix(aws.ToString(a.DNSName), "."), dist.Status.DomainName) ||
		aws.ToString(a.HostedZoneId) != "Z2FDTNDATAQYW2" {
		t.Errorf("apex alias %+v, want %s in Z2FDTNDATAQYW2", got.AliasTarget, dist.Status.DomainName)
	}

	missing := &v1alpha1.Route53RecordSet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "missing-cdn"}}
	missing.Spec = record.Spec
	missing.Spec.Name = "old"
	missing.Spec.AliasTarget = &v1alpha1.AliasTarget{DNSName: "d0000000000000.cloudfront.net", HostedZoneID: "Z2FDTNDATAQYW2"}
	kubetest.Create(t, c, missing)
	refused := kubetest.WaitCondition(t, c, missing, condition.TypeSynced, "False", condition.ReasonAWSRejected)
	if msg := conditionMessage(refused.Status.Conditions, condition.TypeSynced); !strings.Contains(msg, "but that target was not found") {
		t.Errorf("refusal %q", msg)
	}
}

// TestRoute53RecordSetAPIGatewayAlias runs the networking family with the edge family: an alias
// record set names an APIGateway with a custom domain by reference and gets the domain's target
// name in its regional hosted zone, as the API's status reports them.
func TestRoute53RecordSetAPIGatewayAlias(t *testing.T) {
	emu := emulator.New(emulator.Options{Transitions: map[string]time.Duration{"Route53": 300 * time.Millisecond}})
	env := families.Start(t, emu, func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond }, networking.Family(), edge.Family())
	ns := env.Namespace(t)
	env.Provider(t, ns, "production-aws", testAccessKey, testSecretKey)
	c := env.Client
	cfg := env.AWSConfig(testAccessKey, testSecretKey)
	cert, err := acm.NewFromConfig(cfg).RequestCertificate(context.Background(), &acm.RequestCertificateInput{DomainName: aws.String("api.apis-test.example.org"),
		ValidationMethod: acmtypes.ValidationMethodDns})
	if err != nil {
		t.Fatal(err)
	}
	gw := &edgev1.APIGateway{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "items"}}
	gw.Spec.ProviderRef.Name, gw.Spec.ProtocolType = "production-aws", "HTTP"
	gw.Spec.Routes = []edgev1.Route{{RouteKey: "GET /items", Integration: edgev1.Integration{URL: "https://backend.example.org/items"}}}
	gw.Spec.Stages = []edgev1.Stage{{Name: "$default"}}
	gw.Spec.CustomDomain = &edgev1.CustomDomain{DomainName: "api.apis-test.example.org", CertificateARN: aws.ToString(cert.CertificateArn)}
	kubetest.Create(t, c, gw)
	gw = kubetest.WaitReady(t, c, gw)
	domain := gw.Status.CustomDomain
	if domain == nil || domain.TargetDomainName == "" || domain.HostedZoneID == "" {
		t.Fatalf("the API's custom domain status: %+v", domain)
	}

	zone := &v1alpha1.Route53HostedZone{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "apis"}}
	zone.Spec.ProviderRef.Name, zone.Spec.Name = "production-aws", "apis-test.example.org"
	kubetest.Create(t, c, zone)
	record := &v1alpha1.Route53RecordSet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "api"}}
	record.Spec.ProviderRef.Name, record.Spec.ZoneRef = "production-aws", &shared.Reference{Name: "apis"}
	record.Spec.Name, record.Spec.Type = "api", "A"
	record.Spec.AliasTarget = &v1alpha1.AliasTarget{APIGatewayRef: &shared.Reference{Name: "items"}}
	kubetest.Create(t, c, record)
	kubetest.WaitReady(t, c, record)
	zone = kubetest.WaitReady(t, c, zone)
	got := recordSet(t, route53.NewFromConfig(cfg), zone.Status.HostedZoneID, "api.apis-test.example.org.", "A", "")
	if a := got.AliasTarget; a == nil || !strings.EqualFold(strings.TrimSuffix(aws.ToString(a.DNSName), "."), domain.TargetDomainName) ||
		aws.ToString(a.HostedZoneId) != domain.HostedZoneID {
		t.Errorf("alias %+v, want %s in %s", got.AliasTarget, domain.TargetDomainName, domain.HostedZoneID)
	}
}
