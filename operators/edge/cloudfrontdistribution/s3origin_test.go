package cloudfrontdistribution

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// TestControlName checks that the name of an object's origin access control fits CloudFront's
// 64 characters however long the namespace and name are, and differs between two objects of
// the same name (another UID).
func TestControlName(t *testing.T) {
	long := &v1alpha1.CloudFrontDistribution{ObjectMeta: metav1.ObjectMeta{Namespace: strings.Repeat("n", 63), Name: strings.Repeat("d", 253), UID: "uid-1"}}
	if got := controlName(long); len(got) != maxControlName || !strings.HasPrefix(got, "nnn") {
		t.Errorf("controlName of a long namespace and name = %q (%d characters), want 64 beginning with the namespace", got, len(got))
	}
	a := &v1alpha1.CloudFrontDistribution{ObjectMeta: metav1.ObjectMeta{Namespace: "web", Name: "cdn", UID: "uid-1"}}
	b := a.DeepCopy()
	b.UID = "uid-2"
	if controlName(a) == controlName(b) || !strings.HasPrefix(controlName(a), "web-cdn-") {
		t.Errorf("controlName = %q and %q, want web-cdn- and a hash that differs by UID", controlName(a), controlName(b))
	}
}

// TestBucketOf checks that the bucket is read back from the domain names of S3 origins, names
// with dots and the legacy global name included.
func TestBucketOf(t *testing.T) {
	for domain, want := range map[string]string{
		bucketDomainName("site", "eu-west-1"):       "site",
		bucketDomainName("my.s3.site", "us-east-1"): "my.s3.site",
		"logs.s3.amazonaws.com":                     "logs",
		bucketDomainName("site", "cn-north-1"):      "site",
	} {
		if got := bucketOf(domain); got != want {
			t.Errorf("bucketOf(%s) = %s, want %s", domain, got, want)
		}
	}
	if got := bucketDomainName("site", "cn-north-1"); got != "site.s3.cn-north-1.amazonaws.com.cn" {
		t.Errorf("bucketDomainName in China = %s, want the amazonaws.com.cn suffix", got)
	}
}

// TestS3Origin checks the origin CloudFront gets for an S3Bucket reference (the bucket's
// regional domain name, read through the origin access control, no origin access identity, no
// custom origin settings), and that the origin turned into a domain name loses the control.
func TestS3Origin(t *testing.T) {
	d := &v1alpha1.CloudFrontDistribution{}
	d.Spec.Origins = []v1alpha1.DistributionOrigin{{ID: "site", S3BucketRef: &shared.Reference{Name: "content"}, S3BucketName: "site-content"}}
	got := desiredOrigins(d.Spec.Origins, nil, bucketOrigins{region: "eu-west-1", controlID: "OAC1"}).Items[0]
	if aws.ToString(got.DomainName) != "site-content.s3.eu-west-1.amazonaws.com" || aws.ToString(got.OriginAccessControlId) != "OAC1" ||
		got.S3OriginConfig == nil || aws.ToString(got.S3OriginConfig.OriginAccessIdentity) != "" || got.CustomOriginConfig != nil {
		t.Errorf("S3 origin = %+v, want the regional domain name read through OAC1", got)
	}
	d.Spec.Origins = []v1alpha1.DistributionOrigin{{ID: "site", DomainName: "origin.example.com"}}
	custom := desiredOrigins(d.Spec.Origins, desiredOrigins([]v1alpha1.DistributionOrigin{{ID: "site", S3BucketRef: &shared.Reference{Name: "content"},
		S3BucketName: "site-content"}}, nil, bucketOrigins{region: "eu-west-1", controlID: "OAC1"}), bucketOrigins{}).Items[0]
	if aws.ToString(custom.OriginAccessControlId) != "" || custom.S3OriginConfig != nil || custom.CustomOriginConfig == nil {
		t.Errorf("origin turned into a domain name = %+v, want a custom origin without the control", custom)
	}
}
