package emulator_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/runner-codes/infra-operator/emulator"
)

func s3Client(t *testing.T, url, key, region string) *s3.Client {
	t.Helper()
	cfg := sdkConfig(t, url, key, 1)
	cfg.Region = region
	return s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true })
}

func TestS3CreateBucketRules(t *testing.T) {
	_, url := start(t, emulator.Options{Accounts: map[string]string{"AKIDOTHER": "222222222222"}})
	ctx := context.Background()
	east := s3Client(t, url, "AKID", "us-east-1")
	if _, err := east.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("mycompany-app-data-prod")}); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason string
		client *s3.Client
		args   s3.CreateBucketInput
		want   string
	}{
		"LegacyUSEast1": {reason: "Re-creating your own bucket in us-east-1 succeeds (AWS's legacy behaviour).",
			client: east, args: s3.CreateBucketInput{Bucket: aws.String("mycompany-app-data-prod")}},
		"OtherAccount": {reason: "Bucket names are global: another account gets BucketAlreadyExists.",
			client: s3Client(t, url, "AKIDOTHER", "us-east-1"), args: s3.CreateBucketInput{Bucket: aws.String("mycompany-app-data-prod")}, want: "BucketAlreadyExists"},
		"InvalidName": {reason: "Upper case is not allowed in bucket names.",
			client: east, args: s3.CreateBucketInput{Bucket: aws.String("My-Bucket")}, want: "InvalidBucketName"},
		"RegionMismatch": {reason: "Outside us-east-1 the location constraint must name the endpoint's region.",
			client: s3Client(t, url, "AKID", "eu-west-1"), args: s3.CreateBucketInput{Bucket: aws.String("eu-bucket-1")}, want: "IllegalLocationConstraintException"},
		"Regional": {reason: "A regional bucket is created with its location constraint.",
			client: s3Client(t, url, "AKID", "eu-west-1"), args: s3.CreateBucketInput{Bucket: aws.String("eu-bucket-2"),
				CreateBucketConfiguration: &types.CreateBucketConfiguration{LocationConstraint: types.BucketLocationConstraintEuWest1}}},
	}
	for _, name := range []string{"LegacyUSEast1", "OtherAccount", "InvalidName", "RegionMismatch", "Regional"} {
		tc := cases[name]
		t.Run(name, func(t *testing.T) {
			_, err := tc.client.CreateBucket(ctx, &tc.args)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	loc, err := s3Client(t, url, "AKID", "eu-west-1").GetBucketLocation(ctx, &s3.GetBucketLocationInput{Bucket: aws.String("eu-bucket-2")})
	if err != nil || loc.LocationConstraint != types.BucketLocationConstraintEuWest1 {
		t.Errorf("GetBucketLocation = %v, %v; want eu-west-1", loc, err)
	}
	head, err := east.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String("mycompany-app-data-prod")})
	if err != nil || aws.ToString(head.BucketRegion) != "us-east-1" {
		t.Errorf("HeadBucket = %v, %v", head, err)
	}
	_, err = east.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String("missing-bucket")})
	var nf *types.NotFound
	if !errors.As(err, &nf) {
		t.Errorf("HeadBucket on a missing bucket gave %v, want NotFound", err)
	}
	list, err := east.ListBuckets(ctx, &s3.ListBucketsInput{})
	if err != nil || len(list.Buckets) != 2 {
		t.Errorf("ListBuckets = %v, %v; want the account's 2 buckets", list, err)
	}
}

