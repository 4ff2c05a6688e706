package edge_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	securityv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestCloudFrontDistributionAlias applies the alias example: the distribution waits for its
// ACMCertificate (security family) to be issued through the storefront's hosted zone, then is created with the alias and the
// certificate's ARN served with SNI and TLSv1.2_2021, and becomes Ready once deployed.
func TestCloudFrontDistributionAlias(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	h.shopZone(t, "default")
	h.apply(t, "cloudfrontdistribution-alias.yaml", "default")
	cert := kubetest.WaitReady(t, h.c, &securityv1alpha1.ACMCertificate{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "cdn-cert"}})
	t.Cleanup(func() { t.Logf("CloudFront calls: %v", h.calls()) })
	d := kubetest.WaitReady(t, h.c, &v1alpha1.CloudFrontDistribution{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "cdn"}})
	dist, _ := h.distribution(t, d.Status.ID)
	cfg := dist.DistributionConfig
	if got := cfg.Aliases.Items; len(got) != 1 || got[0] != "cdn.shop.example.com" {
		t.Errorf("aliases = %v, want cdn.shop.example.com", got)
	}
	vc := cfg.ViewerCertificate
	if aws.ToString(vc.ACMCertificateArn) != cert.Status.ARN || vc.SSLSupportMethod != "sni-only" || vc.MinimumProtocolVersion != "TLSv1.2_2021" {
		t.Errorf("viewer certificate = %+v, want %s with SNI and TLSv1.2_2021", vc, cert.Status.ARN)
	}
	if cfg.HttpVersion != "http2and3" {
		t.Errorf("HTTP version = %s, want http2and3", cfg.HttpVersion)
	}
	reads := h.calls()["GetDistribution"]["success"]
	kubetest.Resync(t, h.c, d)
	time.Sleep(time.Second)
	if h.calls()["GetDistribution"]["success"] == reads {
		t.Fatal("no GetDistribution call after the resync: the steady-state check below would prove nothing")
	}
	if n := h.calls()["UpdateDistribution"]; len(n) != 0 {
		t.Errorf("UpdateDistribution calls = %v for a distribution that matches its spec, want none", n)
	}
}
