package snstopic

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the topic with its attributes and tags in one call. The subscriptions follow
// as changes of the existing topic, planned by the observation the engine makes right after, in
// the same pass.
func (d *driver) Create(ctx context.Context, t *v1alpha1.SNSTopic, req managed.Request) error {
	s := &t.Spec
	out, err := d.sns.CreateTopic(ctx, &sns.CreateTopicInput{
		Name:       aws.String(s.TopicName),
		Attributes: createTopicAttributes(s),
		Tags:       tagList(req.Tags),
	})
	if err != nil {
		return fmt.Errorf("create topic %s: %w", s.TopicName, err)
	}
	managed.SetExternalName(t, aws.ToString(out.TopicArn))
	t.Status.TopicARN = aws.ToString(out.TopicArn)
	return nil
}
