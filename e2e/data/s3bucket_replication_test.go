package data_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/security"
	secv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// replicationRole is a role S3 may assume, by ARN, in the emulator's default account.
const replicationRole = "arn:aws:iam::" + emulator.DefaultAccount + ":role/replication"

// replicationOf returns the replication configuration of bucket name, nil when it has none.
func replicationOf(t *testing.T, c *s3.Client, name string) *types.ReplicationConfiguration {
	t.Helper()
	out, err := c.GetBucketReplication(context.Background(), &s3.GetBucketReplicationInput{Bucket: aws.String(name)})
	if awserr.Code(err) == "ReplicationConfigurationNotFoundError" {
		return nil
	}
	if err != nil {
		t.Fatalf("get the replication configuration of bucket %s: %v", name, err)
	}
	return out.ReplicationConfiguration
}

// loggingOf returns the logging configuration of bucket name, nil when logging is off.
func loggingOf(t *testing.T, c *s3.Client, name string) *types.LoggingEnabled {
	t.Helper()
	out, err := c.GetBucketLogging(context.Background(), &s3.GetBucketLoggingInput{Bucket: aws.String(name)})
	if err != nil {
		t.Fatalf("get the logging of bucket %s: %v", name, err)
	}
	return out.LoggingEnabled
}

// policyOf returns the policy of bucket name, parsed; empty when it has none.
func policyOf(t *testing.T, c *s3.Client, name string) policy.Document {
	t.Helper()
	out, err := c.GetBucketPolicy(context.Background(), &s3.GetBucketPolicyInput{Bucket: aws.String(name)})
	if awserr.Code(err) == "NoSuchBucketPolicy" {
		return policy.Document{}
	}
	if err != nil {
		t.Fatalf("get the policy of bucket %s: %v", name, err)
	}
	doc, err := policy.Parse(aws.ToString(out.Policy))
	if err != nil {
		t.Fatalf("the policy of bucket %s: %v", name, err)
	}
	return doc
}

// versioned returns b with versioning enabled.
func versioned(b *v1alpha1.S3Bucket) *v1alpha1.S3Bucket {
	b.Spec.Versioning = &v1alpha1.S3Versioning{Enabled: true}
	return b
}

// steadySync resyncs b and returns the AWS calls of that one sync.
func (h *harness) steadySync(b *v1alpha1.S3Bucket) map[string]int {
	h.t.Helper()
	h.emu.Calls.Reset()
	h.resync(b)
	waitFor(h, b, 10*time.Second, "a resync", func(o *v1alpha1.S3Bucket) bool { return h.calls("S3")["GetBucketLogging"] > 0 && o.Status.Ready })
	time.Sleep(500 * time.Millisecond)
	return h.allCalls()
}

// TestS3BucketReplicationExample applies examples/data/s3bucket-replication.yaml (a versioned
// bucket replicated, with an IAMRole by reference, into a second versioned bucket, its access
// logs going to a third): every object becomes Ready, S3 holds the configuration the spec
// says, with the IAMRole's ARN, and the log bucket's policy the logging service's statement,
// which the log bucket's own S3Bucket keeps. It prints the AWS calls of the whole example and
// of a steady sync of the replicated bucket.
func TestS3BucketReplicationExample(t *testing.T) {
	h := startWithKeys(t)
	h.provider("default", "production-aws")
	c := h.s3Client()
	h.emu.Calls.Reset()
	began := time.Now()
	h.applySeed("s3bucket-replication.yaml", "default")
	role := waitReady(h, &secv1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "orders-replication"}})
	logs := waitReady(h, &v1alpha1.S3Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "access-logs"}})
	orders := waitReady(h, &v1alpha1.S3Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "orders"}})
	created := h.allCalls()
	t.Logf("the example Ready in %s with %d AWS calls (S3 %d): %v", time.Since(began).Round(time.Millisecond), total(created), total(h.calls("S3")), created)

	r := replicationOf(t, c, "mycompany-orders")
	if r == nil || aws.ToString(r.Role) != role.Status.ARN || len(r.Rules) != 1 {
		t.Fatalf("the replication configuration is %+v, want one rule with role %s", r, role.Status.ARN)
	}
	if d := r.Rules[0].Destination; aws.ToString(d.Bucket) != "arn:aws:s3:::mycompany-orders-backup" || d.StorageClass != types.StorageClassGlacierIr ||
		r.Rules[0].DeleteMarkerReplication.Status != types.DeleteMarkerReplicationStatusEnabled {
		t.Errorf("the rule is %+v, destination %+v", r.Rules[0], d)
	}
	if l := loggingOf(t, c, "mycompany-orders"); l == nil || aws.ToString(l.TargetBucket) != "mycompany-access-logs" || aws.ToString(l.TargetPrefix) != "orders/" {
		t.Errorf("the logging configuration is %+v", l)
	}
	statement := policy.LogDeliveryStatement(orders.Status.ARN, emulator.DefaultAccount, logs.Status.ARN, "orders/")
	if doc := policyOf(t, c, "mycompany-access-logs"); !doc.Has(statement) || len(doc.Statements) != 1 {
		t.Errorf("the log bucket's policy is %s, want the logging service's statement only", doc)
	}

	steady := h.steadySync(orders)
	t.Logf("a steady sync of the replicated, logging bucket: %d AWS calls %v", total(steady), steady)
	if n := h.calls("S3")["PutBucketReplication"] + h.calls("S3")["PutBucketLogging"] + h.calls("S3")["PutBucketPolicy"]; n != 0 {
		t.Errorf("a steady sync made %d writes", n)
	}
	// The log bucket keeps the statement beside its (empty) spec.policy.
	h.steadySync(logs)
	if n := h.calls("S3")["PutBucketPolicy"] + h.calls("S3")["DeleteBucketPolicy"]; n != 0 {
		t.Errorf("the log bucket's sync made %d policy writes", n)
	}
}

