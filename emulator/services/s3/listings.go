package s3

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// listing is one page of a bucket's current objects, as ListObjects and ListObjectsV2 share it.
type listing struct {
	contents  []types.Object
	prefixes  []types.CommonPrefix
	truncated bool
	last      string // the last key or common prefix listed, where the next page resumes
}

// maxKeys is the page size a request asks for: MaxKeys, at most (and by default) 1000.
func maxKeys(n *int32) int {
	if n != nil && *n >= 0 && *n < 1000 {
		return int(*n)
	}
	return 1000
}

// list returns up to limit current objects and common prefixes of bk whose keys start with
// prefix and sort after after, rolling keys that contain delimiter after the prefix up into
// common prefixes, as S3 does. The caller holds b.mu.
func list(bk *bucket, prefix, delimiter, after string, limit int) listing {
	var l listing
	seen := map[string]bool{}
	for _, k := range sortedKeys(bk, prefix) {
		o := latest(bk.objects[k])
		if k <= after || o.deleteMarker {
			continue
		}
		common := ""
		if delimiter != "" {
			if i := strings.Index(k[len(prefix):], delimiter); i >= 0 {
				common = k[:len(prefix)+i+len(delimiter)]
			}
		}
		if common != "" && (seen[common] || common <= after) {
			continue
		}
		if len(l.contents)+len(l.prefixes) == limit {
			l.truncated = true
			break
		}
		if common != "" {
			seen[common] = true
			l.prefixes = append(l.prefixes, types.CommonPrefix{Prefix: aws.String(common)})
			l.last = common
			continue
		}
		l.contents = append(l.contents, types.Object{Key: aws.String(k), ETag: aws.String(o.etag),
			Size: aws.Int64(int64(len(o.body))), LastModified: aws.Time(o.modified), StorageClass: types.ObjectStorageClassStandard})
		l.last = k
	}
	return l
}

// listObjectsV2 lists a page of current objects; the continuation token is the last key or
// common prefix of the previous page.
func (b *Backend) listObjectsV2(call *core.Call, in *s3.ListObjectsV2Input) (*s3.ListObjectsV2Output, error) {
	out := &s3.ListObjectsV2Output{Name: in.Bucket, Prefix: in.Prefix, Delimiter: in.Delimiter, ContinuationToken: in.ContinuationToken,
		StartAfter: in.StartAfter, KeyCount: aws.Int32(0)}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		limit := maxKeys(in.MaxKeys)
		after := aws.ToString(in.StartAfter)
		if t := aws.ToString(in.ContinuationToken); t != "" {
			after = t
		}
		l := list(bk, aws.ToString(in.Prefix), aws.ToString(in.Delimiter), after, limit)
		out.MaxKeys, out.Contents, out.CommonPrefixes = aws.Int32(int32(limit)), l.contents, l.prefixes
		out.KeyCount = aws.Int32(int32(len(l.contents) + len(l.prefixes)))
		out.IsTruncated = aws.Bool(l.truncated)
		if l.truncated {
			out.NextContinuationToken = aws.String(l.last)
		}
		return nil
	})
}

// listObjects is version 1 of the listing: it pages with Marker, and gives NextMarker only
// when a delimiter is set (without one, the next marker is the last key listed, as AWS
// documents).
func (b *Backend) listObjects(call *core.Call, in *s3.ListObjectsInput) (*s3.ListObjectsOutput, error) {
	out := &s3.ListObjectsOutput{Name: in.Bucket, Prefix: in.Prefix, Delimiter: in.Delimiter, Marker: in.Marker}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		limit := maxKeys(in.MaxKeys)
		l := list(bk, aws.ToString(in.Prefix), aws.ToString(in.Delimiter), aws.ToString(in.Marker), limit)
		out.MaxKeys, out.Contents, out.CommonPrefixes = aws.Int32(int32(limit)), l.contents, l.prefixes
		out.IsTruncated = aws.Bool(l.truncated)
		if out.Marker == nil {
			out.Marker = aws.String("")
		}
		if l.truncated && in.Delimiter != nil {
			out.NextMarker = aws.String(l.last)
		}
		return nil
	})
}

// listMultipartUploads lists the bucket's multipart uploads in progress. Multipart uploads are
// not emulated, so the list is always empty.
func (b *Backend) listMultipartUploads(call *core.Call, in *s3.ListMultipartUploadsInput) (*s3.ListMultipartUploadsOutput, error) {
	out := &s3.ListMultipartUploadsOutput{Bucket: in.Bucket, Prefix: in.Prefix, Delimiter: in.Delimiter,
		KeyMarker: aws.String(aws.ToString(in.KeyMarker)), UploadIdMarker: aws.String(aws.ToString(in.UploadIdMarker)),
		MaxUploads: aws.Int32(int32(maxKeys(in.MaxUploads))), IsTruncated: aws.Bool(false)}
	return out, b.withBucket(call, in.Bucket, onlyExists)
}

// getObjectAttributes returns the attributes GetObjectAttributes asks for: ETag (without
// quotes, as this operation gives it), StorageClass and ObjectSize, with LastModified and the
// version. Checksums and parts are not kept: objects are neither stored with checksums nor
// uploaded in parts.
func (b *Backend) getObjectAttributes(call *core.Call, in *s3.GetObjectAttributesInput) (*s3.GetObjectAttributesOutput, error) {
	out := &s3.GetObjectAttributesOutput{}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if len(in.ObjectAttributes) == 0 {
			return core.Errorf("InvalidArgument", "Invalid attribute name specified.")
		}
		o, err := find(bk, aws.ToString(in.Key), aws.ToString(in.VersionId))
		if err != nil {
			return err
		}
		out.LastModified, out.VersionId = aws.Time(o.modified), versionOf(o)
		for _, a := range in.ObjectAttributes {
			switch a {
			case types.ObjectAttributesEtag:
				out.ETag = aws.String(strings.Trim(o.etag, `"`))
			case types.ObjectAttributesStorageClass:
				out.StorageClass = types.StorageClassStandard
			case types.ObjectAttributesObjectSize:
				out.ObjectSize = aws.Int64(int64(len(o.body)))
			case types.ObjectAttributesChecksum, types.ObjectAttributesObjectParts:
			default:
				return core.Errorf("InvalidArgument", "Invalid attribute name specified.")
			}
		}
		return nil
	})
}
