package data_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// s3Client returns an SDK client for the emulator, which uses path-style addressing.
func (h *harness) s3Client() *s3.Client {
	return s3.NewFromConfig(h.aws, func(o *s3.Options) { o.UsePathStyle = true })
}

// bucketTags returns the tags of bucket name in AWS; none when it has no tag set.
func bucketTags(t *testing.T, c *s3.Client, name string) map[string]string {
	t.Helper()
	out, err := c.GetBucketTagging(context.Background(), &s3.GetBucketTaggingInput{Bucket: aws.String(name)})
	if awserr.Code(err) == "NoSuchTagSet" {
		return map[string]string{}
	}
	if err != nil {
		t.Fatalf("get tagging of %s: %v", name, err)
	}
	tags := map[string]string{}
	for _, tag := range out.TagSet {
		tags[aws.ToString(tag.Key)] = aws.ToString(tag.Value)
	}
	return tags
}

// bucketExists reports whether bucket name exists in AWS.
func bucketExists(t *testing.T, c *s3.Client, name string) bool {
	t.Helper()
	_, err := c.HeadBucket(context.Background(), &s3.HeadBucketInput{Bucket: aws.String(name)})
	if awserr.IsNotFound(err) {
		return false
	}
	if err != nil {
		t.Fatalf("head bucket %s: %v", name, err)
	}
	return true
}

// eventually polls ok for up to 30 seconds, failing the test with what when it never holds.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// newBucket returns an S3Bucket in default that uses the production-aws provider.
func newBucket(name, bucketName string, policy shared.DeletionPolicy) *v1alpha1.S3Bucket {
	return &v1alpha1.S3Bucket{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name},
		Spec: v1alpha1.S3BucketSpec{
			ManagedSpec: shared.ManagedSpec{ProviderRef: shared.ProviderReference{Name: "production-aws"}, DeletionPolicy: policy},
			BucketName:  bucketName,
		},
	}
}

// checkOwnershipTags checks that tags name b as their owner and carry b's spec tags.
func checkOwnershipTags(t *testing.T, b *v1alpha1.S3Bucket, tags map[string]string) {
	t.Helper()
	if tags[shared.TagOwnerUID] != string(b.UID) || tags[shared.TagOwnerKind] != "S3Bucket" ||
		tags[shared.TagOwnerName] != b.Name || tags[shared.TagOwnerNamespace] != b.Namespace {
		t.Errorf("ownership tags of %s: %v", b.Spec.BucketName, tags)
	}
	for k, v := range b.Spec.Tags {
		if tags[k] != v {
			t.Errorf("tag %s = %q, want %q", k, tags[k], v)
		}
	}
}

