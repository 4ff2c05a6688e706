package s3bucket

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// compare names every field of the spec that the bucket in st does not match, by the spec's
// JSON names.
func compare(b *v1alpha1.S3Bucket, st *State, desiredTags map[string]string) managed.Diff {
	s := &b.Spec
	var d managed.Diff
	set, remove := managed.TagChanges(desiredTags, st.Tags)
	d.Check("tags", len(set)+len(remove) > 0)
	d.Check("versioning", s.Versioning != nil && s.Versioning.Enabled != (st.Versioning == types.BucketVersioningStatusEnabled))
	d.Check("encryption", s.Encryption != nil && !sameEncryption(s.Encryption, st.Encryption))
	d.Check("publicAccessBlock", s.PublicAccessBlock != nil && !samePublicAccessBlock(s.PublicAccessBlock, st.PublicAccessBlock))
	d.Check("lifecycleRules", !sameLifecycle(s.LifecycleRules, st.Lifecycle))
	d.Check("corsRules", !sameCORS(s.CORSRules, st.CORS))
	d.Check("objectOwnership", s.ObjectOwnership != "" && st.ObjectOwnership != types.ObjectOwnership(s.ObjectOwnership))
	d.Check("policy", !samePolicy(s.Policy, st.Policy))
	return d
}

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
