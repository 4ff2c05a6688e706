package s3bucket

import (
	"context"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// compare plans a change for every field of the spec that the bucket in st does not match,
// named by the spec's JSON names: one call per differing sub-configuration, in the order they
// are made. The public access block goes before the policy, so that a spec that relaxes the
// block and adds a public policy is applied in one pass; lifecycle rules, CORS rules and the
// policy are deleted when the spec has none.
func (d *driver) compare(b *v1alpha1.S3Bucket, st *State, desiredTags map[string]string) managed.Plan {
	s, name, bucket := &b.Spec, st.Name, aws.String(st.Name)
	var p managed.Plan
	p.AddTags(desiredTags, st.Tags, func(ctx context.Context, _ map[string]string, _ []string) error {
		return d.putTags(ctx, name, desiredTags)
	})
	if s.Versioning != nil && s.Versioning.Enabled != (st.Versioning == types.BucketVersioningStatusEnabled) {
		p.Add("versioning", func(ctx context.Context) error {
			status := types.BucketVersioningStatusSuspended
			if s.Versioning.Enabled {
				status = types.BucketVersioningStatusEnabled
			}
			_, err := d.api.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: bucket,
				VersioningConfiguration: &types.VersioningConfiguration{Status: status}})
			return managed.Wrap(err, "put versioning of bucket %s", name)
		})
	}
	if s.Encryption != nil && !sameEncryption(s.Encryption, st.Encryption) {
		p.Add("encryption", func(ctx context.Context) error {
			_, err := d.api.PutBucketEncryption(ctx, &s3.PutBucketEncryptionInput{Bucket: bucket,
				ServerSideEncryptionConfiguration: &types.ServerSideEncryptionConfiguration{Rules: []types.ServerSideEncryptionRule{encryptionRule(s.Encryption)}}})
			return managed.Wrap(err, "put encryption of bucket %s", name)
		})
	}
	if s.PublicAccessBlock != nil && !samePublicAccessBlock(s.PublicAccessBlock, st.PublicAccessBlock) {
		p.Add("publicAccessBlock", func(ctx context.Context) error {
			_, err := d.api.PutPublicAccessBlock(ctx, &s3.PutPublicAccessBlockInput{Bucket: bucket, PublicAccessBlockConfiguration: publicAccessBlock(s.PublicAccessBlock)})
			return managed.Wrap(err, "put public access block of bucket %s", name)
		})
	}
	if s.ObjectOwnership != "" && st.ObjectOwnership != types.ObjectOwnership(s.ObjectOwnership) {
		p.Add("objectOwnership", func(ctx context.Context) error {
			_, err := d.api.PutBucketOwnershipControls(ctx, &s3.PutBucketOwnershipControlsInput{Bucket: bucket,
				OwnershipControls: &types.OwnershipControls{Rules: []types.OwnershipControlsRule{{ObjectOwnership: types.ObjectOwnership(s.ObjectOwnership)}}}})
			return managed.Wrap(err, "put ownership controls of bucket %s", name)
		})
	}
	if !sameLifecycle(s.LifecycleRules, st.Lifecycle) {
		p.Add("lifecycleRules", func(ctx context.Context) error {
			if len(s.LifecycleRules) == 0 {
				_, err := d.api.DeleteBucketLifecycle(ctx, &s3.DeleteBucketLifecycleInput{Bucket: bucket})
				return managed.Wrap(err, "delete lifecycle configuration of bucket %s", name)
			}
			_, err := d.api.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: bucket,
				LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: lifecycleRules(s.LifecycleRules)}})
			return managed.Wrap(err, "put lifecycle configuration of bucket %s", name)
		})
	}
	if !sameCORS(s.CORSRules, st.CORS) {
		p.Add("corsRules", func(ctx context.Context) error {
			if len(s.CORSRules) == 0 {
				_, err := d.api.DeleteBucketCors(ctx, &s3.DeleteBucketCorsInput{Bucket: bucket})
				return managed.Wrap(err, "delete CORS configuration of bucket %s", name)
			}
			_, err := d.api.PutBucketCors(ctx, &s3.PutBucketCorsInput{Bucket: bucket, CORSConfiguration: &types.CORSConfiguration{CORSRules: corsRules(s.CORSRules)}})
			return managed.Wrap(err, "put CORS configuration of bucket %s", name)
		})
	}
	if !samePolicy(s.Policy, st.Policy) {
		p.Add("policy", func(ctx context.Context) error {
			if s.Policy == "" {
				_, err := d.api.DeleteBucketPolicy(ctx, &s3.DeleteBucketPolicyInput{Bucket: bucket})
				return managed.Wrap(err, "delete policy of bucket %s", name)
			}
			_, err := d.api.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: bucket, Policy: aws.String(s.Policy)})
			return managed.Wrap(err, "put policy of bucket %s", name)
		})
	}
	return p
}

// sameEncryption reports whether the default encryption is the spec's: its algorithm and,
// with KMS, its key (by id or ARN) and bucket key setting.
func sameEncryption(want *v1alpha1.S3Encryption, got *types.ServerSideEncryptionRule) bool {
	if got == nil || got.ApplyServerSideEncryptionByDefault == nil {
		return false
	}
	def := got.ApplyServerSideEncryptionByDefault
	if def.SSEAlgorithm != algorithm(want) {
		return false
	}
	if !usesKMS(want) {
		return true
	}
	key := aws.ToString(def.KMSMasterKeyID)
	sameKey := key == want.KMSKeyID || strings.HasSuffix(key, "/"+want.KMSKeyID)
	return sameKey && aws.ToBool(got.BucketKeyEnabled) == want.BucketKeyEnabled
}

// samePublicAccessBlock reports whether the public access block is the spec's; a bucket
// without one blocks nothing.
func samePublicAccessBlock(want *v1alpha1.S3PublicAccessBlock, got *types.PublicAccessBlockConfiguration) bool {
	if got == nil {
		got = &types.PublicAccessBlockConfiguration{}
	}
	return want.BlockPublicAcls == aws.ToBool(got.BlockPublicAcls) && want.IgnorePublicAcls == aws.ToBool(got.IgnorePublicAcls) &&
		want.BlockPublicPolicy == aws.ToBool(got.BlockPublicPolicy) && want.RestrictPublicBuckets == aws.ToBool(got.RestrictPublicBuckets)
}

// sameLifecycle compares lifecycle rules by ID, whatever their order; S3 applies them all.
func sameLifecycle(want []v1alpha1.S3LifecycleRule, got []types.LifecycleRule) bool {
	if len(want) != len(got) {
		return false
	}
	have := map[string]v1alpha1.S3LifecycleRule{}
	for _, r := range got {
		rule, ok := specLifecycleRule(r)
		if !ok {
			return false
		}
		have[rule.ID] = rule
	}
	for _, r := range want {
		if h, ok := have[r.ID]; !ok || !equality.Semantic.DeepEqual(r, h) {
			return false
		}
	}
	return true
}

// sameCORS compares CORS rules in order: S3 uses the first rule that matches a request.
func sameCORS(want []v1alpha1.S3CORSRule, got []types.CORSRule) bool {
	have := make([]v1alpha1.S3CORSRule, 0, len(got))
	for _, r := range got {
		have = append(have, specCORSRule(r))
	}
	return slices.EqualFunc(want, have, func(a, b v1alpha1.S3CORSRule) bool { return equality.Semantic.DeepEqual(a, b) })
}

// samePolicy compares policies by what they say: AWS keeps neither the spec's spacing nor
// always its form.
func samePolicy(want, got string) bool {
	return policy.Equivalent(want, got)
}
