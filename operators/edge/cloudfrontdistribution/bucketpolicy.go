package cloudfrontdistribution

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// sidPrefix starts the Sid of the statement a distribution keeps in the policy of each bucket
// it serves; the distribution's id follows. It begins with the prefix every operator-granted
// statement has, which the S3Bucket kind keeps beside its own policy.
const sidPrefix = policy.CloudFrontSidPrefix

// bucketDomainName returns the regional domain name of bucket in region, which CloudFront
// recognises as an S3 origin.
func bucketDomainName(bucket, region string) string {
	suffix := "amazonaws.com"
	if provider.Partition(region) == "aws-cn" {
		suffix = "amazonaws.com.cn"
	}
	return bucket + ".s3." + region + "." + suffix
}

// bucketOf returns the bucket an S3 origin's domain name (regional or global) names.
func bucketOf(domainName string) string {
	if i := strings.LastIndex(domainName, ".s3."); i > 0 {
		return domainName[:i]
	}
	return domainName
}

// bucketStatement returns the statement that lets the distribution with id and arn, through
// its origin access control, read the objects of bucket in partition, and nothing else
// (policy.CloudFrontReadStatement), which the S3Bucket kind keeps in its policy.
func bucketStatement(id, arn, partition, bucket string) map[string]any {
	return policy.CloudFrontReadStatement(id, arn, "arn:"+partition+":s3:::"+bucket)
}

// bucketPolicy reads the policy of bucket; a bucket without one has an empty document, and a
// policy that is not JSON is read as empty (the statement written replaces it).
func (d *driver) bucketPolicy(ctx context.Context, bucket string) (policy.Document, error) {
	out, err := d.s3.GetBucketPolicy(ctx, &s3.GetBucketPolicyInput{Bucket: aws.String(bucket)})
	if awserr.Code(err) == "NoSuchBucketPolicy" {
		return policy.Document{}, nil
	}
	if err != nil {
		return policy.Document{}, managed.Wrap(err, "get the policy of bucket %s", bucket)
	}
	doc, _ := policy.Parse(aws.ToString(out.Policy))
	return doc, nil
}

// putBucketPolicy writes the policy of bucket; an empty document deletes it.
func (d *driver) putBucketPolicy(ctx context.Context, bucket string, doc policy.Document) error {
	if text := doc.String(); text != "" {
		_, err := d.s3.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: aws.String(bucket), Policy: aws.String(text)})
		return managed.Wrap(err, "put the policy of bucket %s", bucket)
	}
	_, err := d.s3.DeleteBucketPolicy(ctx, &s3.DeleteBucketPolicyInput{Bucket: aws.String(bucket)})
	return managed.Wrap(err, "delete the policy of bucket %s", bucket)
}

// grant plans adding the distribution's statement to the policy of bucket when the policy,
// read now, lacks it: after the distribution is created, or when it was removed outside.
func (d *driver) grant(ctx context.Context, plan *managed.Plan, st map[string]any, bucket string) error {
	doc, err := d.bucketPolicy(ctx, bucket)
	if err != nil || doc.Has(st) {
		return err
	}
	plan.Add(fmt.Sprintf("bucketPolicy(%s)", bucket), func(ctx context.Context) error {
		return d.putBucketPolicy(ctx, bucket, doc.With(st))
	})
	return nil
}

// revoke removes the statement of the distribution with id from the policy of bucket, read
// again first so that the statements others wrote since stay. A bucket that no longer exists
// holds no statement.
func (d *driver) revoke(ctx context.Context, id, bucket string) error {
	doc, err := d.bucketPolicy(ctx, bucket)
	if awserr.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	without := doc.Without(sidPrefix + id)
	if len(without.Statements) == len(doc.Statements) {
		return nil
	}
	err = d.putBucketPolicy(ctx, bucket, without)
	if awserr.IsNotFound(err) {
		return nil
	}
	return err
}
