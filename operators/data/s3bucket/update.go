package s3bucket

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Update applies what differs, one call per differing sub-configuration. The public access
// block goes before the policy, so that a spec that relaxes the block and adds a public policy
// is applied in one pass; lifecycle rules, CORS rules and the policy are deleted when the
// spec has none.
func (d *driver) Update(ctx context.Context, b *v1alpha1.S3Bucket, obs managed.Observation[State]) error {
	st, s := obs.State, &b.Spec
	desiredTags := managed.DesiredTags(b, d.defaultTags)
	diff := compare(b, st, desiredTags)
	bucket := aws.String(st.Name)
	if diff.Has("tags") {
		if err := d.putTags(ctx, st.Name, desiredTags); err != nil {
			return err
		}
	}
	if diff.Has("versioning") {
		status := types.BucketVersioningStatusSuspended
		if s.Versioning.Enabled {
			status = types.BucketVersioningStatusEnabled
		}
		if _, err := d.api.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: bucket,
			VersioningConfiguration: &types.VersioningConfiguration{Status: status}}); err != nil {
			return fmt.Errorf("put versioning of bucket %s: %w", st.Name, err)
		}
	}
	if diff.Has("encryption") {
		if _, err := d.api.PutBucketEncryption(ctx, &s3.PutBucketEncryptionInput{Bucket: bucket,
			ServerSideEncryptionConfiguration: &types.ServerSideEncryptionConfiguration{Rules: []types.ServerSideEncryptionRule{encryptionRule(s.Encryption)}}}); err != nil {
			return fmt.Errorf("put encryption of bucket %s: %w", st.Name, err)
		}
	}
	if diff.Has("publicAccessBlock") {
		if _, err := d.api.PutPublicAccessBlock(ctx, &s3.PutPublicAccessBlockInput{Bucket: bucket,
			PublicAccessBlockConfiguration: publicAccessBlock(s.PublicAccessBlock)}); err != nil {
			return fmt.Errorf("put public access block of bucket %s: %w", st.Name, err)
		}
	}
	if diff.Has("objectOwnership") {
		if _, err := d.api.PutBucketOwnershipControls(ctx, &s3.PutBucketOwnershipControlsInput{Bucket: bucket,
			OwnershipControls: &types.OwnershipControls{Rules: []types.OwnershipControlsRule{{ObjectOwnership: types.ObjectOwnership(s.ObjectOwnership)}}}}); err != nil {
			return fmt.Errorf("put ownership controls of bucket %s: %w", st.Name, err)
		}
	}
	if diff.Has("lifecycleRules") {
		if err := d.updateLifecycle(ctx, st.Name, s.LifecycleRules); err != nil {
			return err
		}
	}
	if diff.Has("corsRules") {
		if err := d.updateCORS(ctx, st.Name, s.CORSRules); err != nil {
			return err
		}
	}
	if diff.Has("policy") {
		if err := d.updatePolicy(ctx, st.Name, s.Policy); err != nil {
			return err
		}
	}
	return nil
}

// updateLifecycle replaces the bucket's lifecycle rules, or deletes them when rules is empty.
func (d *driver) updateLifecycle(ctx context.Context, name string, rules []v1alpha1.S3LifecycleRule) error {
	if len(rules) == 0 {
		if _, err := d.api.DeleteBucketLifecycle(ctx, &s3.DeleteBucketLifecycleInput{Bucket: aws.String(name)}); err != nil {
			return fmt.Errorf("delete lifecycle configuration of bucket %s: %w", name, err)
		}
		return nil
	}
	if _, err := d.api.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: aws.String(name),
		LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: lifecycleRules(rules)}}); err != nil {
		return fmt.Errorf("put lifecycle configuration of bucket %s: %w", name, err)
	}
	return nil
}

// updateCORS replaces the bucket's CORS rules, or deletes them when rules is empty.
func (d *driver) updateCORS(ctx context.Context, name string, rules []v1alpha1.S3CORSRule) error {
	if len(rules) == 0 {
		if _, err := d.api.DeleteBucketCors(ctx, &s3.DeleteBucketCorsInput{Bucket: aws.String(name)}); err != nil {
			return fmt.Errorf("delete CORS configuration of bucket %s: %w", name, err)
		}
		return nil
	}
	if _, err := d.api.PutBucketCors(ctx, &s3.PutBucketCorsInput{Bucket: aws.String(name),
		CORSConfiguration: &types.CORSConfiguration{CORSRules: corsRules(rules)}}); err != nil {
		return fmt.Errorf("put CORS configuration of bucket %s: %w", name, err)
	}
	return nil
}

// updatePolicy replaces the bucket's policy, or deletes it when policy is empty.
func (d *driver) updatePolicy(ctx context.Context, name, policy string) error {
	if policy == "" {
		if _, err := d.api.DeleteBucketPolicy(ctx, &s3.DeleteBucketPolicyInput{Bucket: aws.String(name)}); err != nil {
			return fmt.Errorf("delete policy of bucket %s: %w", name, err)
		}
		return nil
	}
	if _, err := d.api.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: aws.String(name), Policy: aws.String(policy)}); err != nil {
		return fmt.Errorf("put policy of bucket %s: %w", name, err)
	}
	return nil
}
