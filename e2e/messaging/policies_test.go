package messaging_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPolicies runs the shared policy check on an SQSQueue: its outputs in a ConfigMap, a
// visibility timeout changed outside the operator reported (driftPolicy Report) and then
// restored (Enforce), and a second object that only observes the queue.
func TestPolicies(t *testing.T) {
	h := start(t)
	ns := h.namespace()
	visibility := func(ctx context.Context, q *v1alpha1.SQSQueue) (string, error) {
		out, err := h.sqs.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(q.Status.QueueURL),
			AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameVisibilityTimeout}})
		if err != nil {
			return "", err
		}
		return out.Attributes[string(types.QueueAttributeNameVisibilityTimeout)], nil
	}
	kubetest.RunPolicyCheck(t, h.env.Client, kubetest.PolicyCheck[*v1alpha1.SQSQueue]{
		New: func(name string) *v1alpha1.SQSQueue {
			q := queue(ns, name, "policy-check")
			q.Spec.VisibilityTimeout = aws.Int32(45)
			q.Spec.Tags = map[string]string{"team": "messaging"}
			return q
		},
		Outputs: []string{"queueURL", "queueARN"},
		Drift: func(ctx context.Context, q *v1alpha1.SQSQueue) error {
			_, err := h.sqs.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: aws.String(q.Status.QueueURL),
				Attributes: map[string]string{string(types.QueueAttributeNameVisibilityTimeout): "5"}})
			return err
		},
		DriftField: "VisibilityTimeout",
		Drifted: func(ctx context.Context, q *v1alpha1.SQSQueue) (bool, error) {
			v, err := visibility(ctx, q)
			return v == "5", err
		},
		Exists: func(ctx context.Context, _ *v1alpha1.SQSQueue) (bool, error) {
			_, err := h.sqs.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String("policy-check")})
			return kubetest.Found(err)
		},
	})
}