// TestS3BucketReplicationLifecycle checks replication into a destination by reference that is
// not versioned yet (the bucket waits with DestinationNotVersioned, no PutBucketReplication),
// then is; a second rule into a bucket of the namespace by name, with a tag filter; a
// configuration deleted outside the operator put back; a steady sync that writes nothing; and
// the configuration deleted when the field goes.
func TestS3BucketReplicationLifecycle(t *testing.T) {
	h := start(t)
	ns := h.namespace()
	c := h.s3Client()
	dest := bucketIn(ns, "replica", "infra-test-replica")
	h.create(dest)
	dest = waitReady(h, dest)
	other := versioned(bucketIn(ns, "archive", "infra-test-archive"))
	h.create(other)
	waitReady(h, other)

	const name = "infra-test-replicated"
	b := versioned(bucketIn(ns, "replicated", name))
	b.Spec.Replication = &v1alpha1.S3Replication{RoleARN: replicationRole, Rules: []v1alpha1.S3ReplicationRule{{ID: "all",
		Destination: v1alpha1.S3ReplicationDestination{BucketRef: &shared.Reference{Name: dest.Name}}}}}
	h.emu.Calls.Reset()
	h.create(b)
	waitCondition(h, b, condition.TypeReady, "False", "DestinationNotVersioned")
	if n := h.calls("S3")["PutBucketReplication"]; n != 0 {
		t.Errorf("a bucket whose destination is not versioned made %d PutBucketReplication calls", n)
	}

	update(h, dest, func(d *v1alpha1.S3Bucket) { d.Spec.Versioning = &v1alpha1.S3Versioning{Enabled: true} })
	b = waitReady(h, b)
	r := replicationOf(t, c, name)
	if r == nil || len(r.Rules) != 1 || aws.ToString(r.Role) != replicationRole || aws.ToString(r.Rules[0].Destination.Bucket) != "arn:aws:s3:::infra-test-replica" ||
		r.Rules[0].Status != types.ReplicationRuleStatusEnabled {
		t.Fatalf("the replication configuration is %+v", r)
	}

	// A second rule, by name, with a prefix and tag filter.
	update(h, b, func(b *v1alpha1.S3Bucket) {
		b.Spec.Replication.Rules = append(b.Spec.Replication.Rules, v1alpha1.S3ReplicationRule{ID: "reports", Priority: 1, Status: "Enabled",
			Filter:      &v1alpha1.S3ReplicationFilter{Prefix: "reports/", Tags: map[string]string{"class": "finance"}},
			Destination: v1alpha1.S3ReplicationDestination{BucketName: "infra-test-archive", StorageClass: "STANDARD_IA"}})
	})
	eventually(t, "the second rule put", func() bool { r := replicationOf(t, c, name); return r != nil && len(r.Rules) == 2 })
	for _, rule := range replicationOf(t, c, name).Rules {
		if aws.ToString(rule.ID) != "reports" {
			continue
		}
		if f := rule.Filter; f == nil || f.And == nil || aws.ToString(f.And.Prefix) != "reports/" || len(f.And.Tags) != 1 || aws.ToInt32(rule.Priority) != 1 ||
			aws.ToString(rule.Destination.Bucket) != "arn:aws:s3:::infra-test-archive" || rule.Destination.StorageClass != types.StorageClassStandardIa {
			t.Errorf("the reports rule is %+v", rule)
		}
	}

	// A steady sync writes nothing.
	steady := h.steadySync(b)
	t.Logf("a steady sync of a bucket replicating into two buckets: %d AWS calls %v", total(steady), steady)
	if n := h.calls("S3")["PutBucketReplication"]; n != 0 {
		t.Errorf("a steady sync made %d PutBucketReplication calls", n)
	}

	// A configuration deleted outside the operator is put back.
	if _, err := c.DeleteBucketReplication(context.Background(), &s3.DeleteBucketReplicationInput{Bucket: aws.String(name)}); err != nil {
		t.Fatal(err)
	}
	h.resync(b)
	eventually(t, "the configuration put back", func() bool { r := replicationOf(t, c, name); return r != nil && len(r.Rules) == 2 })

	// Removing the field removes the configuration.
	update(h, b, func(b *v1alpha1.S3Bucket) { b.Spec.Replication = nil })
	eventually(t, "the configuration deleted", func() bool { return replicationOf(t, c, name) == nil })
}

