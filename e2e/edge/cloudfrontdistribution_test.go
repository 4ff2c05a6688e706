package edge_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// The ids of the AWS managed policies the domain example names.
const (
	cachingOptimized          = "658327ea-f89d-4fab-a63d-7e88639e58f6"
	cachingDisabled           = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad"
	allViewerExceptHostHeader = "b689b0a8-53d0-40ab-baf2-68738e2966ac"
)

// TestCloudFrontDistribution applies the domain-name example and follows the distribution
// through its life: InProgress after the create, Ready once Deployed, with the spec's origins,
// behaviours (managed policy names resolved to their ids), settings and ownership tags in
// CloudFront; a change made outside is reverted (DriftDetected); a spec change whose update
// loses a race with another writer (stale ETag, PreconditionFailed) is retried and converges;
// and deletion disables the distribution, waits until that is deployed and only then deletes
// it (no DeleteDistribution refused on the way).
func TestCloudFrontDistribution(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	h.apply(t, "cloudfrontdistribution-domain.yaml", "default")
	d := &v1alpha1.CloudFrontDistribution{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "storefront-cdn"}}

	d = kubetest.WaitFor(t, h.c, d, 30*time.Second, "InProgress", func(d *v1alpha1.CloudFrontDistribution) bool {
		return d.Status.Status == "InProgress" && !isReady(d)
	})
	d = kubetest.WaitReady(t, h.c, d)
	if d.Status.Status != "Deployed" || d.Status.ETag == "" || !strings.HasSuffix(d.Status.DomainName, ".cloudfront.net") || d.Status.ARN == "" {
		t.Errorf("status = %+v, want a Deployed distribution with its ETag, domain name and ARN", d.Status)
	}
	dist, _ := h.distribution(t, d.Status.ID)
	cfg := dist.DistributionConfig
	if got := aws.ToString(cfg.CallerReference); got != string(d.UID) {
		t.Errorf("CallerReference = %q, want the object's UID %q", got, d.UID)
	}
	if o := cfg.Origins.Items; len(o) != 1 || aws.ToString(o[0].DomainName) != "origin.shop.example.com" ||
		o[0].CustomOriginConfig.OriginProtocolPolicy != types.OriginProtocolPolicyHttpsOnly {
		t.Errorf("origins = %+v, want origin.shop.example.com over HTTPS", o)
	}
	if got := aws.ToString(cfg.DefaultCacheBehavior.CachePolicyId); got != cachingOptimized {
		t.Errorf("default behaviour's cache policy = %s, want CachingOptimized's %s", got, cachingOptimized)
	}
	if b := cfg.CacheBehaviors.Items; len(b) != 1 || aws.ToString(b[0].CachePolicyId) != cachingDisabled ||
		aws.ToString(b[0].OriginRequestPolicyId) != allViewerExceptHostHeader || aws.ToInt32(b[0].AllowedMethods.Quantity) != 7 {
		t.Errorf("ordered behaviours = %+v, want /api/* uncached with AllViewerExceptHostHeader and all methods", b)
	}
	if cfg.PriceClass != types.PriceClassPriceClass100 || aws.ToString(cfg.DefaultRootObject) != "index.html" || !aws.ToBool(cfg.Enabled) {
		t.Errorf("settings = %s, %q, enabled %v; want PriceClass_100, index.html, enabled", cfg.PriceClass, aws.ToString(cfg.DefaultRootObject), aws.ToBool(cfg.Enabled))
	}
	tags, err := h.cf.ListTagsForResource(t.Context(), &cloudfront.ListTagsForResourceInput{Resource: aws.String(d.Status.ARN)})
	if err != nil {
		t.Fatalf("list tags: %v", err)
	}
	if !hasTag(tags.Tags.Items, "Application", "storefront") || !hasTagKey(tags.Tags.Items, shared.TagOwnerUID) {
		t.Errorf("tags = %v, want the spec's and the ownership tags", tags.Tags.Items)
	}

	// A change made outside is reverted.
	h.changeOutside(t, d.Status.ID, func(c *types.DistributionConfig) {
		c.Comment, c.PriceClass = aws.String("changed by hand"), types.PriceClassPriceClassAll
	})
	kubetest.ResyncUntil(t, h.c, d, "the change made outside reverted", func() bool {
		dist, _ := h.distribution(t, d.Status.ID)
		return aws.ToString(dist.DistributionConfig.Comment) == "Storefront static content" && dist.DistributionConfig.PriceClass == types.PriceClassPriceClass100
	})
	kubetest.WaitEvent(t, h.c, d, condition.ReasonDriftDetected, "comment")

	// A spec change whose update loses a race with another writer is retried. The hook runs
	// while ResyncUntil rewrites d, so it uses a copy of the id.
	distID := d.Status.ID
	h.beforeNext(isUpdate, func(*http.Request) {
		h.changeOutside(t, distID, func(c *types.DistributionConfig) { c.DefaultRootObject = aws.String("other.html") })
	})
	h.patchSpec(t, d, `{"priceClass":"PriceClass_200"}`)
	kubetest.ResyncUntil(t, h.c, d, "the race retried", func() bool {
		dist, _ := h.distribution(t, distID)
		return dist.DistributionConfig.PriceClass == types.PriceClassPriceClass200 && aws.ToString(dist.DistributionConfig.DefaultRootObject) == "index.html"
	})
	if n := h.calls()["UpdateDistribution"]["PreconditionFailed"]; n == 0 {
		t.Errorf("UpdateDistribution calls refused with PreconditionFailed = 0, want the stale update refused: %v", h.calls()["UpdateDistribution"])
	}
	d = kubetest.WaitReady(t, h.c, d)

	// Deletion: disable, wait for Deployed, delete.
	id, updatesBefore := d.Status.ID, h.calls()["UpdateDistribution"]["success"]
	kubetest.Delete(t, h.c, d)
	kubetest.WaitGone(t, h.c, d)
	if _, err := h.cf.GetDistribution(t.Context(), &cloudfront.GetDistributionInput{Id: aws.String(id)}); err == nil {
		t.Errorf("distribution %s still exists after the object is gone", id)
	}
	// CloudFront refuses to delete a distribution that is enabled or InProgress: one call, and
	// none refused, says it was made only once the distribution was disabled and deployed.
	deletes := h.calls()["DeleteDistribution"]
	if deletes["success"] != 1 || len(deletes) != 1 {
		t.Errorf("DeleteDistribution calls = %v, want one, made once the distribution was disabled and deployed", deletes)
	}
	if updates := h.calls()["UpdateDistribution"]["success"]; updates < updatesBefore+1 {
		t.Errorf("UpdateDistribution calls = %d after the deletion, %d before; want the distribution disabled first", updates, updatesBefore)
	}
}

// hasTag reports whether tags hold key with value.
func hasTag(tags []types.Tag, key, value string) bool {
	return slices.ContainsFunc(tags, func(t types.Tag) bool { return aws.ToString(t.Key) == key && aws.ToString(t.Value) == value })
}

// hasTagKey reports whether tags hold key.
func hasTagKey(tags []types.Tag, key string) bool {
	return slices.ContainsFunc(tags, func(t types.Tag) bool { return aws.ToString(t.Key) == key })
}