// TestS3BucketConfiguration round-trips every bucket setting the data family manages.
func TestS3BucketConfiguration(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ctx := context.Background()
	c := s3Client(t, url, "AKID", "us-east-1")
	bucket := aws.String("mycompany-secure-data")
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: bucket}); err != nil {
		t.Fatal(err)
	}
	enc, err := c.GetBucketEncryption(ctx, &s3.GetBucketEncryptionInput{Bucket: bucket})
	if err != nil || enc.ServerSideEncryptionConfiguration.Rules[0].ApplyServerSideEncryptionByDefault.SSEAlgorithm != types.ServerSideEncryptionAes256 {
		t.Errorf("default encryption %v, %v; want AES256", enc, err)
	}
	pab, err := c.GetPublicAccessBlock(ctx, &s3.GetPublicAccessBlockInput{Bucket: bucket})
	if err != nil || !aws.ToBool(pab.PublicAccessBlockConfiguration.BlockPublicPolicy) {
		t.Errorf("default public access block %v, %v; want all blocked", pab, err)
	}
	own, err := c.GetBucketOwnershipControls(ctx, &s3.GetBucketOwnershipControlsInput{Bucket: bucket})
	if err != nil || own.OwnershipControls.Rules[0].ObjectOwnership != types.ObjectOwnershipBucketOwnerEnforced {
		t.Errorf("default ownership %v, %v", own, err)
	}
	if _, err := c.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: bucket}); errorCode(err) != "NoSuchLifecycleConfiguration" {
		t.Errorf("lifecycle before any was set gave %v", err)
	}

	if _, err := c.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: bucket,
		VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusEnabled}}); err != nil {
		t.Fatal(err)
	}
	ver, err := c.GetBucketVersioning(ctx, &s3.GetBucketVersioningInput{Bucket: bucket})
	if err != nil || ver.Status != types.BucketVersioningStatusEnabled {
		t.Errorf("versioning %v, %v", ver, err)
	}
	kms := &types.ServerSideEncryptionConfiguration{Rules: []types.ServerSideEncryptionRule{{
		ApplyServerSideEncryptionByDefault: &types.ServerSideEncryptionByDefault{SSEAlgorithm: types.ServerSideEncryptionAwsKms, KMSMasterKeyID: aws.String("arn:aws:kms:us-east-1:000000000000:key/k1")},
		BucketKeyEnabled:                   aws.Bool(true)}}}
	if _, err := c.PutBucketEncryption(ctx, &s3.PutBucketEncryptionInput{Bucket: bucket, ServerSideEncryptionConfiguration: kms}); err != nil {
		t.Fatal(err)
	}
	gotEnc, err := c.GetBucketEncryption(ctx, &s3.GetBucketEncryptionInput{Bucket: bucket})
	if err != nil {
		t.Fatal(err)
	}
	ignore := cmpopts.IgnoreUnexported(types.ServerSideEncryptionConfiguration{}, types.ServerSideEncryptionRule{}, types.ServerSideEncryptionByDefault{},
		types.LifecycleRule{}, types.LifecycleRuleFilter{}, types.Transition{}, types.LifecycleExpiration{}, types.CORSRule{}, types.Tag{})
	if diff := cmp.Diff(kms, gotEnc.ServerSideEncryptionConfiguration, ignore); diff != "" {
		t.Errorf("encryption round trip\n-want +got:\n%s", diff)
	}
	rules := []types.LifecycleRule{
		{ID: aws.String("archive-old-logs"), Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String("logs/")},
			Transitions: []types.Transition{{Days: aws.Int32(30), StorageClass: types.TransitionStorageClassStandardIa}, {Days: aws.Int32(90), StorageClass: types.TransitionStorageClassGlacier}},
			Expiration:  &types.LifecycleExpiration{Days: aws.Int32(365)}},
		{ID: aws.String("cleanup-temp-files"), Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String("temp/")},
			Expiration: &types.LifecycleExpiration{Days: aws.Int32(7)}},
	}
	if _, err := c.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: bucket,
		LifecycleConfiguration: &types.BucketLifecycleConfiguration{Rules: rules}}); err != nil {
		t.Fatal(err)
	}
	lc, err := c.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: bucket})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rules, lc.Rules, ignore); diff != "" {
		t.Errorf("lifecycle round trip\n-want +got:\n%s", diff)
	}
	cors := []types.CORSRule{{AllowedMethods: []string{"GET", "PUT"}, AllowedOrigins: []string{"https://example.com"}, AllowedHeaders: []string{"*"}, MaxAgeSeconds: aws.Int32(300)}}
	if _, err := c.PutBucketCors(ctx, &s3.PutBucketCorsInput{Bucket: bucket, CORSConfiguration: &types.CORSConfiguration{CORSRules: cors}}); err != nil {
		t.Fatal(err)
	}
	gotCors, err := c.GetBucketCors(ctx, &s3.GetBucketCorsInput{Bucket: bucket})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(cors, gotCors.CORSRules, ignore); diff != "" {
		t.Errorf("CORS round trip\n-want +got:\n%s", diff)
	}
	tags := []types.Tag{{Key: aws.String("Compliance"), Value: aws.String("required")}}
	if _, err := c.PutBucketTagging(ctx, &s3.PutBucketTaggingInput{Bucket: bucket, Tagging: &types.Tagging{TagSet: tags}}); err != nil {
		t.Fatal(err)
	}
	gotTags, err := c.GetBucketTagging(ctx, &s3.GetBucketTaggingInput{Bucket: bucket})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tags, gotTags.TagSet, ignore); diff != "" {
		t.Errorf("tagging round trip\n-want +got:\n%s", diff)
	}
	policy := `{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Principal":"*","Action":"s3:*","Resource":"arn:aws:s3:::mycompany-secure-data/*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}`
	if _, err := c.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: bucket, Policy: aws.String(policy)}); err != nil {
		t.Fatal(err)
	}
	gotPolicy, err := c.GetBucketPolicy(ctx, &s3.GetBucketPolicyInput{Bucket: bucket})
	if err != nil || aws.ToString(gotPolicy.Policy) != policy {
		t.Errorf("policy %v, %v", gotPolicy, err)
	}
	public := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::mycompany-secure-data/*"}]}`
	if _, err := c.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: bucket, Policy: aws.String(public)}); errorCode(err) != "AccessDenied" {
		t.Errorf("a public policy under BlockPublicPolicy gave %v, want AccessDenied", err)
	}
	if _, err := c.DeleteBucketPolicy(ctx, &s3.DeleteBucketPolicyInput{Bucket: bucket}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetBucketPolicy(ctx, &s3.GetBucketPolicyInput{Bucket: bucket}); errorCode(err) != "NoSuchBucketPolicy" {
		t.Errorf("a deleted policy gave %v", err)
	}
}

// TestS3ObjectsAndDelete checks that a bucket holding objects (or old versions) cannot be
// deleted, and can be once emptied through ListObjectVersions and DeleteObjects.
func TestS3ObjectsAndDelete(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ctx := context.Background()
	c := s3Client(t, url, "AKID", "us-east-1")
	bucket := aws.String("versioned-bucket")
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: bucket}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: bucket,
		VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusEnabled}}); err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{"first", "second"} {
		if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: bucket, Key: aws.String("logs/app.log"), Body: strings.NewReader(body)}); err != nil {
			t.Fatal(err)
		}
	}
	obj, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: bucket, Key: aws.String("logs/app.log")})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(obj.Body)
	obj.Body.Close()
	if string(b) != "second" {
		t.Errorf("GetObject = %q, want the latest version", b)
	}
	listed, err := c.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: bucket, Prefix: aws.String("logs/")})
	if err != nil || aws.ToInt32(listed.KeyCount) != 1 || aws.ToString(listed.Contents[0].Key) != "logs/app.log" {
		t.Errorf("ListObjectsV2 = %+v, %v", listed, err)
	}
	if _, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: bucket, Key: aws.String("logs/app.log")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: bucket}); errorCode(err) != "BucketNotEmpty" {
		t.Fatalf("deleting a bucket with old versions gave %v, want BucketNotEmpty", err)
	}
	versions, err := c.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: bucket})
	if err != nil || len(versions.Versions) != 2 || len(versions.DeleteMarkers) != 1 {
		t.Fatalf("ListObjectVersions = %d versions, %d markers, %v; want 2 and 1", len(versions.Versions), len(versions.DeleteMarkers), err)
	}
	var ids []types.ObjectIdentifier
	for _, v := range versions.Versions {
		ids = append(ids, types.ObjectIdentifier{Key: v.Key, VersionId: v.VersionId})
	}
	for _, m := range versions.DeleteMarkers {
		ids = append(ids, types.ObjectIdentifier{Key: m.Key, VersionId: m.VersionId})
	}
	if _, err := c.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: bucket, Delete: &types.Delete{Objects: ids}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: bucket}); err != nil {
		t.Fatalf("deleting the emptied bucket: %v", err)
	}
	if _, err := c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: bucket}); err == nil {
		t.Error("the deleted bucket still answers HeadBucket")
	}
}

func TestS3ListObjectVersionsPages(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ctx := context.Background()
	c := s3Client(t, url, "AKID", "us-east-1")
	bucket := aws.String("paged-bucket")
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: bucket}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: bucket,
		VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusEnabled}}); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, key := range []string{"a", "b", "c"} {
		var ids []string
		for range 2 {
			out, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: bucket, Key: aws.String(key), Body: strings.NewReader(key)})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, aws.ToString(out.VersionId))
		}
		want = append(want, key+"@"+ids[1], key+"@"+ids[0]) // newest first within a key
	}
	var got []string
	var keyMarker, versionMarker *string
	pages := 0
	for {
		out, err := c.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: bucket, MaxKeys: aws.Int32(4), KeyMarker: keyMarker, VersionIdMarker: versionMarker})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, v := range out.Versions {
			got = append(got, aws.ToString(v.Key)+"@"+aws.ToString(v.VersionId))
		}
		if !aws.ToBool(out.IsTruncated) {
			break
		}
		keyMarker, versionMarker = out.NextKeyMarker, out.NextVersionIdMarker
	}
	if diff := cmp.Diff(want, got); diff != "" || pages != 2 {
		t.Errorf("ListObjectVersions in pages of 4 took %d pages; versions (-want +got):\n%s", pages, diff)
	}
	all, err := c.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: bucket, KeyMarker: aws.String("b")})
	if err != nil || len(all.Versions) != 2 || aws.ToString(all.Versions[0].Key) != "c" {
		t.Errorf("a key marker alone resumes after every version of that key: %+v, %v", all.Versions, err)
	}
}
