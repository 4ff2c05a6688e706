package s3bucket

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/policy"
)

func TestCompare(t *testing.T) {
	rule := v1alpha1.S3LifecycleRule{ID: "logs", Enabled: true, Prefix: "logs/", Expiration: &v1alpha1.S3Expiration{Days: 7}}
	cases := map[string]struct {
		reason string
		spec   v1alpha1.S3BucketSpec
		state  State
		want   string
	}{
		"UpToDate": {
			reason: "Rules S3 returns in another order, and a policy with other spacing, match the spec.",
			spec: v1alpha1.S3BucketSpec{LifecycleRules: []v1alpha1.S3LifecycleRule{rule, {ID: "tmp", Enabled: false, AbortIncompleteMultipartUpload: &v1alpha1.S3AbortIncompleteMultipartUpload{DaysAfterInitiation: 2}}},
				Policy: `{"Statement": [{"Effect": "Allow"}]}`},
			state: State{Lifecycle: append([]types.LifecycleRule{{ID: aws.String("tmp"), Status: types.ExpirationStatusDisabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String("")},
				AbortIncompleteMultipartUpload: &types.AbortIncompleteMultipartUpload{DaysAfterInitiation: aws.Int32(2)}}}, lifecycleRules([]v1alpha1.S3LifecycleRule{rule})...),
				Policy: `{"Statement":[{"Effect":"Allow"}]}`},
		},
		"UnmanagedSettingsIgnored": {
			reason: "Versioning, encryption, the public access block and ownership are compared only when set.",
			state:  State{Versioning: types.BucketVersioningStatusSuspended, ObjectOwnership: types.ObjectOwnershipObjectWriter},
		},
		"FilterTheSpecCannotExpress": {
			reason: "A rule with a tag filter, set outside the operator, differs from the spec's rule.",
			spec:   v1alpha1.S3BucketSpec{LifecycleRules: []v1alpha1.S3LifecycleRule{rule}},
			state: State{Lifecycle: []types.LifecycleRule{{ID: aws.String("logs"), Status: types.ExpirationStatusEnabled, Expiration: &types.LifecycleExpiration{Days: aws.Int32(7)},
				Filter: &types.LifecycleRuleFilter{Prefix: aws.String("logs/"), Tag: &types.Tag{Key: aws.String("k"), Value: aws.String("v")}}}}},
			want: "lifecycleRules",
		},
		"EverythingDiffers": {
			reason: "Each differing field is named by its JSON name, in the order its change is applied.",
			spec: v1alpha1.S3BucketSpec{Versioning: &v1alpha1.S3Versioning{Enabled: true}, Encryption: &v1alpha1.S3Encryption{Algorithm: "aws_kms", KMSKeyID: "key-1"},
				PublicAccessBlock: &v1alpha1.S3PublicAccessBlock{BlockPublicAcls: true}, CORSRules: []v1alpha1.S3CORSRule{{AllowedOrigins: []string{"*"}, AllowedMethods: []string{"GET"}}},
				ObjectOwnership: "BucketOwnerEnforced", Policy: `{"Statement":[]}`},
			state: State{Tags: map[string]string{"stale": "x"}, Lifecycle: lifecycleRules([]v1alpha1.S3LifecycleRule{rule}),
				Encryption: &types.ServerSideEncryptionRule{ApplyServerSideEncryptionByDefault: &types.ServerSideEncryptionByDefault{SSEAlgorithm: types.ServerSideEncryptionAwsKms, KMSMasterKeyID: aws.String("arn:aws:kms:us-east-1:1:key/key-2")}}},
			want: "tags, versioning, encryption, publicAccessBlock, objectOwnership, lifecycleRules, corsRules, policy",
		},
		"KMSKeyByARN": {
			reason: "A KMS key id matches the ARN S3 reports for it.",
			spec:   v1alpha1.S3BucketSpec{Encryption: &v1alpha1.S3Encryption{Algorithm: "aws:kms", KMSKeyID: "key-1"}},
			state: State{Encryption: &types.ServerSideEncryptionRule{BucketKeyEnabled: aws.Bool(false), ApplyServerSideEncryptionByDefault: &types.ServerSideEncryptionByDefault{
				SSEAlgorithm: types.ServerSideEncryptionAwsKms, KMSMasterKeyID: aws.String("arn:aws:kms:us-east-1:1:key/key-1")}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := &v1alpha1.S3Bucket{Spec: tc.spec}
			if diff := cmp.Diff(tc.want, (&driver{}).compare(b, &tc.state, nil).String()); diff != "" {
				t.Errorf("%s\ncompare(...): -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestDomainName(t *testing.T) {
	cases := map[string]struct {
		region, want string
	}{
		"USEast1":  {"us-east-1", "b.s3.amazonaws.com"},
		"Regional": {"eu-west-1", "b.s3.eu-west-1.amazonaws.com"},
		"China":    {"cn-north-1", "b.s3.cn-north-1.amazonaws.com.cn"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := domainName("b", tc.region); got != tc.want {
				t.Errorf("domainName(b, %s) = %s, want %s", tc.region, got, tc.want)
			}
		})
	}
}

// TestDesiredPolicy checks that the statements other objects grant in the bucket's policy (a
// reserved Sid) are neither a difference nor lost when the spec's policy is written, and keep
// the bucket policy while the spec has none; a statement under the reserved prefix that is not
// exactly what the operator grants (added by hand, or widened) is a difference, and removed.
func TestDesiredPolicy(t *testing.T) {
	const (
		granted = `{"Sid":"InfraOperatorCloudFrontE1","Effect":"Allow","Principal":{"Service":"cloudfront.amazonaws.com"},"Action":"s3:GetObject",` +
			`"Resource":"arn:aws:s3:::b/*","Condition":{"StringEquals":{"AWS:SourceArn":"arn:aws:cloudfront::123456789012:distribution/E1"}}}`
		widened = `{"Sid":"InfraOperatorCloudFrontE1","Effect":"Allow","Principal":"*","Action":"s3:GetObject",` +
			`"Resource":"arn:aws:s3:::b/*","Condition":{"StringEquals":{"AWS:SourceArn":"arn:aws:cloudfront::123456789012:distribution/E1"}}}`
		forged = `{"Sid":"InfraOperatorX","Effect":"Allow","Principal":"*","Action":"s3:*","Resource":"arn:aws:s3:::b/*"}`
		own    = `{"Sid":"Own","Effect":"Deny","Principal":"*","Action":"s3:DeleteObject","Resource":"arn:aws:s3:::b/*"}`
		other  = `{"Sid":"Other","Effect":"Deny","Principal":"*","Action":"s3:PutObject","Resource":"arn:aws:s3:::b/*"}`
	)
	doc := func(statements ...string) string {
		return `{"Version":"2012-10-17","Statement":[` + strings.Join(statements, ",") + `]}`
	}
	cases := map[string]struct {
		reason, spec, observed string
		want                   string
		differs                bool
	}{
		"GrantedIgnored": {reason: "A granted statement beside the spec's is no difference.",
			spec: doc(own), observed: doc(granted, own)},
		"SpecChangeKeepsGrant": {reason: "A change of the spec's policy writes it with the granted statement kept.",
			spec: doc(other), observed: doc(granted, own), want: doc(other, granted), differs: true},
		"EmptySpecKeepsGrant": {reason: "An empty spec policy removes the owner's statements, not the bucket policy.",
			observed: doc(granted, own), want: doc(granted), differs: true},
		"GrantOnly": {reason: "A bucket policy holding only granted statements matches an empty spec policy.",
			observed: doc(granted)},
		"NoGrant": {reason: "Without granted statements an empty spec policy deletes the bucket policy.",
			observed: doc(own), want: "", differs: true},
		"ForgedGrantRemoved": {reason: "A statement added by hand under the reserved prefix is a difference, and the spec's policy is written without it.",
			spec: doc(own), observed: doc(forged, own), want: doc(own), differs: true},
		"WidenedGrantRemoved": {reason: "A granted statement widened by hand is no longer kept.",
			spec: doc(own), observed: doc(widened, own), want: doc(own), differs: true},
		"ForgedBesideGrant": {reason: "A forged statement beside a real grant goes; the grant stays.",
			spec: doc(own), observed: doc(granted, forged, own), want: doc(own, granted), differs: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, differs := desiredPolicy(tc.spec, tc.observed, "arn:aws:s3:::b")
			if differs != tc.differs {
				t.Fatalf("%s\ndesiredPolicy differs = %v, want %v (policy %s)", tc.reason, differs, tc.differs, got)
			}
			if differs && !policy.Equivalent(got, tc.want) {
				t.Errorf("%s\ndesiredPolicy = %s, want %s", tc.reason, got, tc.want)
			}
		})
	}
}
