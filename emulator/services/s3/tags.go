package s3

import (
	"net/url"

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
		tags, err := core.RequestTags(tagRules, in.Tagging.TagSet, core.TagPair[types.Tag])
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

// objectTagRules are S3's limits on object tags: 10 an object, keys of 1 to 128 characters and
// values of at most 256 (Amazon S3 User Guide, Categorizing your storage using tags).
var objectTagRules = core.TagRules{
	MaxTags: 10,
	TooMany: core.Errorf("InvalidTag", "Object tags cannot be greater than 10"),
	Invalid: func(string) *core.APIError { return invalidTagKey() },
	Repeated: func(string) *core.APIError {
		return core.Errorf("InvalidTag", "Cannot provide multiple Tags with the same key")
	},
}

// objectTags parses PutObject's x-amz-tagging header, URL query encoded ("k1=v1&k2=v2").
func objectTags(header string) (map[string]string, error) {
	if header == "" {
		return nil, nil
	}
	q, err := url.ParseQuery(header)
	if err != nil {
		return nil, core.Errorf("InvalidArgument", "The header 'x-amz-tagging' shall be encoded as UTF-8 then URLEncoded URL query parameters without tag name duplicates.")
	}
	tags := map[string]string{}
	for k, vs := range q {
		if len(vs) != 1 {
			return nil, core.Errorf("InvalidArgument", "The header 'x-amz-tagging' shall be encoded as UTF-8 then URLEncoded URL query parameters without tag name duplicates.")
		}
		tags[k] = vs[0]
	}
	return tags, objectTagRules.Check(tags)
}

// taggedVersion returns the object version a tagging request names: the current version, or
// the one with versionID. The caller holds b.mu.
func taggedVersion(bk *bucket, key string, versionID *string) (*object, error) {
	o, err := find(bk, key, aws.ToString(versionID))
	if err != nil {
		return nil, err
	}
	if o.deleteMarker {
		return nil, core.Errorf("MethodNotAllowed", "The specified method is not allowed against this resource.")
	}
	return o, nil
}

// versionOf returns the version ID S3 reports for o: none for the "null" version.
func versionOf(o *object) *string {
	if o.versionID == "null" {
		return nil
	}
	return aws.String(o.versionID)
}

// putObjectTagging replaces the tags of an object version (the current one by default).
func (b *Backend) putObjectTagging(call *core.Call, in *s3.PutObjectTaggingInput) (*s3.PutObjectTaggingOutput, error) {
	out := &s3.PutObjectTaggingOutput{}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if in.Tagging == nil {
			return malformedXML()
		}
		tags, err := core.RequestTags(objectTagRules, in.Tagging.TagSet, core.TagPair[types.Tag])
		if err != nil {
			return err
		}
		if err := objectTagRules.Check(tags); err != nil {
			return err
		}
		o, err := taggedVersion(bk, aws.ToString(in.Key), in.VersionId)
		if err != nil {
			return err
		}
		o.tags, out.VersionId = tags, versionOf(o)
		return nil
	})
}

// getObjectTagging returns the tags of an object version; an object without tags has an empty
// tag set, not an error.
func (b *Backend) getObjectTagging(call *core.Call, in *s3.GetObjectTaggingInput) (*s3.GetObjectTaggingOutput, error) {
	out := &s3.GetObjectTaggingOutput{TagSet: []types.Tag{}}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		o, err := taggedVersion(bk, aws.ToString(in.Key), in.VersionId)
		if err != nil {
			return err
		}
		for _, k := range core.SortedKeys(o.tags) {
			out.TagSet = append(out.TagSet, types.Tag{Key: aws.String(k), Value: aws.String(o.tags[k])})
		}
		out.VersionId = versionOf(o)
		return nil
	})
}

// deleteObjectTagging removes every tag of an object version.
func (b *Backend) deleteObjectTagging(call *core.Call, in *s3.DeleteObjectTaggingInput) (*s3.DeleteObjectTaggingOutput, error) {
	out := &s3.DeleteObjectTaggingOutput{}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		o, err := taggedVersion(bk, aws.ToString(in.Key), in.VersionId)
		if err != nil {
			return err
		}
		o.tags, out.VersionId = nil, versionOf(o)
		return nil
	})
}
