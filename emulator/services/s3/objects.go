package s3

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// object is one version of an object, or a delete marker.
type object struct {
	versionID    string
	contentType  string
	body         []byte
	etag         string
	modified     time.Time
	deleteMarker bool
	encryption   encryption
	tags         map[string]string // from x-amz-tagging or PutObjectTagging
}

// latest returns the current version of a key, or nil.
func latest(versions []*object) *object {
	if len(versions) == 0 {
		return nil
	}
	return versions[len(versions)-1]
}

func (b *Backend) nextVersion(bk *bucket) string {
	if bk.versioning != types.BucketVersioningStatusEnabled {
		return "null"
	}
	b.seq++
	return fmt.Sprintf("v%012d", b.seq)
}

// store adds a version of key, replacing the "null" version when versioning is off or
// suspended, as S3 does.
func (b *Backend) store(bk *bucket, key string, o *object) {
	o.versionID = b.nextVersion(bk)
	versions := bk.objects[key]
	if o.versionID == "null" {
		kept := versions[:0]
		for _, v := range versions {
			if v.versionID != "null" {
				kept = append(kept, v)
			}
		}
		versions = kept
	}
	bk.objects[key] = append(versions, o)
}

func noSuchKey() *core.APIError {
	return core.NotFoundf("NoSuchKey", "The specified key does not exist.")
}

func (b *Backend) putObject(call *core.Call, in *s3.PutObjectInput) (*s3.PutObjectOutput, error) {
	var body []byte
	if in.Body != nil {
		var err error
		if body, err = io.ReadAll(in.Body); err != nil {
			return nil, core.Errorf("IncompleteBody", "cannot read the object body")
		}
	}
	tags, err := objectTags(aws.ToString(in.Tagging))
	if err != nil {
		return nil, err
	}
	sum := md5.Sum(body)
	o := &object{tags: tags, body: body, etag: `"` + hex.EncodeToString(sum[:]) + `"`, modified: call.Now, contentType: aws.ToString(in.ContentType)}
	if o.contentType == "" {
		o.contentType = "binary/octet-stream"
	}
	out := &s3.PutObjectOutput{ETag: aws.String(o.etag)}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		enc, err := b.objectEncryption(bk, in)
		if err != nil {
			return err
		}
		o.encryption = enc
		out.ServerSideEncryption, out.SSEKMSKeyId = enc.algorithm, optional(enc.keyARN)
		b.store(bk, aws.ToString(in.Key), o)
		b.notify(bk, types.EventS3ObjectCreatedPut, aws.ToString(in.Key), o, call.Now)
		if o.versionID != "null" {
			out.VersionId = aws.String(o.versionID)
		}
		return nil
	})
}

// find returns the object a GetObject or HeadObject names. The caller holds b.mu.
func find(bk *bucket, key, version string) (*object, error) {
	versions := bk.objects[key]
	if version == "" {
		o := latest(versions)
		if o == nil || o.deleteMarker {
			return nil, noSuchKey()
		}
		return o, nil
	}
	for _, o := range versions {
		if o.versionID == version {
			return o, nil
		}
	}
	return nil, core.Errorf("NoSuchVersion", "The specified version does not exist.")
}

func (b *Backend) getObject(call *core.Call, in *s3.GetObjectInput) (*s3.GetObjectOutput, error) {
	out := &s3.GetObjectOutput{}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		o, err := find(bk, aws.ToString(in.Key), aws.ToString(in.VersionId))
		if err != nil {
			return err
		}
		out.Body = io.NopCloser(bytes.NewReader(o.body))
		out.ContentLength = aws.Int64(int64(len(o.body)))
		out.ContentType = aws.String(o.contentType)
		out.ETag, out.LastModified = aws.String(o.etag), aws.Time(o.modified)
		out.ServerSideEncryption, out.SSEKMSKeyId = o.encryption.algorithm, optional(o.encryption.keyARN)
		out.VersionId = versionOf(o)
		if len(o.tags) > 0 {
			out.TagCount = aws.Int32(int32(len(o.tags)))
		}
		return nil
	})
}

func (b *Backend) headObject(call *core.Call, in *s3.HeadObjectInput) (*s3.HeadObjectOutput, error) {
	out := &s3.HeadObjectOutput{}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		o, err := find(bk, aws.ToString(in.Key), aws.ToString(in.VersionId))
		if err != nil {
			return &core.APIError{Code: "NotFound", Status: http.StatusNotFound, Message: "Not Found"}
		}
		out.ContentLength = aws.Int64(int64(len(o.body)))
		out.ETag, out.LastModified = aws.String(o.etag), aws.Time(o.modified)
		out.ServerSideEncryption, out.SSEKMSKeyId = o.encryption.algorithm, optional(o.encryption.keyARN)
		return nil
	})
}

// remove deletes a key or one version of it as S3 does: without a version, a versioned bucket
// gets a delete marker and an unversioned one loses the object. The caller holds b.mu.
func (b *Backend) remove(bk *bucket, key, version string, now time.Time) (marker bool, id string) {
	versions := bk.objects[key]
	if version != "" {
		kept := versions[:0]
		for _, o := range versions {
			if o.versionID != version {
				kept = append(kept, o)
			} else {
				marker = o.deleteMarker
			}
		}
		if len(kept) == 0 {
			delete(bk.objects, key)
		} else {
			bk.objects[key] = kept
		}
		return marker, version
	}
	if bk.versioning == "" {
		delete(bk.objects, key)
		return false, ""
	}
	m := &object{deleteMarker: true, modified: now}
	b.store(bk, key, m)
	return true, m.versionID
}

