package s3bucket

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

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

// publicAccessBlock returns the public access block of the spec.
func publicAccessBlock(p *v1alpha1.S3PublicAccessBlock) *types.PublicAccessBlockConfiguration {
	return &types.PublicAccessBlockConfiguration{
		BlockPublicAcls:       aws.Bool(p.BlockPublicAcls),
		IgnorePublicAcls:      aws.Bool(p.IgnorePublicAcls),
		BlockPublicPolicy:     aws.Bool(p.BlockPublicPolicy),
		RestrictPublicBuckets: aws.Bool(p.RestrictPublicBuckets),
	}
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

// awsTags returns tags in S3's form, sorted by key for stable requests.
func awsTags(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}

// tagMap returns an S3 tag set as a map.
func tagMap(set []types.Tag) map[string]string {
	return managed.TagMap(set, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
}

// partition returns the AWS partition of region.
func partition(region string) string {
	switch {
	case strings.HasPrefix(region, "cn-"):
		return "aws-cn"
	case strings.HasPrefix(region, "us-gov-"):
		return "aws-us-gov"
	}
	return "aws"
}

// domainName returns the bucket's virtual-hosted domain name: the legacy global endpoint in
// us-east-1, the regional endpoint elsewhere (bucket.s3.region.amazonaws.com), as AWS's
// virtual-hosted-style addressing documents them.
func domainName(bucket, region string) string {
	suffix := "amazonaws.com"
	if partition(region) == "aws-cn" {
		suffix = "amazonaws.com.cn"
	}
	if region == "us-east-1" {
		return bucket + ".s3." + suffix
	}
	return bucket + ".s3." + region + "." + suffix
}
