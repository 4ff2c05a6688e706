package s3

import (
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// putBucketAbac turns attribute-based access control on or off for a bucket (Enabled or
// Disabled). The emulator records it; it checks no tag-based permission either way.
func (b *Backend) putBucketAbac(call *core.Call, in *s3.PutBucketAbacInput) (*s3.PutBucketAbacOutput, error) {
	return &s3.PutBucketAbacOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if in.AbacStatus == nil {
			return malformedXML()
		}
		switch st := in.AbacStatus.Status; st {
		case types.BucketAbacStatusEnabled, types.BucketAbacStatusDisabled:
			bk.abac = st
			return nil
		default:
			return malformedXML()
		}
	})
}

// getBucketAbac returns a bucket's ABAC status: Disabled, AWS's default, unless it was
// enabled.
func (b *Backend) getBucketAbac(call *core.Call, in *s3.GetBucketAbacInput) (*s3.GetBucketAbacOutput, error) {
	out := &s3.GetBucketAbacOutput{AbacStatus: &types.AbacStatus{Status: types.BucketAbacStatusDisabled}}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if bk.abac != "" {
			out.AbacStatus.Status = bk.abac
		}
		return nil
	})
}
