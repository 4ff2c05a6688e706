package edge_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	datav1 "github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// siteBucket is the bucket of the S3 example.
const siteBucket = "storefront-site-content"

// TestCloudFrontDistributionS3 applies the S3 example (a private bucket with a policy of its
// own, and a distribution in front of it) and follows the origin access control and the
// bucket policy statement through the distribution's life: Ready with the origin named by the
// bucket's regional domain name and read through an origin access control (S3, always signed,
// SigV4) that the status names; the bucket policy holds the statement AWS documents beside
// the bucket's own; the statement removed outside is restored (DriftDetected), and so is the
// origin access control changed outside; the S3Bucket's
// own policy change keeps it without the distribution writing it again; a second distribution
// of the same bucket adds its own statement and removes it when its origin leaves the spec;
// and deleting a distribution removes its statement and its origin access control.
func TestCloudFrontDistributionS3(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	h.apply(t, "cloudfrontdistribution-s3.yaml", "default")
	bucket := kubetest.WaitReady(t, h.c, &datav1.S3Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "site-content"}})
	d := kubetest.WaitReady(t, h.c, &v1alpha1.CloudFrontDistribution{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "site-cdn"}})

	oac := d.Status.OriginAccessControlID
	if oac == "" {
		t.Fatalf("status.originAccessControlID is empty: %+v", d.Status)
	}
	control := h.control(t, oac)
	if control == nil || control.OriginAccessControlOriginType != types.OriginAccessControlOriginTypesS3 ||
		control.SigningBehavior != types.OriginAccessControlSigningBehaviorsAlways || control.SigningProtocol != types.OriginAccessControlSigningProtocolsSigv4 {
		t.Errorf("origin access control %s = %+v, want an S3 control that always signs with SigV4", oac, control)
	}
	dist, _ := h.distribution(t, d.Status.ID)
	wantDomain := siteBucket + ".s3." + bucket.Status.Region + ".amazonaws.com"
	if o := dist.DistributionConfig.Origins.Items; len(o) != 1 || aws.ToString(o[0].DomainName) != wantDomain || aws.ToString(o[0].OriginAccessControlId) != oac ||
		o[0].S3OriginConfig == nil || aws.ToString(o[0].S3OriginConfig.OriginAccessIdentity) != "" || o[0].CustomOriginConfig != nil {
		t.Errorf("origins = %+v, want the S3 origin %s read through control %s", o, wantDomain, oac)
	}
	doc := h.bucketPolicy(t)
	if !doc.Has(readStatement(d)) || len(doc.Statements) != 2 {
		t.Errorf("bucket policy = %s, want the bucket's own statement and the distribution's %v", doc, readStatement(d))
	}

	// The statement removed outside is restored.
	h.putBucketPolicy(t, doc.Without(sidOf(d)))
	kubetest.ResyncUntil(t, h.c, d, "the statement restored", func() bool { return h.bucketPolicy(t).Has(readStatement(d)) })
	kubetest.WaitEvent(t, h.c, d, condition.ReasonDriftDetected, "bucketPolicy("+siteBucket+")")

	// The origin access control changed outside is restored.
	got, err := h.cf.GetOriginAccessControl(t.Context(), &cloudfront.GetOriginAccessControlInput{Id: aws.String(oac)})
	if err != nil {
		t.Fatalf("get origin access control %s: %v", oac, err)
	}
	changed := *got.OriginAccessControl.OriginAccessControlConfig
	changed.SigningBehavior = types.OriginAccessControlSigningBehaviorsNever
	if _, err := h.cf.UpdateOriginAccessControl(t.Context(), &cloudfront.UpdateOriginAccessControlInput{Id: aws.String(oac), IfMatch: got.ETag,
		OriginAccessControlConfig: &changed}); err != nil {
		t.Fatalf("update origin access control %s outside the operator: %v", oac, err)
	}
	kubetest.ResyncUntil(t, h.c, d, "the control restored", func() bool {
		return h.control(t, oac).SigningBehavior == types.OriginAccessControlSigningBehaviorsAlways
	})

	// The S3Bucket's own policy change keeps the statement: the bucket writes it itself.
	h.emu.Calls.Reset()
	kubetest.Update(t, h.c, bucket, func(b *datav1.S3Bucket) {
		b.Spec.Policy = `{"Version":"2012-10-17","Statement":[{"Sid":"DenyDeletes","Effect":"Deny","Principal":"*","Action":"s3:DeleteObject","Resource":"arn:aws:s3:::` + siteBucket + `/*"}]}`
	})
	kubetest.WaitFor(t, h.c, bucket, kubetest.Timeout, "the bucket's policy changed", func(*datav1.S3Bucket) bool {
		return len(h.bucketPolicy(t).Reserved("DenyDeletes")) == 1
	})
	doc = h.bucketPolicy(t)
	if !doc.Has(readStatement(d)) || len(doc.Reserved("DenyInsecureTransport")) != 0 {
		t.Errorf("bucket policy after the S3Bucket's change = %s, want DenyDeletes and the distribution's statement only", doc)
	}
	if puts := kubetest.Calls(h.emu.Calls.Snapshot(), "S3")["PutBucketPolicy"]; puts != 1 {
		t.Errorf("PutBucketPolicy calls = %d, want the S3Bucket's one (the distribution's statement kept, not written again)", puts)
	}

	// A second distribution of the bucket adds its statement, and removes it when its origin
	// leaves the spec.
	other := &v1alpha1.CloudFrontDistribution{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "site-cdn-2"}}
	other.Spec.ProviderRef.Name = "production-aws"
	other.Spec.Origins = []v1alpha1.DistributionOrigin{{ID: "site", S3BucketRef: &shared.Reference{Name: "site-content"}}}
	other.Spec.DefaultCacheBehavior.TargetOriginID = "site"
	kubetest.Create(t, h.c, other)
	other = kubetest.WaitReady(t, h.c, other)
	if other.Status.OriginAccessControlID == "" || other.Status.OriginAccessControlID == oac {
		t.Errorf("second distribution's control = %q, want one of its own (the first's is %s)", other.Status.OriginAccessControlID, oac)
	}
	if doc := h.bucketPolicy(t); !doc.Has(readStatement(d)) || !doc.Has(readStatement(other)) {
		t.Errorf("bucket policy = %s, want both distributions' statements", doc)
	}
	h.patchSpec(t, other, `{"origins":[{"id":"site","domainName":"origin.example.com"}]}`)
	kubetest.WaitFor(t, h.c, other, kubetest.Timeout, "the S3 origin removed", func(o *v1alpha1.CloudFrontDistribution) bool {
		dist, _ := h.distribution(t, o.Status.ID)
		return aws.ToString(dist.DistributionConfig.Origins.Items[0].DomainName) == "origin.example.com" && len(h.bucketPolicy(t).Reserved(sidOf(o))) == 0
	})
	if doc := h.bucketPolicy(t); !doc.Has(readStatement(d)) {
		t.Errorf("bucket policy = %s, want the first distribution's statement kept", doc)
	}

	// Deleting a distribution removes its statement, then its origin access control.
	kubetest.Delete(t, h.c, d)
	kubetest.WaitGone(t, h.c, d)
	if doc := h.bucketPolicy(t); len(doc.Reserved(sidOf(d))) != 0 || len(doc.Reserved("DenyDeletes")) != 1 {
		t.Errorf("bucket policy after the deletion = %s, want the bucket's own statement only", doc)
	}
	if c := h.control(t, oac); c != nil {
		t.Errorf("origin access control %s still exists after the distribution is gone", oac)
	}
	otherControl := other.Status.OriginAccessControlID
	if h.control(t, otherControl) == nil {
		t.Errorf("the second distribution's control %s is gone while the distribution exists", otherControl)
	}
	kubetest.Delete(t, h.c, other)
	kubetest.WaitGone(t, h.c, other)
	if h.control(t, otherControl) != nil {
		t.Errorf("origin access control %s of the second distribution still exists after it is gone", otherControl)
	}
}