func (b *Backend) deleteObject(call *core.Call, in *s3.DeleteObjectInput) (*s3.DeleteObjectOutput, error) {
	out := &s3.DeleteObjectOutput{}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		marker, id := b.remove(bk, aws.ToString(in.Key), aws.ToString(in.VersionId), call.Now)
		b.notifyRemoved(bk, aws.ToString(in.Key), aws.ToString(in.VersionId), marker, id, call.Now)
		if marker {
			out.DeleteMarker = aws.Bool(true)
		}
		if id != "" && id != "null" {
			out.VersionId = aws.String(id)
		}
		return nil
	})
}

func (b *Backend) deleteObjects(call *core.Call, in *s3.DeleteObjectsInput) (*s3.DeleteObjectsOutput, error) {
	out := &s3.DeleteObjectsOutput{}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if in.Delete == nil || len(in.Delete.Objects) == 0 || len(in.Delete.Objects) > 1000 {
			return malformedXML()
		}
		for _, id := range in.Delete.Objects {
			marker, version := b.remove(bk, aws.ToString(id.Key), aws.ToString(id.VersionId), call.Now)
			b.notifyRemoved(bk, aws.ToString(id.Key), aws.ToString(id.VersionId), marker, version, call.Now)
			if aws.ToBool(in.Delete.Quiet) {
				continue
			}
			d := types.DeletedObject{Key: id.Key}
			if marker {
				d.DeleteMarker = aws.Bool(true)
			}
			if version != "" && version != "null" {
				d.VersionId = aws.String(version)
			}
			out.Deleted = append(out.Deleted, d)
		}
		return nil
	})
}

// sortedKeys returns the bucket's keys with prefix, in order. The caller holds b.mu.
func sortedKeys(bk *bucket, prefix string) []string {
	var keys []string
	for k := range bk.objects {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// listObjectVersions lists versions and delete markers by key, newest first within a key, up
// to MaxKeys (at most 1000) entries a page. A page resumes after KeyMarker: after every version
// of that key, or only after VersionIdMarker when it is given.
func (b *Backend) listObjectVersions(call *core.Call, in *s3.ListObjectVersionsInput) (*s3.ListObjectVersionsOutput, error) {
	out := &s3.ListObjectVersionsOutput{Name: in.Bucket, Prefix: in.Prefix, KeyMarker: in.KeyMarker, VersionIdMarker: in.VersionIdMarker, IsTruncated: aws.Bool(false)}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		limit := 1000
		if in.MaxKeys != nil && *in.MaxKeys >= 0 && *in.MaxKeys < 1000 {
			limit = int(*in.MaxKeys)
		}
		out.MaxKeys = aws.Int32(int32(limit))
		keyMarker, versionMarker := aws.ToString(in.KeyMarker), aws.ToString(in.VersionIdMarker)
		listed := 0
		var lastKey, lastVersion string
		for _, k := range sortedKeys(bk, aws.ToString(in.Prefix)) {
			if k < keyMarker || (k == keyMarker && versionMarker == "") {
				continue
			}
			versions := bk.objects[k]
			skipping := k == keyMarker
			for i := len(versions) - 1; i >= 0; i-- {
				o := versions[i]
				if skipping {
					skipping = o.versionID != versionMarker
					continue
				}
				if listed == limit {
					out.IsTruncated = aws.Bool(true)
					out.NextKeyMarker, out.NextVersionIdMarker = aws.String(lastKey), aws.String(lastVersion)
					return nil
				}
				listed++
				lastKey, lastVersion = k, o.versionID
				isLatest := aws.Bool(i == len(versions)-1)
				if o.deleteMarker {
					out.DeleteMarkers = append(out.DeleteMarkers, types.DeleteMarkerEntry{Key: aws.String(k),
						VersionId: aws.String(o.versionID), IsLatest: isLatest, LastModified: aws.Time(o.modified)})
					continue
				}
				out.Versions = append(out.Versions, types.ObjectVersion{Key: aws.String(k), VersionId: aws.String(o.versionID),
					IsLatest: isLatest, ETag: aws.String(o.etag), Size: aws.Int64(int64(len(o.body))), LastModified: aws.Time(o.modified)})
			}
		}
		return nil
	})
}

// ObjectError returns the S3 error code a read of bucket/key would give, or "" when the object
// exists; other emulated services (Lambda) use it to check the objects they are given.
func (b *Backend) ObjectError(bucket, key string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	bk, ok := b.buckets[bucket]
	if !ok {
		return "NoSuchBucket"
	}
	if o := latest(bk.objects[key]); o == nil || o.deleteMarker {
		return "NoSuchKey"
	}
	return ""
}

// Object returns the body of the object bucket/key, of its version when version is not empty,
// or the S3 error code reading it would give ("NoSuchBucket", "NoSuchKey", "NoSuchVersion");
// other emulated services (Lambda) use it to read the deployment packages they are given.
func (b *Backend) Object(bucket, key, version string) (body []byte, errCode string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	bk, ok := b.buckets[bucket]
	if !ok {
		return nil, "NoSuchBucket"
	}
	o, err := find(bk, key, version)
	if err != nil {
		return nil, err.(*core.APIError).Code
	}
	if o.deleteMarker {
		return nil, "NoSuchKey"
	}
	return bytes.Clone(o.body), ""
}
