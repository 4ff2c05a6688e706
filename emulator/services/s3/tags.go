package s3

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are S3's limits on bucket tags: 50 a bucket, keys of 1 to 128 characters and values
// of at most 256 (Amazon S3 User Guide, Using cost allocation S3 bucket tags). S3 refuses a tag
// set that breaks them with InvalidTag (Amazon S3 API Reference, PutBucketTagging).
var tagRules = core.TagRules{
	MaxTags:  50,
	TooMany:  core.Errorf("InvalidTag", "Object tags cannot be greater than 50"),
	Invalid:  func(string) *core.APIError { return invalidTagKey() },
	Repeated: func(string) *core.APIError { return invalidTagKey() },
}

// tagPair returns an SDK tag's key and value.
func tagPair(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) }

// invalidTagKey returns the InvalidTag error S3 answers a tag it refuses.
func invalidTagKey() *core.APIError {
	return core.Errorf("InvalidTag", "The TagKey you have provided is invalid")
}

// putBucketTagging replaces the bucket's tags with the request's tag set.
func (b *Backend) putBucketTagging(call *core.Call, in *s3.PutBucketTaggingInput) (*s3.PutBucketTaggingOutput, error) {
	return &s3.PutBucketTaggingOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if in.Tagging == nil {
			return malformedXML()
		}
		tags, err := core.RequestTags(tagRules, in.Tagging.TagSet, tagPair)
		if err != nil {
			return err
		}
		return b.tags.Replace(bk.name, tags)
	})
}

func (b *Backend) getBucketTagging(call *core.Call, in *s3.GetBucketTaggingInput) (*s3.GetBucketTaggingOutput, error) {
	out := &s3.GetBucketTaggingOutput{}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		out.TagSet = core.TagList(b.tags, bk.name, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
		if len(out.TagSet) == 0 {
			return missing("NoSuchTagSet", "The TagSet does not exist")
		}
		return nil
	})
}

func (b *Backend) deleteBucketTagging(call *core.Call, in *s3.DeleteBucketTaggingInput) (*s3.DeleteBucketTaggingOutput, error) {
	return &s3.DeleteBucketTaggingOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error { b.tags.Delete(bk.name); return nil })
}
