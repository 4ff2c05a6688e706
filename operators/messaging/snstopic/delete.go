package snstopic

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/queuepolicy"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete removes the topic's statements from the policies of the queues it delivers to, then
// deletes the topic, which deletes every subscription with it, as SNS does.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.SNSTopic, obs managed.Observation[State]) error {
	st := obs.State
	for _, sub := range st.Subscriptions {
		if sub.Protocol == "sqs" {
			if err := queuepolicy.Revoke(ctx, d.sqs, st.ARN, sub.Endpoint); err != nil {
				return err
			}
		}
	}
	if _, err := d.sns.DeleteTopic(ctx, &sns.DeleteTopicInput{TopicArn: aws.String(st.ARN)}); err != nil && !awserr.IsNotFound(err) {
		return fmt.Errorf("delete topic %s: %w", st.ARN, err)
	}
	return nil
}

// ReleaseOwnership removes the ownership tags, for deletionPolicy Orphan. The subscriptions
// and the statements that let the topic send to its queues stay.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.SNSTopic, obs managed.Observation[State]) error {
	if _, err := d.sns.UntagResource(ctx, &sns.UntagResourceInput{ResourceArn: aws.String(obs.State.ARN), TagKeys: managed.OwnershipTagKeys()}); err != nil {
		return fmt.Errorf("remove the ownership tags of topic %s: %w", obs.State.ARN, err)
	}
	return nil
}
