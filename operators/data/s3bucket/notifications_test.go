package s3bucket

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
)

func TestSameNotifications(t *testing.T) {
	const queue, topic = "arn:aws:sqs:us-east-1:123456789012:events", "arn:aws:sns:us-east-1:123456789012:events"
	spec := []v1alpha1.S3Notification{
		{ID: "uploads", Events: []string{"s3:ObjectRemoved:*", "s3:ObjectCreated:*"}, Filter: &v1alpha1.S3NotificationFilter{Prefix: "uploads/"}, QueueARN: queue},
		{ID: "all", Events: []string{"s3:ObjectCreated:Put"}, TopicARN: topic},
	}
	// S3's answer, in the order and case S3 writes it.
	observed := &s3.GetBucketNotificationConfigurationOutput{
		TopicConfigurations: []types.TopicConfiguration{{Id: aws.String("all"), TopicArn: aws.String(topic), Events: []types.Event{"s3:ObjectCreated:Put"}}},
		QueueConfigurations: []types.QueueConfiguration{{Id: aws.String("uploads"), QueueArn: aws.String(queue), Events: []types.Event{"s3:ObjectCreated:*", "s3:ObjectRemoved:*"},
			Filter: &types.NotificationConfigurationFilter{Key: &types.S3KeyFilter{FilterRules: []types.FilterRule{{Name: "Prefix", Value: aws.String("uploads/")}}}}}},
	}
	cases := map[string]struct {
		reason      string
		spec        []v1alpha1.S3Notification
		observed    *s3.GetBucketNotificationConfigurationOutput
		eventBridge bool
		want        bool
	}{
		"Same": {reason: "Configurations in another order, with their events in another order, match the spec.", spec: spec, observed: observed, want: true},
		"NoneAndNone": {reason: "A bucket without configurations matches a spec without notifications.",
			observed: &s3.GetBucketNotificationConfigurationOutput{}, want: true},
		"Extra": {reason: "A configuration the spec lacks is a difference.", spec: spec[:1], observed: observed},
		"OtherDestination": {reason: "A configuration that sends elsewhere is a difference.",
			spec: []v1alpha1.S3Notification{spec[0], {ID: "all", Events: []string{"s3:ObjectCreated:Put"}, TopicARN: topic + "2"}}, observed: observed},
		"OtherFilter": {reason: "A configuration with another prefix is a difference.",
			spec: []v1alpha1.S3Notification{{ID: "uploads", Events: spec[0].Events, QueueARN: queue}, spec[1]}, observed: observed},
		"EventBridge": {reason: "EventBridge turned on outside the operator is a difference.", spec: spec, observed: observed, eventBridge: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := sameNotifications(desiredNotifications(&v1alpha1.S3BucketSpec{Notifications: tc.spec}), observedNotifications(tc.observed), tc.eventBridge)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nsameNotifications(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestCheckDestinations(t *testing.T) {
	cases := map[string]struct {
		reason string
		arn    string
		want   bool
	}{
		"Standard":    {reason: "A standard queue of the bucket's region is accepted.", arn: "arn:aws:sqs:us-east-1:123456789012:events", want: true},
		"FIFO":        {reason: "S3 does not deliver to FIFO queues.", arn: "arn:aws:sqs:us-east-1:123456789012:events.fifo"},
		"OtherRegion": {reason: "S3 delivers only in the bucket's region.", arn: "arn:aws:sqs:eu-west-1:123456789012:events"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := checkDestinations([]notification{{ID: "n", Kind: kindQueue, ARN: tc.arn}}, "us-east-1")
			if diff := cmp.Diff(tc.want, err == nil); diff != "" {
				t.Errorf("%s\ncheckDestinations(...) = %v: -want accepted, +got:\n%s", tc.reason, err, diff)
			}
		})
	}
}
