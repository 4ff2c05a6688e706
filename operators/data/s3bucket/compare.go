package s3bucket

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// compare plans a change for every field of the spec that the bucket in st does not match,
// named by the spec's JSON names: one call per differing sub-configuration, in the order they
// are made. The public access block goes before the policy, so that a spec that relaxes the
// block and adds a public policy is applied in one pass; lifecycle rules, CORS rules and the
// policy are deleted when the spec has none. The plan shows the values of versioning, the public
// access block and object ownership; the encryption (its key compared by ARN, key ID or alias),
// the rules and the policy are compared in a normal form, so theirs are not shown.
func (d *driver) compare(b *v1alpha1.S3Bucket, st *State, desiredTags map[string]string) managed.Plan {
	s, name, bucket := &b.Spec, st.Name, aws.String(st.Name)
	var p managed.Plan
	p.AddTags(desiredTags, st.Tags, func(ctx context.Context, _ map[string]string, _ []string) error {
		return d.putTags(ctx, name, desiredTags)
	})
	if s.Versioning != nil && s.Versioning.Enabled != (st.Versioning == types.BucketVersioningStatusEnabled) {
		p.AddValue("versioning", st.Versioning == types.BucketVersioningStatusEnabled, s.Versioning.Enabled, func(ctx context.Context) error {
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
		p.AddValue("publicAccessBlock", publicAccessBlockOf(st.PublicAccessBlock), *s.PublicAccessBlock, func(ctx context.Context) error {
			pab := s.PublicAccessBlock
			_, err := d.api.PutPublicAccessBlock(ctx, &s3.PutPublicAccessBlockInput{Bucket: bucket, PublicAccessBlockConfiguration: &types.PublicAccessBlockConfiguration{
				BlockPublicAcls: aws.Bool(pab.BlockPublicAcls), IgnorePublicAcls: aws.Bool(pab.IgnorePublicAcls),
				BlockPublicPolicy: aws.Bool(pab.BlockPublicPolicy), RestrictPublicBuckets: aws.Bool(pab.RestrictPublicBuckets)}})
			return managed.Wrap(err, "put public access block of bucket %s", name)
		})
	}
	if s.ObjectOwnership != "" && st.ObjectOwnership != types.ObjectOwnership(s.ObjectOwnership) {
		p.AddValue("objectOwnership", st.ObjectOwnership, s.ObjectOwnership, func(ctx context.Context) error {
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
	if want, differs := desiredPolicy(s.Policy, st.Policy, "arn:"+provider.Partition(st.Region)+":s3:::"+name); differs {
		p.Add("policy", func(ctx context.Context) error {
			if want == "" {
				_, err := d.api.DeleteBucketPolicy(ctx, &s3.DeleteBucketPolicyInput{Bucket: bucket})
				return managed.Wrap(err, "delete policy of bucket %s", name)
			}
			_, err := d.api.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: bucket, Policy: aws.String(want)})
			return managed.Wrap(err, "put policy of bucket %s", name)
		})
	}
	return p
}

// desiredPolicy returns the bucket policy to write ("" for none) and whether it differs from
// the observed one: the spec's statements with the statements CloudFrontDistributions and
// other buckets' logging granted in the policy of the bucket with bucketARN kept, each
// exactly as the operator writes it (policy.Document.Granted). Any other statement under
// policy.ReservedSidPrefix, added or widened outside the operator, is a difference like any
// other: the spec never holds one.
// Policies are compared by what they say: AWS keeps neither the spec's spacing nor always its
// form. An observed policy that is not JSON holds no granted statement and is replaced.
func desiredPolicy(spec, observed, bucketARN string) (string, bool) {
	have, err := policy.Parse(observed)
	if err != nil {
		return spec, !policy.Equivalent(spec, observed)
	}
	granted := append(have.Granted(policy.CloudFrontRead, bucketARN), have.Granted(policy.LogDelivery, bucketARN)...)
	if len(granted) == 0 {
		return spec, !policy.Equivalent(spec, observed)
	}
	own, _ := policy.Parse(spec) // Validated before any AWS call.
	want := policy.Merge(own, policy.ReservedSidPrefix, granted)
	return want.String(), !policy.Equal(want, have)
}

// sameEncryption reports whether the default encryption is the spec's: its algorithm and,
// with KMS, its key (by id or ARN) and bucket key setting.
func sameEncryption(want *v1alpha1.S3Encryption, got *types.ServerSideEncryptionRule) bool {
	if got == nil || got.ApplyServerSideEncryptionByDefault == nil {
		return false
	}
	def := got.ApplyServerSideEncryptionByDefault
	return def.SSEAlgorithm == algorithm(want) && (!usesKMS(want) ||
		managed.SameKMSKey(want.KMSKeyID, aws.ToString(def.KMSMasterKeyID)) && aws.ToBool(got.BucketKeyEnabled) == want.BucketKeyEnabled)
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

// publicAccessBlockOf returns the bucket's public access block in the spec's form; a bucket
// without one blocks nothing.
func publicAccessBlockOf(got *types.PublicAccessBlockConfiguration) v1alpha1.S3PublicAccessBlock {
	if got == nil {
		return v1alpha1.S3PublicAccessBlock{}
	}
	return v1alpha1.S3PublicAccessBlock{BlockPublicAcls: aws.ToBool(got.BlockPublicAcls), IgnorePublicAcls: aws.ToBool(got.IgnorePublicAcls),
		BlockPublicPolicy: aws.ToBool(got.BlockPublicPolicy), RestrictPublicBuckets: aws.ToBool(got.RestrictPublicBuckets)}
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
	return slices.EqualFunc(want, got, func(w v1alpha1.S3CORSRule, g types.CORSRule) bool {
		return equality.Semantic.DeepEqual(w, specCORSRule(g))
	})
}

// algorithm returns the spec's encryption algorithm as S3 names it: aws_kms is aws:kms.
func algorithm(e *v1alpha1.S3Encryption) types.ServerSideEncryption {
	if e.Algorithm == "aws_kms" {
		return types.ServerSideEncryptionAwsKms
	}
	return types.ServerSideEncryption(e.Algorithm)
}

// usesKMS reports whether the spec's encryption uses a KMS key.
func usesKMS(e *v1alpha1.S3Encryption) bool {
	return algorithm(e) != types.ServerSideEncryptionAes256
}

// encryptionRule returns the default encryption rule of the spec.
func encryptionRule(e *v1alpha1.S3Encryption) types.ServerSideEncryptionRule {
	def := &types.ServerSideEncryptionByDefault{SSEAlgorithm: algorithm(e)}
	rule := types.ServerSideEncryptionRule{ApplyServerSideEncryptionByDefault: def}
	if usesKMS(e) {
		def.KMSMasterKeyID = aws.String(e.KMSKeyID)
		rule.BucketKeyEnabled = aws.Bool(e.BucketKeyEnabled)
	}
	return rule
}

// lifecycleRules returns the spec's lifecycle rules in S3's form.
func lifecycleRules(rules []v1alpha1.S3LifecycleRule) []types.LifecycleRule {
	out := make([]types.LifecycleRule, 0, len(rules))
	for _, r := range rules {
		rule := types.LifecycleRule{
			ID:     aws.String(r.ID),
			Status: types.ExpirationStatusDisabled,
			Filter: &types.LifecycleRuleFilter{Prefix: aws.String(r.Prefix)},
		}
		if r.Enabled {
			rule.Status = types.ExpirationStatusEnabled
		}
		for _, t := range r.Transitions {
			rule.Transitions = append(rule.Transitions, types.Transition{Days: aws.Int32(t.Days), StorageClass: types.TransitionStorageClass(t.StorageClass)})
		}
		if r.Expiration != nil {
			rule.Expiration = &types.LifecycleExpiration{Days: aws.Int32(r.Expiration.Days)}
		}
		if r.NoncurrentVersionExpiration != nil {
			rule.NoncurrentVersionExpiration = &types.NoncurrentVersionExpiration{NoncurrentDays: aws.Int32(r.NoncurrentVersionExpiration.NoncurrentDays)}
		}
		if r.AbortIncompleteMultipartUpload != nil {
			rule.AbortIncompleteMultipartUpload = &types.AbortIncompleteMultipartUpload{DaysAfterInitiation: aws.Int32(r.AbortIncompleteMultipartUpload.DaysAfterInitiation)}
		}
		out = append(out, rule)
	}
	return out
}

// specLifecycleRule returns an S3 lifecycle rule in the spec's form, and false when the rule
// uses settings the spec cannot express (a tag or size filter, a date, noncurrent version
// transitions), so that it differs from every rule of the spec.
func specLifecycleRule(r types.LifecycleRule) (v1alpha1.S3LifecycleRule, bool) {
	out := v1alpha1.S3LifecycleRule{ID: aws.ToString(r.ID), Enabled: r.Status == types.ExpirationStatusEnabled, Prefix: aws.ToString(r.Prefix)}
	ok := len(r.NoncurrentVersionTransitions) == 0
	if f := r.Filter; f != nil {
		out.Prefix = aws.ToString(f.Prefix)
		ok = ok && f.And == nil && f.Tag == nil && f.ObjectSizeGreaterThan == nil && f.ObjectSizeLessThan == nil
	}
	for _, t := range r.Transitions {
		ok = ok && t.Date == nil
		out.Transitions = append(out.Transitions, v1alpha1.S3Transition{Days: aws.ToInt32(t.Days), StorageClass: string(t.StorageClass)})
	}
	if e := r.Expiration; e != nil {
		ok = ok && e.Date == nil && !aws.ToBool(e.ExpiredObjectDeleteMarker)
		if e.Days != nil {
			out.Expiration = &v1alpha1.S3Expiration{Days: *e.Days}
		}
	}
	if e := r.NoncurrentVersionExpiration; e != nil {
		ok = ok && e.NewerNoncurrentVersions == nil
		out.NoncurrentVersionExpiration = &v1alpha1.S3NoncurrentVersionExpiration{NoncurrentDays: aws.ToInt32(e.NoncurrentDays)}
	}
	if a := r.AbortIncompleteMultipartUpload; a != nil {
		out.AbortIncompleteMultipartUpload = &v1alpha1.S3AbortIncompleteMultipartUpload{DaysAfterInitiation: aws.ToInt32(a.DaysAfterInitiation)}
	}
	return out, ok
}

// corsRules returns the spec's CORS rules in S3's form.
func corsRules(rules []v1alpha1.S3CORSRule) []types.CORSRule {
	out := make([]types.CORSRule, 0, len(rules))
	for _, r := range rules {
		rule := types.CORSRule{
			AllowedOrigins: r.AllowedOrigins,
			AllowedMethods: r.AllowedMethods,
			AllowedHeaders: r.AllowedHeaders,
			ExposeHeaders:  r.ExposeHeaders,
			MaxAgeSeconds:  r.MaxAgeSeconds,
		}
		if r.ID != "" {
			rule.ID = aws.String(r.ID)
		}
		out = append(out, rule)
	}
	return out
}

// specCORSRule returns an S3 CORS rule in the spec's form.
func specCORSRule(r types.CORSRule) v1alpha1.S3CORSRule {
	return v1alpha1.S3CORSRule{
		ID:             aws.ToString(r.ID),
		AllowedOrigins: r.AllowedOrigins,
		AllowedMethods: r.AllowedMethods,
		AllowedHeaders: r.AllowedHeaders,
		ExposeHeaders:  r.ExposeHeaders,
		MaxAgeSeconds:  r.MaxAgeSeconds,
	}
}
