package s3

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// putBucketReplication sets the bucket's replication rules. As AWS requires, the bucket must
// have versioning enabled, the configuration needs a role and 1 to 1000 rules, and each rule's
// destination (arn:aws:s3:::name) must be an existing bucket with versioning enabled. Nothing is
// replicated.
func (b *Backend) putBucketReplication(call *core.Call, in *s3.PutBucketReplicationInput) (*s3.PutBucketReplicationOutput, error) {
	return &s3.PutBucketReplicationOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		c := in.ReplicationConfiguration
		if c == nil || aws.ToString(c.Role) == "" || len(c.Rules) == 0 || len(c.Rules) > 1000 {
			return malformedXML()
		}
		if bk.versioning != types.BucketVersioningStatusEnabled {
			return core.Errorf("InvalidRequest", "Versioning must be 'Enabled' on the bucket to apply a replication configuration")
		}
		for _, r := range c.Rules {
			if r.Status != types.ReplicationRuleStatusEnabled && r.Status != types.ReplicationRuleStatusDisabled || r.Destination == nil {
				return malformedXML()
			}
			name, ok := strings.CutPrefix(aws.ToString(r.Destination.Bucket), "arn:aws:s3:::")
			if !ok {
				return core.Errorf("InvalidArgument", "Invalid bucket ARN.")
			}
			dest, ok := b.buckets[name]
			if !ok {
				return core.Errorf("InvalidRequest", "Destination bucket must exist.")
			}
			if dest.versioning != types.BucketVersioningStatusEnabled {
				return core.Errorf("InvalidRequest", "Destination bucket must have versioning enabled.")
			}
		}
		bk.replication = c
		return nil
	})
}

// getBucketReplication returns the replication configuration, or
// ReplicationConfigurationNotFoundError (404).
func (b *Backend) getBucketReplication(call *core.Call, in *s3.GetBucketReplicationInput) (*s3.GetBucketReplicationOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetBucketReplicationOutput, error) {
		return &s3.GetBucketReplicationOutput{ReplicationConfiguration: bk.replication}, absent(bk.replication == nil, "ReplicationConfigurationNotFoundError", "The replication configuration was not found")
	})
}

// deleteBucketReplication removes the replication configuration; removing none succeeds.
func (b *Backend) deleteBucketReplication(call *core.Call, in *s3.DeleteBucketReplicationInput) (*s3.DeleteBucketReplicationOutput, error) {
	return &s3.DeleteBucketReplicationOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error { bk.replication = nil; return nil })
}