// TestS3BucketReplicationAdmission checks what the API server refuses: replication without
// versioning (or with it suspended), two rules of one id, two rules of one priority, a role
// given twice or not at all, and a destination given twice.
func TestS3BucketReplicationAdmission(t *testing.T) {
	h := start(t)
	rule := func(id string, priority int32) v1alpha1.S3ReplicationRule {
		return v1alpha1.S3ReplicationRule{ID: id, Priority: priority, Destination: v1alpha1.S3ReplicationDestination{BucketName: "infra-test-replica"}}
	}
	cases := map[string]struct {
		versioning *v1alpha1.S3Versioning
		r          v1alpha1.S3Replication
	}{
		"versioning.enabled: true": {nil, v1alpha1.S3Replication{RoleARN: replicationRole, Rules: []v1alpha1.S3ReplicationRule{rule("a", 0)}}},
		"needs versioning.enabled": {&v1alpha1.S3Versioning{}, v1alpha1.S3Replication{RoleARN: replicationRole, Rules: []v1alpha1.S3ReplicationRule{rule("a", 0)}}},
		"Duplicate value":          {&v1alpha1.S3Versioning{Enabled: true}, v1alpha1.S3Replication{RoleARN: replicationRole, Rules: []v1alpha1.S3ReplicationRule{rule("a", 0), rule("a", 1)}}},
		"distinct priorities":      {&v1alpha1.S3Versioning{Enabled: true}, v1alpha1.S3Replication{RoleARN: replicationRole, Rules: []v1alpha1.S3ReplicationRule{rule("a", 2), rule("b", 2)}}},
		"exactly one of roleRef or roleARN": {&v1alpha1.S3Versioning{Enabled: true}, v1alpha1.S3Replication{RoleARN: replicationRole, RoleRef: &shared.Reference{Name: "r"},
			Rules: []v1alpha1.S3ReplicationRule{rule("a", 0)}}},
		"exactly one of bucketRef or bucketName": {&v1alpha1.S3Versioning{Enabled: true}, v1alpha1.S3Replication{RoleARN: replicationRole,
			Rules: []v1alpha1.S3ReplicationRule{{ID: "a", Destination: v1alpha1.S3ReplicationDestination{BucketName: "x-y-z", BucketRef: &shared.Reference{Name: "d"}}}}}},
	}
	for text, tc := range cases {
		b := newBucket("refused", "infra-test-refused", shared.DeletionPolicyDelete)
		b.Spec.Versioning, b.Spec.Replication = tc.versioning, &tc.r
		h.mustRefuse(b, text)
	}
	b := newBucket("refused", "infra-test-refused", shared.DeletionPolicyDelete)
	b.Spec.Logging = &v1alpha1.S3Logging{TargetBucketName: "infra-test-logs", TargetBucketRef: &shared.Reference{Name: "logs"}}
	h.mustRefuse(b, "exactly one of targetBucketRef or targetBucketName")
}

