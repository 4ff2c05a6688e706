package s3bucket

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// maxBatchesPerPass bounds how many pages of object versions one Delete removes, so that a
// pass returns quickly; the reconciler calls Delete again until the bucket is empty.
const maxBatchesPerPass = 10

// Delete deletes the bucket. With spec.forceDestroy it first deletes every object version and
// delete marker, a bounded number of pages per pass. Without it, a bucket that still holds
// objects is kept and the object waits with a terminal condition until forceDestroy is set (a
// spec change wakes it) or the deletion policy changes.
func (d *driver) Delete(ctx context.Context, b *v1alpha1.S3Bucket, obs managed.Observation[State]) error {
	name := obs.State.Name
	if b.Spec.ForceDestroy {
		empty, err := d.empty(ctx, name)
		if err != nil || !empty {
			return err
		}
	}
	_, err := d.api.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: aws.String(name)})
	switch {
	case err == nil, awserr.IsNotFound(err):
		return nil
	case awserr.Code(err) == "BucketNotEmpty" && !b.Spec.ForceDestroy:
		return managed.Terminal(condition.ReasonBucketNotEmpty, "bucket %s still holds objects: set spec.forceDestroy: true to delete them with the bucket, "+
			"or set deletionPolicy to Retain or Orphan to keep the bucket", name)
	}
	return fmt.Errorf("delete bucket %s: %w", name, err)
}

// empty deletes up to maxBatchesPerPass pages of object versions and delete markers (1000 each,
// one DeleteObjects call per page) and reports whether the bucket is now empty. Listing
// versions covers unversioned buckets too: their objects have the version "null".
func (d *driver) empty(ctx context.Context, name string) (bool, error) {
	for range maxBatchesPerPass {
		out, err := d.api.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: aws.String(name)})
		if err != nil {
			return false, fmt.Errorf("list object versions of bucket %s: %w", name, err)
		}
		ids := make([]types.ObjectIdentifier, 0, len(out.Versions)+len(out.DeleteMarkers))
		for _, v := range out.Versions {
			ids = append(ids, types.ObjectIdentifier{Key: v.Key, VersionId: v.VersionId})
		}
		for _, m := range out.DeleteMarkers {
			ids = append(ids, types.ObjectIdentifier{Key: m.Key, VersionId: m.VersionId})
		}
		if len(ids) == 0 {
			return true, nil
		}
		del, err := d.api.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: aws.String(name),
			Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(true)}})
		if err != nil {
			return false, fmt.Errorf("delete %d object versions of bucket %s: %w", len(ids), name, err)
		}
		if len(del.Errors) > 0 {
			e := del.Errors[0]
			return false, fmt.Errorf("delete object %s (version %s) of bucket %s: %s: %s", aws.ToString(e.Key), aws.ToString(e.VersionId),
				name, aws.ToString(e.Code), aws.ToString(e.Message))
		}
		if !aws.ToBool(out.IsTruncated) {
			return true, nil
		}
	}
	return false, nil
}

// ReleaseOwnership removes the ownership tags, for deletionPolicy Orphan. S3 replaces the
// whole tag set, so the other tags are written again.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.S3Bucket, obs managed.Observation[State]) error {
	return d.putTags(ctx, obs.State.Name, managed.WithoutOwnershipTags(obs.State.Tags))
}
