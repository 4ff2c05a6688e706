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

// Create creates the bucket in the provider's region with its object ownership, records its
// name, and tags it with req.Tags. The rest of the configuration is planned by the observation
// the engine makes right after, in the same pass (the kind's ReadyIn is zero), and applied then.
func (d *driver) Create(ctx context.Context, b *v1alpha1.S3Bucket, req managed.Request) error {
	name := b.Spec.BucketName
	in := &s3.CreateBucketInput{Bucket: aws.String(name), ObjectOwnership: types.ObjectOwnership(b.Spec.ObjectOwnership)}
	if d.region != "us-east-1" {
		in.CreateBucketConfiguration = &types.CreateBucketConfiguration{LocationConstraint: types.BucketLocationConstraint(d.region)}
	}
	_, err := d.api.CreateBucket(ctx, in)
	switch awserr.Code(err) {
	case "":
	case "BucketAlreadyOwnedByYou":
		// The account has the bucket already; Observe's Claim decides whether it is this
		// object's, from its ownership tags.
		return nil
	case "BucketAlreadyExists":
		return managed.Terminal(condition.ReasonAlreadyExists, "S3 bucket name %s is taken by another AWS account; bucket names are global "+
			"across every account, so choose another bucketName", name)
	default:
		return fmt.Errorf("create bucket %s: %w", name, err)
	}
	managed.SetExternalName(b, name)
	return d.putTags(ctx, name, req.Tags)
}

// putTags replaces the bucket's tag set with tags; S3 has no call that changes one tag.
func (d *driver) putTags(ctx context.Context, name string, tags map[string]string) error {
	if len(tags) == 0 {
		_, err := d.api.DeleteBucketTagging(ctx, &s3.DeleteBucketTaggingInput{Bucket: aws.String(name)})
		return managed.Wrap(err, "delete tagging of bucket %s", name)
	}
	set := managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
	_, err := d.api.PutBucketTagging(ctx, &s3.PutBucketTaggingInput{Bucket: aws.String(name), Tagging: &types.Tagging{TagSet: set}})
	return managed.Wrap(err, "put tagging of bucket %s", name)
}

// Delete deletes the bucket, after removing from its notifications' destinations the
// statements that let S3 deliver to them, and from its logging target the statement that lets
// the logging service write there. With spec.forceDestroy it first deletes every object version and
// delete marker, a bounded number of pages per pass. Without it, a bucket that still holds
// objects is kept and the object waits with a terminal condition until forceDestroy is set (a
// spec change wakes it) or the deletion policy changes.
func (d *driver) Delete(ctx context.Context, b *v1alpha1.S3Bucket, obs managed.Observation[State]) error {
	name := obs.State.Name
	notifications, err := d.api.GetBucketNotificationConfiguration(ctx, &s3.GetBucketNotificationConfigurationInput{Bucket: aws.String(name)})
	switch {
	case awserr.IsNotFound(err):
		return nil
	case err != nil:
		return fmt.Errorf("get notification configuration of bucket %s: %w", name, err)
	}
	if err := d.revokeAll(ctx, b, bucketARN(obs.State), observedNotifications(notifications)); err != nil {
		return err
	}
	if err := d.revokeLogging(ctx, b, obs.State); err != nil {
		return err
	}
	if b.Spec.ForceDestroy {
		empty, err := d.empty(ctx, name)
		if err != nil || !empty {
			return err
		}
	}
	_, err = d.api.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: aws.String(name)})
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
