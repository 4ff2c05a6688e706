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

// Create creates the bucket in the provider's region with its object ownership, records its
// name, and tags it with req.Tags. The rest of the configuration is planned by Observe and
// applied on the next pass.
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
	_, err := d.api.PutBucketTagging(ctx, &s3.PutBucketTaggingInput{Bucket: aws.String(name), Tagging: &types.Tagging{TagSet: awsTags(tags)}})
	return managed.Wrap(err, "put tagging of bucket %s", name)
}