// TestS3SeedExamples applies the seed's S3 examples verbatim and checks that they become Ready,
// that the buckets in AWS match them, and that a steady-state sync reads only what the spec
// manages; it logs the calls each took.
func TestS3SeedExamples(t *testing.T) {
	h := start(t)
	h.provider("default", "production-aws")
	h.provider("default", "aws-provider")
	c := h.s3Client()
	ctx := context.Background()
	allBlocked := &types.PublicAccessBlockConfiguration{BlockPublicAcls: aws.Bool(true), IgnorePublicAcls: aws.Bool(true),
		BlockPublicPolicy: aws.Bool(true), RestrictPublicBuckets: aws.Bool(true)}

	for _, tc := range []struct {
		file, name, bucket string
		// reads is how many calls a steady-state sync makes: HeadBucket, GetBucketTagging,
		// GetBucketLifecycleConfiguration, GetBucketCors, GetBucketNotificationConfiguration,
		// GetBucketReplication, GetBucketLogging and GetBucketPolicy, and one Get per optional
		// setting the spec manages.
		reads int
		check func(t *testing.T)
	}{
		{"s3bucket-basic.yaml", "my-app-data", "mycompany-app-data-prod", 8, func(t *testing.T) {}},
		{"s3bucket-lifecycle.yaml", "logs-bucket", "mycompany-application-logs", 8, func(t *testing.T) {
			out, err := c.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: aws.String("mycompany-application-logs")})
			if err != nil {
				t.Fatal(err)
			}
			want := []types.LifecycleRule{
				{ID: aws.String("archive-old-logs"), Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String("logs/")},
					Transitions: []types.Transition{{Days: aws.Int32(30), StorageClass: types.TransitionStorageClassStandardIa}, {Days: aws.Int32(90), StorageClass: types.TransitionStorageClassGlacier}},
					Expiration:  &types.LifecycleExpiration{Days: aws.Int32(365)}},
				{ID: aws.String("cleanup-temp-files"), Status: types.ExpirationStatusEnabled, Filter: &types.LifecycleRuleFilter{Prefix: aws.String("temp/")},
					Expiration: &types.LifecycleExpiration{Days: aws.Int32(7)}},
			}
			if diff := cmp.Diff(want, out.Rules, cmpSDK); diff != "" {
				t.Errorf("lifecycle rules (-want +got):\n%s", diff)
			}
		}},
		{"s3bucket-quickstart.yaml", "app-data", "myapp-production-data", 10, func(t *testing.T) {
			checkVersioningAndAES256(t, c, "myapp-production-data")
		}},
		{"s3bucket-serverless.yaml", "data-bucket", "application-data-bucket", 10, func(t *testing.T) {
			checkVersioningAndAES256(t, c, "application-data-bucket")
		}},
		{"s3bucket-versioning-encryption.yaml", "secure-data-bucket", "mycompany-secure-data", 11, func(t *testing.T) {
			checkVersioningAndAES256(t, c, "mycompany-secure-data")
			out, err := c.GetPublicAccessBlock(ctx, &s3.GetPublicAccessBlockInput{Bucket: aws.String("mycompany-secure-data")})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(allBlocked, out.PublicAccessBlockConfiguration, cmpSDK); diff != "" {
				t.Errorf("public access block (-want +got):\n%s", diff)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.emu.Calls.Reset()
			began := time.Now()
			h.applySeed(tc.file, "default")
			b := waitReady(h, &v1alpha1.S3Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: tc.name}})
			elapsed := time.Since(began)
			createCalls := h.calls("S3")
			want := v1alpha1.S3BucketStatus{BucketName: tc.bucket, Region: "us-east-1", ARN: "arn:aws:s3:::" + tc.bucket,
				BucketDomainName: tc.bucket + ".s3.amazonaws.com", RegionalDomainName: tc.bucket + ".s3.us-east-1.amazonaws.com"}
			got := b.Status
			got.ManagedStatus = shared.ManagedStatus{}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("status (-want +got):\n%s", diff)
			}
			tc.check(t)
			checkOwnershipTags(t, b, bucketTags(t, c, tc.bucket))

			h.emu.Calls.Reset()
			h.resync(b)
			waitFor(h, b, 10*time.Second, "a resync", func(o *v1alpha1.S3Bucket) bool { return total(h.calls("S3")) > 0 && o.Status.Ready })
			time.Sleep(300 * time.Millisecond)
			steady := h.calls("S3")
			t.Logf("figures: %s: %d S3 calls to create (%v), Ready after %s; %d calls per steady-state sync (%v)",
				tc.name, total(createCalls), createCalls, elapsed.Round(10*time.Millisecond), total(steady), steady)
			if total(steady) != tc.reads {
				t.Errorf("a steady-state sync made %d calls (%v); want %d reads", total(steady), steady, tc.reads)
			}
		})
	}
}

