package differential

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// storageSteps is the S3 bucket sequence both sides run.
func storageSteps() []step[*s3.Client] {
	ctx := context.Background()
	bucket := aws.String("diff-app-data")
	return []step[*s3.Client]{
		{"CreateBucket", func(c *s3.Client) outcome {
			_, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: bucket})
			return observe(err, nil)
		}},
		{"CreateOwnBucketAgain", func(c *s3.Client) outcome {
			_, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: bucket})
			return observe(err, nil)
		}},
		{"CreateInvalidName", func(c *s3.Client) outcome {
			_, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("Invalid_Name")})
			return observe(err, nil)
		}},
		{"HeadBucket", func(c *s3.Client) outcome {
			_, err := c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: bucket})
			return observe(err, nil)
		}},
		{"HeadMissingBucket", func(c *s3.Client) outcome {
			_, err := c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String("diff-missing")})
			return observe(err, nil)
		}},
		{"PutBucketTagging", func(c *s3.Client) outcome {
			_, err := c.PutBucketTagging(ctx, &s3.PutBucketTaggingInput{Bucket: bucket, Tagging: &types.Tagging{TagSet: []types.Tag{{Key: aws.String("team"), Value: aws.String("data")}}}})
			if err != nil {
				return observe(err, nil)
			}
			out, err := c.GetBucketTagging(ctx, &s3.GetBucketTaggingInput{Bucket: bucket})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"tags": fmt.Sprint(len(out.TagSet))})
		}},
		{"PutBucketEncryption", func(c *s3.Client) outcome {
			_, err := c.PutBucketEncryption(ctx, &s3.PutBucketEncryptionInput{Bucket: bucket, ServerSideEncryptionConfiguration: &types.ServerSideEncryptionConfiguration{
				Rules: []types.ServerSideEncryptionRule{{ApplyServerSideEncryptionByDefault: &types.ServerSideEncryptionByDefault{SSEAlgorithm: types.ServerSideEncryptionAes256}}}}})
			return observe(err, nil)
		}},
		{"PutObject", func(c *s3.Client) outcome {
			_, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: bucket, Key: aws.String("logs/app.log"), Body: strings.NewReader("hello")})
			return observe(err, nil)
		}},
		{"ListObjectsV2", func(c *s3.Client) outcome {
			out, err := c.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: bucket, Prefix: aws.String("logs/")})
			if err != nil {
				return observe(err, nil)
			}
			keys := []string{}
			for _, o := range out.Contents {
				keys = append(keys, aws.ToString(o.Key)+"/"+fmt.Sprint(aws.ToInt64(o.Size)))
			}
			return observe(nil, map[string]string{"keys": strings.Join(keys, ",")})
		}},
		{"DeleteNonEmptyBucket", func(c *s3.Client) outcome {
			_, err := c.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: bucket})
			return observe(err, nil)
		}},
		{"DeleteObject", func(c *s3.Client) outcome {
			_, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: bucket, Key: aws.String("logs/app.log")})
			return observe(err, nil)
		}},
		{"DeleteBucket", func(c *s3.Client) outcome {
			_, err := c.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: bucket})
			return observe(err, nil)
		}},
		{"HeadDeletedBucket", func(c *s3.Client) outcome {
			_, err := c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: bucket})
			return observe(err, nil)
		}},
	}
}

// TestStorageAgainstVersitygw compares S3 bucket basics with versitygw's posix gateway.
func TestStorageAgainstVersitygw(t *testing.T) {
	bin := peerBinary(t, "bin/versitygw-"+versitygwVersion)
	port := freePort(t)
	peerURL := startPeer(t, port, nil, bin, "--access", accessKey, "--secret", secretKey,
		"--port", fmt.Sprintf("127.0.0.1:%d", port), "posix", t.TempDir())
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	client := func(url string) *s3.Client {
		return s3.NewFromConfig(sdkConfig(t, url), func(o *s3.Options) { o.UsePathStyle = true })
	}
	compare(t, client(emu.URL), client(peerURL), "versitygw "+versitygwVersion, storageSteps(), map[string]string{
		"CreateOwnBucketAgain": "versitygw answers 409 BucketAlreadyOwnedByYou; AWS answers 200 in us-east-1 (legacy behaviour)",
		"PutBucketEncryption":  "versitygw does not implement bucket encryption (501); AWS accepts it",
	})
}