// sidOf returns the Sid of the statement distribution d keeps in a bucket policy.
func sidOf(d *v1alpha1.CloudFrontDistribution) string {
	return "InfraOperatorCloudFront" + d.Status.ID
}

// readStatement returns the statement AWS documents for origin access control: the
// distribution d, and nothing else, may read the objects of the example's bucket.
func readStatement(d *v1alpha1.CloudFrontDistribution) map[string]any {
	return map[string]any{
		"Sid":       sidOf(d),
		"Effect":    "Allow",
		"Principal": map[string]any{"Service": "cloudfront.amazonaws.com"},
		"Action":    "s3:GetObject",
		"Resource":  "arn:aws:s3:::" + siteBucket + "/*",
		"Condition": map[string]any{"StringEquals": map[string]any{"AWS:SourceArn": d.Status.ARN}},
	}
}

// control reads origin access control id from CloudFront; nil when it does not exist.
func (h *harness) control(t testing.TB, id string) *types.OriginAccessControlConfig {
	t.Helper()
	out, err := h.cf.GetOriginAccessControl(t.Context(), &cloudfront.GetOriginAccessControlInput{Id: aws.String(id)})
	if awserr.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatalf("get origin access control %s: %v", id, err)
	}
	return out.OriginAccessControl.OriginAccessControlConfig
}

// bucketPolicy reads the example bucket's policy through S3; empty when it has none.
func (h *harness) bucketPolicy(t testing.TB) policy.Document {
	t.Helper()
	out, err := h.s3.GetBucketPolicy(t.Context(), &s3.GetBucketPolicyInput{Bucket: aws.String(siteBucket)})
	if awserr.Code(err) == "NoSuchBucketPolicy" {
		return policy.Document{}
	}
	if err != nil {
		t.Fatalf("get the policy of bucket %s: %v", siteBucket, err)
	}
	doc, err := policy.Parse(aws.ToString(out.Policy))
	if err != nil {
		t.Fatalf("bucket policy %s: %v", aws.ToString(out.Policy), err)
	}
	return doc
}

// putBucketPolicy writes the example bucket's policy outside the operator.
func (h *harness) putBucketPolicy(t testing.TB, doc policy.Document) {
	t.Helper()
	if _, err := h.s3.PutBucketPolicy(t.Context(), &s3.PutBucketPolicyInput{Bucket: aws.String(siteBucket), Policy: aws.String(doc.String())}); err != nil {
		t.Fatalf("put the policy of bucket %s: %v", siteBucket, err)
	}
}
