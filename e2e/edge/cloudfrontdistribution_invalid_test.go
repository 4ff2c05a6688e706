package edge_test

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestCloudFrontDistributionInvalid checks that admission refuses what it can see (aliases
// without a certificate, a behaviour naming an origin that does not exist, an origin with
// both a domain name and an ALB, an S3 origin with a custom origin's port, a certificate outside us-east-1, methods CloudFront does not
// allow together), and that a cache policy that is not an AWS managed one is terminal without
// any distribution call.
func TestCloudFrontDistributionInvalid(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "aws")
	for _, tc := range []struct {
		name   string
		change func(*v1alpha1.CloudFrontDistribution)
		want   string
	}{
		{"alias-without-certificate", func(d *v1alpha1.CloudFrontDistribution) { d.Spec.Aliases = []string{"cdn.example.com"} }, "aliases need a viewerCertificate"},
		{"unknown-origin", func(d *v1alpha1.CloudFrontDistribution) { d.Spec.DefaultCacheBehavior.TargetOriginID = "other" }, "must name one of origins[].id"},
		{"two-origin-kinds", func(d *v1alpha1.CloudFrontDistribution) {
			d.Spec.Origins[0].ALBRef = &shared.Reference{Name: "alb"}
		}, "set exactly one of domainName, albRef and s3BucketRef"},
		{"s3-origin-port", func(d *v1alpha1.CloudFrontDistribution) {
			d.Spec.Origins[0] = v1alpha1.DistributionOrigin{ID: "web", S3BucketRef: &shared.Reference{Name: "site"}, HTTPSPort: 8443}
		}, "protocolPolicy, httpPort and httpsPort are for domainName and albRef origins"},
		{"certificate-region", func(d *v1alpha1.CloudFrontDistribution) {
			d.Spec.Aliases = []string{"cdn.example.com"}
			d.Spec.ViewerCertificate = &v1alpha1.ViewerCertificate{ACMCertificateARN: "arn:aws:acm:eu-west-1:123456789012:certificate/abc"}
		}, "spec.viewerCertificate.acmCertificateARN"},
		{"methods", func(d *v1alpha1.CloudFrontDistribution) {
			d.Spec.DefaultCacheBehavior.AllowedMethods = []string{"GET", "POST"}
		}, "allowedMethods must be"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := distribution(tc.name)
			tc.change(d)
			kubetest.MustRefuse(t, h.c, d, tc.want)
		})
	}

	d := distribution("unknown-policy")
	d.Spec.DefaultCacheBehavior.CachePolicy = "CachingEverything"
	kubetest.Create(t, h.c, d)
	d = kubetest.WaitCondition(t, h.c, d, "Synced", "False", condition.ReasonInvalidSpec)
	if msg := kubetest.ConditionTexts(d.Status.Conditions); !containsAll(msg, "CachingEverything", "CachingOptimized") {
		t.Errorf("conditions = %v, want the unknown name and the managed policies' names", msg)
	}
	time.Sleep(500 * time.Millisecond)
	for _, op := range []string{"CreateDistribution", "CreateDistributionWithTags", "UpdateDistribution"} {
		if n := h.calls()[op]; len(n) != 0 {
			t.Errorf("%s calls = %v for an invalid spec, want none", op, n)
		}
	}
}

// distribution returns a valid distribution by domain name named name in default.
func distribution(name string) *v1alpha1.CloudFrontDistribution {
	d := &v1alpha1.CloudFrontDistribution{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name}}
	d.Spec.ProviderRef.Name = "aws"
	d.Spec.Origins = []v1alpha1.DistributionOrigin{{ID: "web", DomainName: "origin.example.com"}}
	d.Spec.DefaultCacheBehavior.TargetOriginID = "web"
	return d
}

// containsAll reports whether the texts together hold every one of words.
func containsAll(texts []string, words ...string) bool {
	all := ""
	for _, t := range texts {
		all += t + "\n"
	}
	for _, w := range words {
		if !strings.Contains(all, w) {
			return false
		}
	}
	return true
}
