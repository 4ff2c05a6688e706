package subscriptions

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
)

// TestCompare checks that subscriptions are reconciled as a set.
func TestCompare(t *testing.T) {
	queue := "arn:aws:sqs:us-east-1:123456789012:inbox"
	confirmed := Subscription{ARN: "arn:sub:1", Protocol: "sqs", Endpoint: queue,
		Attributes: map[string]string{"RawMessageDelivery": "false"}}
	cases := map[string]struct {
		reason string
		want   []v1alpha1.SNSSubscription
		have   []Subscription
		plan   Plan
	}{
		"Subscribe": {
			reason: "A missing subscription is subscribed.",
			want:   []v1alpha1.SNSSubscription{{Protocol: "sqs", Endpoint: queue}},
			plan:   Plan{Subscribe: []v1alpha1.SNSSubscription{{Protocol: "sqs", Endpoint: queue}}},
		},
		"UpToDate": {
			reason: "A confirmed subscription with the spec's attributes needs nothing.",
			want:   []v1alpha1.SNSSubscription{{Protocol: "sqs", Endpoint: queue}},
			have:   []Subscription{confirmed},
		},
		"Attributes": {
			reason: "Each differing attribute is one call.",
			want:   []v1alpha1.SNSSubscription{{Protocol: "sqs", Endpoint: queue, RawMessageDelivery: aws.Bool(true), FilterPolicy: `{"a":["b"]}`}},
			have:   []Subscription{confirmed},
			plan: Plan{Set: []Change{{ARN: "arn:sub:1", Name: "FilterPolicy", Value: `{"a":["b"]}`},
				{ARN: "arn:sub:1", Name: "FilterPolicyScope", Value: "MessageAttributes"}, {ARN: "arn:sub:1", Name: "RawMessageDelivery", Value: "true"}}},
		},
		"Unsubscribe": {
			reason: "A confirmed subscription the spec lacks is removed; a pending one cannot be.",
			have:   []Subscription{confirmed, {Protocol: "email", Endpoint: "a@b.c"}},
			plan:   Plan{Unsubscribe: []Subscription{confirmed}},
		},
		"Pending": {
			reason: "A pending subscription the spec has is left to its owner.",
			want:   []v1alpha1.SNSSubscription{{Protocol: "email", Endpoint: "a@b.c"}},
			have:   []Subscription{{Protocol: "email", Endpoint: "a@b.c"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Compare(tc.want, tc.have)
			if diff := cmp.Diff(tc.plan, got); diff != "" {
				t.Errorf("%s\nCompare: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
