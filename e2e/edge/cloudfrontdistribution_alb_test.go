package edge_test

import (
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	netv1 "github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestCloudFrontDistributionS3AndALB applies the networking family's load balancer example,
// the S3 example and the example of a distribution in front of both: it is Ready with the
// ALB's DNS name as its HTTPS-only application origin and the bucket, read through its own
// origin access control, behind /assets/*, and its statement joins site-cdn's in the bucket
// policy; deleting it removes its statement and leaves site-cdn's.
func TestCloudFrontDistributionS3AndALB(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	kubetest.ApplySeed(t, h.c, filepath.Join("..", "..", "examples", "networking", "load-balancers.yaml"), "default")
	h.apply(t, "cloudfrontdistribution-s3.yaml", "default")
	h.apply(t, "cloudfrontdistribution-s3-alb.yaml", "default")
	alb := kubetest.WaitReady(t, h.c, &netv1.ALB{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "storefront"}})
	site := kubetest.WaitReady(t, h.c, &v1alpha1.CloudFrontDistribution{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "site-cdn"}})
	d := kubetest.WaitReady(t, h.c, &v1alpha1.CloudFrontDistribution{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "storefront-app-cdn"}})

	dist, _ := h.distribution(t, d.Status.ID)
	cfg := dist.DistributionConfig
	origins := map[string]types.Origin{}
	for _, o := range cfg.Origins.Items {
		origins[aws.ToString(o.Id)] = o
	}
	app, assets := origins["app"], origins["assets"]
	if aws.ToString(app.DomainName) != alb.Status.DNSName || app.CustomOriginConfig == nil ||
		app.CustomOriginConfig.OriginProtocolPolicy != types.OriginProtocolPolicyHttpsOnly || aws.ToString(app.OriginAccessControlId) != "" {
		t.Errorf("origin app = %+v, want the ALB's DNS name %s over HTTPS only", app, alb.Status.DNSName)
	}
	if aws.ToString(assets.OriginAccessControlId) != d.Status.OriginAccessControlID || d.Status.OriginAccessControlID == "" || assets.S3OriginConfig == nil {
		t.Errorf("origin assets = %+v, want the bucket read through control %q", assets, d.Status.OriginAccessControlID)
	}
	if b := cfg.CacheBehaviors; b == nil || len(b.Items) != 1 || aws.ToString(b.Items[0].PathPattern) != "/assets/*" || aws.ToString(b.Items[0].TargetOriginId) != "assets" {
		t.Errorf("ordered cache behaviours = %+v, want /assets/* to the bucket", b)
	}
	if aws.ToString(cfg.DefaultCacheBehavior.TargetOriginId) != "app" || cfg.DefaultCacheBehavior.AllowedMethods == nil || aws.ToInt32(cfg.DefaultCacheBehavior.AllowedMethods.Quantity) != 7 {
		t.Errorf("default cache behaviour = %+v, want every method sent to the application", cfg.DefaultCacheBehavior)
	}
	if doc := h.bucketPolicy(t); !doc.Has(readStatement(d)) || !doc.Has(readStatement(site)) {
		t.Errorf("bucket policy = %s, want the statements of both distributions", doc)
	}

	kubetest.Delete(t, h.c, d)
	kubetest.WaitGone(t, h.c, d)
	if doc := h.bucketPolicy(t); len(doc.Reserved(sidOf(d))) != 0 || !doc.Has(readStatement(site)) {
		t.Errorf("bucket policy after the deletion = %s, want site-cdn's statement only", doc)
	}
}