// TestS3BucketLogging checks access logging into a bucket by reference whose S3Bucket has its
// own policy: the target's policy gets the logging service's statement beside its own, which
// the target keeps on its syncs and through a change of its spec.policy; a new prefix
// rewrites the statement; turning logging off empties the logging status and removes the
// statement, and so does deleting the bucket.
func TestS3BucketLogging(t *testing.T) {
	h := start(t)
	ns := h.namespace()
	c := h.s3Client()
	const target = "infra-test-logs"
	own := func(action string) string {
		return `{"Version":"2012-10-17","Statement":[{"Sid":"Owner","Effect":"Deny","Principal":"*","Action":"` + action + `","Resource":"arn:aws:s3:::` + target + `/*"}]}`
	}
	logs := bucketIn(ns, "logs", target)
	logs.Spec.Policy = own("s3:DeleteObject")
	h.create(logs)
	logs = waitReady(h, logs)

	const name = "infra-test-logged"
	b := bucketIn(ns, "logged", name)
	b.Spec.Logging = &v1alpha1.S3Logging{TargetBucketRef: &shared.Reference{Name: logs.Name}, TargetPrefix: "logged/"}
	h.create(b)
	b = waitReady(h, b)
	if l := loggingOf(t, c, name); l == nil || aws.ToString(l.TargetBucket) != target || aws.ToString(l.TargetPrefix) != "logged/" {
		t.Fatalf("the logging configuration is %+v", l)
	}
	statement := func(prefix string) map[string]any {
		return policy.LogDeliveryStatement(b.Status.ARN, emulator.DefaultAccount, logs.Status.ARN, prefix)
	}
	if doc := policyOf(t, c, target); !doc.Has(statement("logged/")) || len(doc.Statements) != 2 {
		t.Fatalf("the target's policy is %s, want its own statement and the logging service's", doc)
	}

	// The target keeps the statement on its syncs and when its own policy changes.
	h.steadySync(logs)
	if n := h.calls("S3")["PutBucketPolicy"] + h.calls("S3")["DeleteBucketPolicy"]; n != 0 {
		t.Errorf("the target's sync made %d policy writes", n)
	}
	update(h, logs, func(l *v1alpha1.S3Bucket) { l.Spec.Policy = own("s3:PutObjectAcl") })
	eventually(t, "the target's new policy written beside the statement", func() bool {
		doc := policyOf(t, c, target)
		mine := doc.Unreserved(policy.ReservedSidPrefix)
		return doc.Has(statement("logged/")) && len(mine) == 1 && mine[0]["Action"] == "s3:PutObjectAcl"
	})

	// A new prefix rewrites the statement and the configuration.
	update(h, b, func(b *v1alpha1.S3Bucket) { b.Spec.Logging.TargetPrefix = "other/" })
	eventually(t, "the new prefix", func() bool {
		l := loggingOf(t, c, name)
		doc := policyOf(t, c, target)
		return l != nil && aws.ToString(l.TargetPrefix) == "other/" && doc.Has(statement("other/")) && len(doc.Statements) == 2
	})

	// Logging off: no logging status, no statement, the target's own policy left.
	update(h, b, func(b *v1alpha1.S3Bucket) { b.Spec.Logging = nil })
	eventually(t, "logging off and the statement removed", func() bool {
		return loggingOf(t, c, name) == nil && len(policyOf(t, c, target).Statements) == 1
	})
	if doc := policyOf(t, c, target); len(doc.Reserved(policy.LogDeliverySidPrefix)) != 0 {
		t.Errorf("the target's policy still holds the logging statement: %s", doc)
	}

	// Deleting a bucket that logs removes its statement from the target's policy.
	update(h, b, func(b *v1alpha1.S3Bucket) {
		b.Spec.Logging = &v1alpha1.S3Logging{TargetBucketRef: &shared.Reference{Name: logs.Name}, TargetPrefix: "logged/"}
	})
	eventually(t, "logging on again", func() bool { return policyOf(t, c, target).Has(statement("logged/")) })
	h.delete(b)
	if doc := policyOf(t, c, target); len(doc.Reserved(policy.LogDeliverySidPrefix)) != 0 || len(doc.Statements) != 1 {
		t.Errorf("after the logging bucket's deletion the target's policy is %s, want its own statement only", doc)
	}
}

