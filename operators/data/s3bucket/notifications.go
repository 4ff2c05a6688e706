package s3bucket

import (
	"context"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Kinds of notification destinations.
const (
	kindQueue    = "queue"
	kindTopic    = "topic"
	kindFunction = "function"
)

// notification is one notification configuration in a form both the spec and S3's answer
// convert to: its id, the kind and ARN of its destination, its events (sorted) and its key
// filter.
type notification struct {
	ID, Kind, ARN  string
	Events         []string
	Prefix, Suffix string
}

// desiredNotifications returns the spec's notifications, their references resolved into their
// ARN fields.
func desiredNotifications(s *v1alpha1.S3BucketSpec) []notification {
	out := make([]notification, 0, len(s.Notifications))
	for _, n := range s.Notifications {
		kind, arn := kindQueue, n.QueueARN
		switch {
		case n.TopicARN != "":
			kind, arn = kindTopic, n.TopicARN
		case n.FunctionARN != "":
			kind, arn = kindFunction, n.FunctionARN
		}
		w := notification{ID: n.ID, Kind: kind, ARN: arn, Events: slices.Sorted(slices.Values(n.Events))}
		if f := n.Filter; f != nil {
			w.Prefix, w.Suffix = f.Prefix, f.Suffix
		}
		out = append(out, w)
	}
	return out
}

// observedNotifications returns the notification configurations of c.
func observedNotifications(c *s3.GetBucketNotificationConfigurationOutput) []notification {
	var out []notification
	add := func(kind, arn string, id *string, events []types.Event, f *types.NotificationConfigurationFilter) {
		n := notification{ID: aws.ToString(id), Kind: kind, ARN: arn}
		for _, e := range events {
			n.Events = append(n.Events, string(e))
		}
		slices.Sort(n.Events)
		if f != nil && f.Key != nil {
			for _, r := range f.Key.FilterRules {
				switch strings.ToLower(string(r.Name)) {
				case "prefix":
					n.Prefix = aws.ToString(r.Value)
				case "suffix":
					n.Suffix = aws.ToString(r.Value)
				}
			}
		}
		out = append(out, n)
	}
	for _, q := range c.QueueConfigurations {
		add(kindQueue, aws.ToString(q.QueueArn), q.Id, q.Events, q.Filter)
	}
	for _, t := range c.TopicConfigurations {
		add(kindTopic, aws.ToString(t.TopicArn), t.Id, t.Events, t.Filter)
	}
	for _, f := range c.LambdaFunctionConfigurations {
		add(kindFunction, aws.ToString(f.LambdaFunctionArn), f.Id, f.Events, f.Filter)
	}
	return out
}

// sameNotifications compares notification configurations as sets keyed by id; an observed
// configuration with EventBridge on differs from a spec, which cannot ask for it.
func sameNotifications(want, got []notification, eventBridge bool) bool {
	if len(want) != len(got) || eventBridge {
		return false
	}
	for _, w := range want {
		i := slices.IndexFunc(got, func(g notification) bool { return g.ID == w.ID })
		if i < 0 || got[i].Kind != w.Kind || got[i].ARN != w.ARN || got[i].Prefix != w.Prefix || got[i].Suffix != w.Suffix ||
			!slices.Equal(got[i].Events, w.Events) {
			return false
		}
	}
	return true
}

// notificationConfiguration returns the notification configuration S3 is given for want.
func notificationConfiguration(want []notification) *types.NotificationConfiguration {
	c := &types.NotificationConfiguration{}
	for _, n := range want {
		events := make([]types.Event, 0, len(n.Events))
		for _, e := range n.Events {
			events = append(events, types.Event(e))
		}
		var filter *types.NotificationConfigurationFilter
		if n.Prefix != "" || n.Suffix != "" {
			filter = &types.NotificationConfigurationFilter{Key: &types.S3KeyFilter{}}
			if n.Prefix != "" {
				filter.Key.FilterRules = append(filter.Key.FilterRules, types.FilterRule{Name: types.FilterRuleNamePrefix, Value: aws.String(n.Prefix)})
			}
			if n.Suffix != "" {
				filter.Key.FilterRules = append(filter.Key.FilterRules, types.FilterRule{Name: types.FilterRuleNameSuffix, Value: aws.String(n.Suffix)})
			}
		}
		id := aws.String(n.ID)
		switch n.Kind {
		case kindQueue:
			c.QueueConfigurations = append(c.QueueConfigurations, types.QueueConfiguration{Id: id, QueueArn: aws.String(n.ARN), Events: events, Filter: filter})
		case kindTopic:
			c.TopicConfigurations = append(c.TopicConfigurations, types.TopicConfiguration{Id: id, TopicArn: aws.String(n.ARN), Events: events, Filter: filter})
		default:
			c.LambdaFunctionConfigurations = append(c.LambdaFunctionConfigurations, types.LambdaFunctionConfiguration{Id: id,
				LambdaFunctionArn: aws.String(n.ARN), Events: events, Filter: filter})
		}
	}
	return c
}

// checkDestinations refuses, before any AWS call, destinations S3 cannot deliver to: a FIFO
// queue or topic (given by reference; admission refuses a FIFO ARN), and one outside the
// bucket's region.
func checkDestinations(want []notification, region string) error {
	for _, n := range want {
		parts := strings.Split(n.ARN, ":")
		if n.Kind != kindFunction && strings.HasSuffix(n.ARN, ".fifo") {
			return managed.Terminal(condition.ReasonInvalidSpec, "spec.notifications[%s]: %s is a FIFO %s; S3 sends event notifications only to standard queues and topics",
				n.ID, n.ARN, n.Kind)
		}
		if len(parts) > 3 && parts[3] != region {
			return managed.Terminal(condition.ReasonInvalidSpec, "spec.notifications[%s]: %s is in region %s; S3 sends a bucket's events only to destinations in its region, %s",
				n.ID, n.ARN, parts[3], region)
		}
	}
	return nil
}

// planNotifications plans the notification configuration of the bucket with bucketARN: first
// what each destination of the spec needs to accept S3's events (see planPermissions), then one
// PutBucketNotificationConfiguration of the whole set when it differs from st's, then the
// removal of the permissions of the destinations the bucket no longer notifies. A bucket that
// only observes compares the configuration and looks at no destination.
func (d *driver) planNotifications(ctx context.Context, p *managed.Plan, b *v1alpha1.S3Bucket, st *State, bucketARN string) error {
	want := desiredNotifications(&b.Spec)
	observeOnly := b.Spec.ManagementPolicy == shared.ManagementPolicyObserveOnly
	if !observeOnly {
		if err := checkDestinations(want, st.Region); err != nil {
			return err
		}
		if err := d.grantAll(ctx, p, b, bucketARN, want); err != nil {
			return err
		}
	}
	if !sameNotifications(want, st.Notifications, st.EventBridge) {
		p.Add("notifications", func(ctx context.Context) error {
			_, err := d.api.PutBucketNotificationConfiguration(ctx, &s3.PutBucketNotificationConfigurationInput{Bucket: aws.String(st.Name),
				NotificationConfiguration: notificationConfiguration(want)})
			return managed.Wrap(err, "put notification configuration of bucket %s", st.Name)
		})
	}
	if observeOnly {
		return nil
	}
	return d.revokeGone(ctx, p, b, bucketARN, want, st.Notifications)
}