// checkVersioningAndAES256 checks that bucket name is versioned and encrypted with AES256.
func checkVersioningAndAES256(t *testing.T, c *s3.Client, name string) {
	t.Helper()
	ctx := context.Background()
	v, err := c.GetBucketVersioning(ctx, &s3.GetBucketVersioningInput{Bucket: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != types.BucketVersioningStatusEnabled {
		t.Errorf("versioning of %s: %q", name, v.Status)
	}
	e, err := c.GetBucketEncryption(ctx, &s3.GetBucketEncryptionInput{Bucket: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	if rules := e.ServerSideEncryptionConfiguration.Rules; len(rules) != 1 || rules[0].ApplyServerSideEncryptionByDefault.SSEAlgorithm != types.ServerSideEncryptionAes256 {
		t.Errorf("encryption of %s: %+v", name, rules)
	}
}

// TestS3Lifecycle runs S3Buckets through updates, drift, every deletion policy, a bucket that
// still holds objects, and a name taken by another object, in one control plane.
func TestS3Lifecycle(t *testing.T) {
	h := start(t)
	h.provider("default", "production-aws")
	c := h.s3Client()
	ctx := context.Background()

	t.Run("Update", func(t *testing.T) {
		b := newBucket("updated", "infra-test-updated", shared.DeletionPolicyDelete)
		b.Spec.Tags = map[string]string{"team": "data", "stage": "dev"}
		b.Spec.LifecycleRules = []v1alpha1.S3LifecycleRule{{ID: "expire", Enabled: true, Expiration: &v1alpha1.S3Expiration{Days: 30}}}
		h.create(b)
		waitReady(h, b)
		policy := `{
  "Version": "2012-10-17",
  "Statement": [{"Sid": "Read", "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::123456789012:root"},
    "Action": "s3:GetObject", "Resource": "arn:aws:s3:::infra-test-updated/*"}]
}`
		update(h, b, func(b *v1alpha1.S3Bucket) {
			b.Spec.Tags = map[string]string{"team": "analytics"}
			b.Spec.LifecycleRules = nil
			b.Spec.CORSRules = []v1alpha1.S3CORSRule{{AllowedOrigins: []string{"https://app.example.com"}, AllowedMethods: []string{"GET", "HEAD"}, MaxAgeSeconds: aws.Int32(600)}}
			b.Spec.Policy = policy
		})
		waitReady(h, b)
		h.waitEvent(b, "Updating", "tags, lifecycleRules, corsRules, policy")

		tags := bucketTags(t, c, "infra-test-updated")
		checkOwnershipTags(t, b, tags)
		if _, ok := tags["stage"]; ok {
			t.Errorf("tag stage was not removed: %v", tags)
		}
		if _, err := c.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: aws.String("infra-test-updated")}); awserr.Code(err) != "NoSuchLifecycleConfiguration" {
			t.Errorf("lifecycle rules were not removed: %v", err)
		}
		cors, err := c.GetBucketCors(ctx, &s3.GetBucketCorsInput{Bucket: aws.String("infra-test-updated")})
		if err != nil {
			t.Fatal(err)
		}
		wantCORS := []types.CORSRule{{AllowedOrigins: []string{"https://app.example.com"}, AllowedMethods: []string{"GET", "HEAD"}, MaxAgeSeconds: aws.Int32(600)}}
		if diff := cmp.Diff(wantCORS, cors.CORSRules, cmpSDK); diff != "" {
			t.Errorf("CORS rules (-want +got):\n%s", diff)
		}
		got, err := c.GetBucketPolicy(ctx, &s3.GetBucketPolicyInput{Bucket: aws.String("infra-test-updated")})
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(t, policy, aws.ToString(got.Policy)) {
			t.Errorf("policy: %s", aws.ToString(got.Policy))
		}

		// The policy's spacing differs from what AWS keeps; that is no difference.
		h.emu.Calls.Reset()
		h.resync(b)
		waitFor(h, b, 10*time.Second, "a resync", func(o *v1alpha1.S3Bucket) bool { return h.calls("S3")["GetBucketPolicy"] > 0 && o.Status.Ready })
		time.Sleep(300 * time.Millisecond)
		for op, n := range h.calls("S3") {
			if !strings.HasPrefix(op, "Get") && op != "HeadBucket" {
				t.Errorf("an up-to-date bucket got %d %s calls", n, op)
			}
		}

		// Removing the CORS rules and the policy removes them from AWS.
		update(h, b, func(b *v1alpha1.S3Bucket) { b.Spec.CORSRules, b.Spec.Policy = nil, "" })
		waitReady(h, b)
		if _, err := c.GetBucketCors(ctx, &s3.GetBucketCorsInput{Bucket: aws.String("infra-test-updated")}); awserr.Code(err) != "NoSuchCORSConfiguration" {
			t.Errorf("CORS rules were not removed: %v", err)
		}
		if _, err := c.GetBucketPolicy(ctx, &s3.GetBucketPolicyInput{Bucket: aws.String("infra-test-updated")}); awserr.Code(err) != "NoSuchBucketPolicy" {
			t.Errorf("policy was not removed: %v", err)
		}
	})

	t.Run("Drift", func(t *testing.T) {
		b := newBucket("drifting", "infra-test-drifting", shared.DeletionPolicyDelete)
		b.Spec.Tags = map[string]string{"team": "data"}
		b.Spec.Versioning = &v1alpha1.S3Versioning{Enabled: true}
		b.Spec.PublicAccessBlock = &v1alpha1.S3PublicAccessBlock{BlockPublicAcls: true, IgnorePublicAcls: true, BlockPublicPolicy: true, RestrictPublicBuckets: true}
		h.create(b)
		waitReady(h, b)
		name := aws.String("infra-test-drifting")
		if _, err := c.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: name,
			VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusSuspended}}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.PutBucketTagging(ctx, &s3.PutBucketTaggingInput{Bucket: name,
			Tagging: &types.Tagging{TagSet: []types.Tag{{Key: aws.String("team"), Value: aws.String("intruder")}}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.PutPublicAccessBlock(ctx, &s3.PutPublicAccessBlockInput{Bucket: name,
			PublicAccessBlockConfiguration: &types.PublicAccessBlockConfiguration{BlockPublicAcls: aws.Bool(false)}}); err != nil {
			t.Fatal(err)
		}
		h.resync(b)
		h.waitEvent(b, "DriftDetected", "tags, versioning, publicAccessBlock")
		eventually(t, "drift reverted", func() bool {
			v, err := c.GetBucketVersioning(ctx, &s3.GetBucketVersioningInput{Bucket: name})
			if err != nil || v.Status != types.BucketVersioningStatusEnabled {
				return false
			}
			p, err := c.GetPublicAccessBlock(ctx, &s3.GetPublicAccessBlockInput{Bucket: name})
			return err == nil && aws.ToBool(p.PublicAccessBlockConfiguration.BlockPublicPolicy) && bucketTags(t, c, *name)["team"] == "data"
		})
		checkOwnershipTags(t, b, bucketTags(t, c, *name))
		waitReady(h, b)
	})

	t.Run("DeletionPolicies", func(t *testing.T) {
		objs := map[shared.DeletionPolicy]*v1alpha1.S3Bucket{}
		for _, p := range []shared.DeletionPolicy{shared.DeletionPolicyDelete, shared.DeletionPolicyRetain, shared.DeletionPolicyOrphan} {
			b := newBucket("policy-"+strings.ToLower(string(p)), "infra-test-policy-"+strings.ToLower(string(p)), p)
			b.Spec.Tags = map[string]string{"team": "data"}
			h.create(b)
			objs[p] = b
		}
		for _, b := range objs {
			waitReady(h, b)
			h.delete(b)
		}
		if bucketExists(t, c, "infra-test-policy-delete") {
			t.Errorf("the bucket of deletionPolicy Delete still exists")
		}
		if !bucketExists(t, c, "infra-test-policy-retain") {
			t.Fatalf("the bucket of deletionPolicy Retain was deleted")
		}
		if tags := bucketTags(t, c, "infra-test-policy-retain"); tags[shared.TagOwnerUID] != string(objs[shared.DeletionPolicyRetain].UID) {
			t.Errorf("the bucket of deletionPolicy Retain lost its ownership tags: %v", tags)
		}
		if !bucketExists(t, c, "infra-test-policy-orphan") {
			t.Fatalf("the bucket of deletionPolicy Orphan was deleted")
		}
		if diff := cmp.Diff(map[string]string{"team": "data"}, bucketTags(t, c, "infra-test-policy-orphan")); diff != "" {
			t.Errorf("tags of the orphaned bucket (-want +got):\n%s", diff)
		}
	})

	t.Run("NotEmpty", func(t *testing.T) {
		b := newBucket("not-empty", "infra-test-not-empty", shared.DeletionPolicyDelete)
		b.Spec.Versioning = &v1alpha1.S3Versioning{Enabled: true}
		h.create(b)
		waitReady(h, b)
		name := aws.String("infra-test-not-empty")
		for _, body := range []string{"one", "two"} {
			if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: name, Key: aws.String("data.txt"), Body: strings.NewReader(body)}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: name, Key: aws.String("gone.txt"), Body: strings.NewReader("x")}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: name, Key: aws.String("gone.txt")}); err != nil {
			t.Fatal(err)
		}
		if err := h.env.Client.Delete(ctx, b); err != nil {
			t.Fatal(err)
		}
		b = waitCondition(h, b, "Synced", "False", "BucketNotEmpty")
		if c := findCondition(b, "Synced"); !strings.Contains(c.Message, "spec.forceDestroy: true") {
			t.Errorf("the condition does not say what to do: %q", c.Message)
		}
		if !bucketExists(t, c, *name) {
			t.Fatalf("the bucket holding objects was deleted")
		}
		update(h, b, func(b *v1alpha1.S3Bucket) { b.Spec.ForceDestroy = true })
		h.waitGone(b)
		if bucketExists(t, c, *name) {
			t.Errorf("forceDestroy did not delete the bucket")
		}

		// An unversioned bucket's objects (version "null") are emptied as well.
		plain := newBucket("not-empty-plain", "infra-test-not-empty-plain", shared.DeletionPolicyDelete)
		plain.Spec.ForceDestroy = true
		h.create(plain)
		waitReady(h, plain)
		if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("infra-test-not-empty-plain"), Key: aws.String("a.txt"), Body: strings.NewReader("a")}); err != nil {
			t.Fatal(err)
		}
		h.delete(plain)
		if bucketExists(t, c, "infra-test-not-empty-plain") {
			t.Errorf("forceDestroy did not delete the unversioned bucket")
		}
	})

	t.Run("NameOfAnotherAccount", func(t *testing.T) {
		other := h.aws.Copy()
		other.Credentials = credentials.NewStaticCredentialsProvider(otherAccessKey, testSecretKey, "")
		oc := s3.NewFromConfig(other, func(o *s3.Options) { o.UsePathStyle = true })
		if _, err := oc.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("infra-test-foreign")}); err != nil {
			t.Fatal(err)
		}
		h.emu.Calls.Reset()
		b := newBucket("foreign", "infra-test-foreign", shared.DeletionPolicyDelete)
		h.create(b)
		b = waitCondition(h, b, "Synced", "False", "AlreadyExists")
		if c := findCondition(b, "Synced"); !strings.Contains(c.Message, "another AWS account") {
			t.Errorf("the condition does not say another account owns the name: %q", c.Message)
		}
		if n := h.calls("S3")["CreateBucket"]; n != 0 {
			t.Errorf("%d CreateBucket calls for a name another account owns", n)
		}
		h.delete(b)
		if _, err := oc.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String("infra-test-foreign")}); err != nil {
			t.Errorf("the other account's bucket: %v", err)
		}
	})

	t.Run("NameOwnedByAnotherObject", func(t *testing.T) {
		first := newBucket("first-owner", "infra-test-shared-name", shared.DeletionPolicyDelete)
		h.create(first)
		waitReady(h, first)
		h.emu.Calls.Reset()
		second := newBucket("second-owner", "infra-test-shared-name", shared.DeletionPolicyDelete)
		h.create(second)
		second = waitCondition(h, second, "Synced", "False", "AlreadyExists")
		if c := findCondition(second, "Synced"); !strings.Contains(c.Message, "default/first-owner") {
			t.Errorf("the condition does not name the owner: %q", c.Message)
		}
		if n := h.calls("S3")["CreateBucket"]; n != 0 {
			t.Errorf("%d CreateBucket calls for a name another object owns", n)
		}
		checkOwnershipTags(t, first, bucketTags(t, c, "infra-test-shared-name"))
		h.delete(second)
		if !bucketExists(t, c, "infra-test-shared-name") {
			t.Errorf("deleting the refused object deleted the other object's bucket")
		}
	})
}

