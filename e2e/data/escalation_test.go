package data_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// TestEscalationForeignBucket tries, as a hostile tenant would with the default flags, to
// delete another namespace's bucket through the operator: an S3Bucket in namespace attacker
// names team-a's bucket (external-name), asks to take it over, to empty it on deletion
// (forceDestroy) and to delete it, and is then deleted. The takeover is refused
// (TakeoverNotAllowed) before any write to S3, and the bucket, its object and team-a's
// S3Bucket are untouched.
func TestEscalationForeignBucket(t *testing.T) {
	h := start(t)
	ctx := context.Background()
	c := h.s3Client()
	teamA, attacker := h.env.Namespace(t), h.env.Namespace(t)
	h.provider(teamA, "production-aws")
	h.provider(attacker, "production-aws")
	victim := newBucket("data", "team-a-data", shared.DeletionPolicyRetain)
	victim.Namespace = teamA
	h.create(victim)
	waitReady(h, victim)
	if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("team-a-data"), Key: aws.String("orders.csv"), Body: strings.NewReader("1,2,3")}); err != nil {
		t.Fatal(err)
	}

	writes := s3Writes(h.calls("S3"))
	hostile := newBucket("steal", "team-a-data", shared.DeletionPolicyDelete)
	hostile.Namespace = attacker
	hostile.Annotations = map[string]string{shared.AnnotationExternalName: "team-a-data", shared.AnnotationTakeover: "true"}
	hostile.Spec.ForceDestroy = true
	hostile.Spec.Tags = map[string]string{"owner": "attacker"}
	h.create(hostile)
	got := waitCondition(h, hostile, condition.TypeSynced, "False", condition.ReasonTakeoverNotAllowed)
	if msg := got.Status.Conditions; !strings.Contains(conditionMessage(msg, condition.TypeSynced), "--takeover-namespaces") {
		t.Errorf("the refusal does not name the administrator's flag: %v", msg)
	}
	h.delete(hostile)
	h.waitGone(hostile)

	if after := s3Writes(h.calls("S3")); after != writes {
		t.Errorf("the hostile object made %d S3 writes, want none: %v", after-writes, h.calls("S3"))
	}
	if _, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("team-a-data"), Key: aws.String("orders.csv")}); err != nil {
		t.Errorf("team-a's object is gone: %v", err)
	}
	checkOwnershipTags(t, victim, bucketTags(t, c, "team-a-data"))
	h.resync(victim)
	waitReady(h, victim)
}

// s3Writes counts the S3 calls that change something: every operation but the reads.
func s3Writes(calls map[string]int) int {
	n := 0
	for op, count := range calls {
		if !strings.HasPrefix(op, "Get") && !strings.HasPrefix(op, "Head") && !strings.HasPrefix(op, "List") {
			n += count
		}
	}
	return n
}

// conditionMessage returns the message of the condition typ, or "".
func conditionMessage(conds []metav1.Condition, typ string) string {
	for _, c := range conds {
		if c.Type == typ {
			return c.Message
		}
	}
	return ""
}
