package messaging_test

import (
	"context"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestKMSKeyAdmission checks that queues and topics take a KMS key only in a form AWS takes: a
// key id, a key ARN, an alias or an alias ARN.
func TestKMSKeyAdmission(t *testing.T) {
	h := start(t)
	ns := h.namespace()
	sqs := func(name, key string) *v1alpha1.SQSQueue {
		q := queue(ns, name, name)
		q.Spec.Encryption = &v1alpha1.SQSEncryption{Enabled: true, KMSKeyID: key}
		return q
	}
	sns := func(name, key string) *v1alpha1.SNSTopic {
		tp := topic(ns, name, name)
		tp.Spec.Encryption = &v1alpha1.SNSEncryption{Enabled: true, KMSKeyID: key}
		return tp
	}
	const message = "give the KMS key as a key id"
	for name, o := range map[string]client.Object{
		"queue-word":        sqs("queue-word", "my-key"),
		"queue-short-arn":   sqs("queue-short-arn", "arn:aws:kms:us-east-1:123:key/1234abcd-12ab-34cd-56ef-1234567890ab"),
		"topic-empty-alias": sns("topic-empty-alias", "alias/"),
		"topic-bare-key":    sns("topic-bare-key", "key/1234abcd-12ab-34cd-56ef-1234567890ab"),
	} {
		t.Run("refuses/"+name, func(t *testing.T) { kubetest.MustRefuse(t, h.env.Client, o, message) })
	}
	for name, o := range map[string]client.Object{
		"queue-aws-managed": sqs("queue-aws-managed", "alias/aws/sqs"),
		"queue-mrk":         sqs("queue-mrk", "mrk-1234abcd12ab34cd56ef1234567890ab"),
		"topic-key-arn":     sns("topic-key-arn", "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab"),
		"topic-alias-arn":   sns("topic-alias-arn", "arn:aws:kms:us-east-1:123456789012:alias/team-key"),
	} {
		t.Run("admits/"+name, func(t *testing.T) {
			if err := h.env.Client.Create(context.Background(), o, client.DryRunAll); err != nil {
				t.Errorf("%s was refused, want it admitted: %v", name, err)
			}
		})
	}
}