// findCondition returns b's condition typ, or an empty one.
func findCondition(b *v1alpha1.S3Bucket, typ string) metav1.Condition {
	for _, c := range b.Status.Conditions {
		if c.Type == typ {
			return c
		}
	}
	return metav1.Condition{}
}

// sameJSON reports whether two JSON documents are equal as values.
func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		t.Fatalf("unmarshal %s: %v", a, err)
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatalf("unmarshal %s: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}

// TestS3BadInput checks that the API server refuses invalid S3Buckets at admission.
func TestS3BadInput(t *testing.T) {
	h := start(t)
	for name, tc := range map[string]struct {
		mutate func(*v1alpha1.S3Bucket)
		want   string
	}{
		"uppercase":       {func(b *v1alpha1.S3Bucket) { b.Spec.BucketName = "My-Bucket" }, "spec.bucketName"},
		"ip-address":      {func(b *v1alpha1.S3Bucket) { b.Spec.BucketName = "192.168.5.4" }, "cannot be formatted as an IP address"},
		"adjacent-period": {func(b *v1alpha1.S3Bucket) { b.Spec.BucketName = "my..bucket" }, "two adjacent periods"},
		"xn-prefix":       {func(b *v1alpha1.S3Bucket) { b.Spec.BucketName = "xn--bucket" }, "cannot start with xn--"},
		"kms-without-key": {func(b *v1alpha1.S3Bucket) { b.Spec.Encryption = &v1alpha1.S3Encryption{Algorithm: "aws:kms"} }, "algorithm aws:kms needs kmsKeyID"},
		"rule-without-action": {func(b *v1alpha1.S3Bucket) {
			b.Spec.LifecycleRules = []v1alpha1.S3LifecycleRule{{ID: "nothing", Enabled: true, Prefix: "tmp/"}}
		}, "a lifecycle rule needs at least one action"},
	} {
		t.Run(name, func(t *testing.T) {
			b := newBucket("bad-"+name, "infra-test-bad-input", shared.DeletionPolicyDelete)
			tc.mutate(b)
			h.mustRefuse(b, tc.want)
		})
	}

	t.Run("rename", func(t *testing.T) {
		b := newBucket("renamed", "infra-test-renamed", shared.DeletionPolicyDelete)
		h.create(b)
		kubetest.MustRefuseUpdate(t, h.env.Client, b, func(b *v1alpha1.S3Bucket) { b.Spec.BucketName = "infra-test-other-name" }, "bucketName cannot change")
	})
}