// TestS3BucketReplicationForeign checks that a bucket naming, by name, another namespace's
// bucket as its replication destination or its logging target is refused with
// ForeignWriteNotAllowed, with no PutBucketReplication, PutBucketLogging or write to the other
// bucket's policy.
func TestS3BucketReplicationForeign(t *testing.T) {
	h := start(t)
	ns, other := h.namespace(), h.namespace()
	c := h.s3Client()
	theirs := versioned(bucketIn(other, "theirs", "infra-test-theirs"))
	h.create(theirs)
	waitReady(h, theirs)
	h.emu.Calls.Reset()

	replicate := versioned(bucketIn(ns, "replicate", "infra-test-steal-replica"))
	replicate.Spec.Replication = &v1alpha1.S3Replication{RoleARN: replicationRole, Rules: []v1alpha1.S3ReplicationRule{{ID: "steal",
		Destination: v1alpha1.S3ReplicationDestination{BucketName: "infra-test-theirs"}}}}
	h.create(replicate)
	waitCondition(h, replicate, condition.TypeSynced, "False", condition.ReasonForeignWriteNotAllowed)

	log := bucketIn(ns, "log", "infra-test-steal-logs")
	log.Spec.Logging = &v1alpha1.S3Logging{TargetBucketName: "infra-test-theirs", TargetPrefix: "x/"}
	h.create(log)
	waitCondition(h, log, condition.TypeSynced, "False", condition.ReasonForeignWriteNotAllowed)

	if n := h.calls("S3")["PutBucketReplication"] + h.calls("S3")["PutBucketLogging"] + h.calls("S3")["PutBucketPolicy"]; n != 0 {
		t.Errorf("buckets refused for another namespace's bucket made %d writes: %v", n, h.calls("S3"))
	}
	if doc := policyOf(t, c, "infra-test-theirs"); len(doc.Statements) != 0 {
		t.Errorf("the other namespace's bucket policy was written: %s", doc)
	}
}

// TestS3BucketReplicationRoleNotPassable runs the operator with a --passable-roles rule: a
// bucket replicating with another role of the account, by ARN, is refused with RoleNotPassable
// before any S3 call, while one whose role the rule allows is replicated.
func TestS3BucketReplicationRoleNotPassable(t *testing.T) {
	h := launch(t, testTransitions, func(o *operator.Options) {
		shortWaits(o)
		o.PassableRoles = []string{"*=arn:aws:iam::{account}:role/shared-*"}
	}, security.Family())
	ns := h.namespace()
	dest := versioned(bucketIn(ns, "replica", "infra-test-role-replica"))
	h.create(dest)
	waitReady(h, dest)
	replicated := func(name, role string) *v1alpha1.S3Bucket {
		b := versioned(bucketIn(ns, name, "infra-test-role-"+name))
		b.Spec.Replication = &v1alpha1.S3Replication{RoleARN: role, Rules: []v1alpha1.S3ReplicationRule{{ID: "all",
			Destination: v1alpha1.S3ReplicationDestination{BucketRef: &shared.Reference{Name: dest.Name}}}}}
		return b
	}
	h.emu.Calls.Reset()
	hostile := replicated("hostile", "arn:aws:iam::"+emulator.DefaultAccount+":role/platform-admin")
	h.create(hostile)
	waitCondition(h, hostile, condition.TypeSynced, "False", condition.ReasonRoleNotPassable)
	if n := h.calls("S3")["CreateBucket"] + h.calls("S3")["PutBucketReplication"]; n != 0 || bucketExists(t, h.s3Client(), "infra-test-role-hostile") {
		t.Errorf("a bucket refused for its replication role was created or configured: %v", h.calls("S3"))
	}

	allowed := replicated("allowed", "arn:aws:iam::"+emulator.DefaultAccount+":role/shared-replication")
	h.create(allowed)
	waitReady(h, allowed)
	if r := replicationOf(t, h.s3Client(), "infra-test-role-allowed"); r == nil || aws.ToString(r.Role) != allowed.Spec.Replication.RoleARN {
		t.Errorf("the allowed bucket's replication configuration is %+v", r)
	}
}
