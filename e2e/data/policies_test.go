package data_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPolicies runs the shared policy check on an S3Bucket: its outputs in a ConfigMap,
// versioning suspended outside the operator reported (driftPolicy Report) and then restored
// (Enforce), and a second object that only observes the bucket.
func TestPolicies(t *testing.T) {
	h := start(t)
	h.provider("default", "production-aws")
	c := h.s3Client()
	const bucket = "policy-check-bucket"
	versioning := func(ctx context.Context) (types.BucketVersioningStatus, error) {
		out, err := c.GetBucketVersioning(ctx, &s3.GetBucketVersioningInput{Bucket: aws.String(bucket)})
		if err != nil {
			return "", err
		}
		return out.Status, nil
	}
	kubetest.RunPolicyCheck(t, h.env.Client, kubetest.PolicyCheck[*v1alpha1.S3Bucket]{
		New: func(name string) *v1alpha1.S3Bucket {
			b := newBucket(name, bucket, "")
			b.Spec.Versioning = &v1alpha1.S3Versioning{Enabled: true}
			b.Spec.Tags = map[string]string{"team": "data"}
			return b
		},
		Outputs: []string{"bucketName", "arn", "regionalDomainName"},
		Drift: func(ctx context.Context, _ *v1alpha1.S3Bucket) error {
			_, err := c.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: aws.String(bucket),
				VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusSuspended}})
			return err
		},
		DriftField: "versioning",
		Drifted: func(ctx context.Context, _ *v1alpha1.S3Bucket) (bool, error) {
			status, err := versioning(ctx)
			return status == types.BucketVersioningStatusSuspended, err
		},
		Exists: func(ctx context.Context, _ *v1alpha1.S3Bucket) (bool, error) {
			_, err := c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(bucket)})
			return kubetest.Found(err)
		},
	})
}
