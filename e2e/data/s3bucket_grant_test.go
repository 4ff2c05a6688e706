package data_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// TestS3BucketKeepsGrantedStatements checks that a statement another object granted in the
// bucket's policy (its Sid starts with the reserved prefix, as a CloudFrontDistribution's
// does) is no difference from the spec, survives a change of spec.policy and an empty
// spec.policy (the bucket policy is then not deleted), that a statement added by hand under the
// reserved prefix is drift (reported under driftPolicy Report, removed under Enforce), and that
// a spec.policy using the reserved prefix is refused before any AWS call.
func TestS3BucketKeepsGrantedStatements(t *testing.T) {
	h := start(t)
	h.provider("default", "production-aws")
	c := h.s3Client()
	const name = "infra-test-granted"
	statement := func(sid, effect, action string) string {
		return `{"Sid":"` + sid + `","Effect":"` + effect + `","Principal":"*","Action":"` + action + `","Resource":"arn:aws:s3:::` + name + `/*"}`
	}
	own, changed := statement("DenyDeletes", "Deny", "s3:DeleteObject"), statement("DenyPuts", "Deny", "s3:PutObject")
	granted := `{"Sid":"InfraOperatorCloudFrontE2TEST","Effect":"Allow","Principal":{"Service":"cloudfront.amazonaws.com"},"Action":"s3:GetObject",` +
		`"Resource":"arn:aws:s3:::` + name + `/*","Condition":{"StringEquals":{"AWS:SourceArn":"arn:aws:cloudfront::123456789012:distribution/E2TEST"}}}`
	doc := func(statements ...string) string {
		out := `{"Version":"2012-10-17","Statement":[`
		for i, s := range statements {
			if i > 0 {
				out += ","
			}
			out += s
		}
		return out + `]}`
	}
	read := func() string {
		out, err := c.GetBucketPolicy(context.Background(), &s3.GetBucketPolicyInput{Bucket: aws.String(name)})
		if awserr.Code(err) == "NoSuchBucketPolicy" {
			return ""
		}
		if err != nil {
			t.Fatalf("get the policy of %s: %v", name, err)
		}
		return aws.ToString(out.Policy)
	}

	b := newBucket("granted", name, shared.DeletionPolicyDelete)
	b.Spec.Policy = doc(own)
	h.create(b)
	waitReady(h, b)
	if _, err := c.PutBucketPolicy(context.Background(), &s3.PutBucketPolicyInput{Bucket: aws.String(name), Policy: aws.String(doc(own, granted))}); err != nil {
		t.Fatalf("grant a statement outside the S3Bucket: %v", err)
	}

	// The granted statement is no difference.
	h.emu.Calls.Reset()
	h.resync(b)
	waitFor(h, b, 10*time.Second, "a resync", func(o *v1alpha1.S3Bucket) bool { return h.calls("S3")["GetBucketPolicy"] > 0 && o.Status.Ready })
	time.Sleep(300 * time.Millisecond)
	if n := h.calls("S3")["PutBucketPolicy"] + h.calls("S3")["DeleteBucketPolicy"]; n != 0 {
		t.Errorf("a bucket whose policy is the spec's and a granted statement got %d policy writes, want none", n)
	}

	// A change of spec.policy keeps the granted statement.
	update(h, b, func(b *v1alpha1.S3Bucket) { b.Spec.Policy = doc(changed) })
	eventually(t, "the spec's new policy written", func() bool { return policy.Equivalent(read(), doc(changed, granted)) })

	// An empty spec.policy removes the bucket's own statements, not the granted one.
	update(h, b, func(b *v1alpha1.S3Bucket) { b.Spec.Policy = "" })
	eventually(t, "the spec's statements removed", func() bool { return policy.Equivalent(read(), doc(granted)) })
	h.emu.Calls.Reset()
	h.resync(b)
	waitFor(h, b, 10*time.Second, "a resync", func(o *v1alpha1.S3Bucket) bool { return h.calls("S3")["GetBucketPolicy"] > 0 && o.Status.Ready })
	time.Sleep(300 * time.Millisecond)
	if got := read(); !policy.Equivalent(got, doc(granted)) {
		t.Errorf("bucket policy = %s, want the granted statement only", got)
	}
	if n := h.calls("S3")["DeleteBucketPolicy"]; n != 0 {
		t.Errorf("DeleteBucketPolicy calls = %d while a granted statement remains, want none", n)
	}

	// A statement added by hand under the reserved prefix, letting an outside account read
	// (block public access refuses "*" here), is drift: reported and left under driftPolicy
	// Report, removed under Enforce, the granted statement kept.
	forged := `{"Sid":"InfraOperatorX","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::999999999999:root"},"Action":"s3:GetObject",` +
		`"Resource":"arn:aws:s3:::` + name + `/*"}`
	update(h, b, func(b *v1alpha1.S3Bucket) { b.Spec.DriftPolicy = shared.DriftPolicyReport })
	waitFor(h, b, 10*time.Second, "the drift policy applied", func(o *v1alpha1.S3Bucket) bool {
		return o.Status.ObservedGeneration == o.Generation && o.Status.Ready
	})
	if _, err := c.PutBucketPolicy(context.Background(), &s3.PutBucketPolicyInput{Bucket: aws.String(name), Policy: aws.String(doc(granted, forged))}); err != nil {
		t.Fatalf("add a statement under the reserved prefix outside the operator: %v", err)
	}
	h.resync(b)
	waitFor(h, b, 10*time.Second, "the forged statement reported", func(o *v1alpha1.S3Bucket) bool {
		return meta.IsStatusConditionTrue(o.Status.Conditions, condition.TypeDrifted) && slices.ContainsFunc(o.Status.Drift, func(d shared.DriftedField) bool { return d.Field == "policy" })
	})
	if got := read(); !policy.Equivalent(got, doc(granted, forged)) {
		t.Errorf("driftPolicy Report changed the bucket policy to %s", got)
	}
	update(h, b, func(b *v1alpha1.S3Bucket) { b.Spec.DriftPolicy = shared.DriftPolicyEnforce })
	eventually(t, "the forged statement removed, the granted one kept", func() bool { return policy.Equivalent(read(), doc(granted)) })

	// The reserved prefix is refused in spec.policy.
	reserved := newBucket("reserved", "infra-test-reserved", shared.DeletionPolicyDelete)
	reserved.Spec.Policy = doc(statement("InfraOperatorMine", "Deny", "s3:DeleteObject"))
	h.create(reserved)
	got := waitCondition(h, reserved, "Synced", "False", condition.ReasonInvalidSpec)
	if c := meta.FindStatusCondition(got.Status.Conditions, "Synced"); c == nil || !strings.Contains(c.Message, "reserved") {
		t.Errorf("Synced condition = %+v, want the reserved prefix explained", c)
	}
	if bucketExists(t, c, "infra-test-reserved") {
		t.Errorf("the bucket of a refused spec was created")
	}
}
