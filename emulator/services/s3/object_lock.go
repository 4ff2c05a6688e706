package s3

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// putObjectLockConfiguration enables Object Lock on a bucket, or changes its default retention.
// As AWS documents, the bucket must have versioning enabled (InvalidBucketState), Object Lock
// cannot be disabled once enabled, and a default retention needs a mode (GOVERNANCE or
// COMPLIANCE) and a positive period in Days or Years, not both. Objects are not retained:
// the emulator keeps the configuration only.
func (b *Backend) putObjectLockConfiguration(call *core.Call, in *s3.PutObjectLockConfigurationInput) (*s3.PutObjectLockConfigurationOutput, error) {
	return &s3.PutObjectLockConfigurationOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		c := in.ObjectLockConfiguration
		if c == nil || c.ObjectLockEnabled != types.ObjectLockEnabledEnabled {
			return malformedXML()
		}
		if bk.versioning != types.BucketVersioningStatusEnabled {
			return core.Errorf("InvalidBucketState", "Versioning must be 'Enabled' on the bucket to apply a Object Lock configuration")
		}
		if r := c.Rule; r != nil {
			d := r.DefaultRetention
			if d == nil || (d.Mode != types.ObjectLockRetentionModeGovernance && d.Mode != types.ObjectLockRetentionModeCompliance) ||
				(d.Days == nil) == (d.Years == nil) {
				return malformedXML()
			}
			if aws.ToInt32(d.Days) < 0 || aws.ToInt32(d.Years) < 0 || aws.ToInt32(d.Days)+aws.ToInt32(d.Years) == 0 {
				return core.Errorf("InvalidArgument", "Default retention period must be a positive integer value.")
			}
		}
		bk.objectLock = c
		return nil
	})
}

// getObjectLockConfiguration returns the Object Lock configuration of a bucket with Object
// Lock enabled, or ObjectLockConfigurationNotFoundError (404) for any other bucket.
func (b *Backend) getObjectLockConfiguration(call *core.Call, in *s3.GetObjectLockConfigurationInput) (*s3.GetObjectLockConfigurationOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetObjectLockConfigurationOutput, error) {
		return &s3.GetObjectLockConfigurationOutput{ObjectLockConfiguration: bk.objectLock}, absent(bk.objectLock == nil, "ObjectLockConfigurationNotFoundError", "Object Lock configuration does not exist for this bucket")
	})
}
