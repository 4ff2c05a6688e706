package sns

import (
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sns/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// subscription is one subscription of a topic.
type subscription struct {
	arn, topicARN, owner string
	protocol, endpoint   string
	confirmed            bool
	token                string
	attrs                map[string]string
}

// pendingARN is what AWS returns instead of an ARN for an unconfirmed subscription.
const pendingARN = "pending confirmation"

// subscriptionAttributes are the attributes Subscribe and SetSubscriptionAttributes accept.
var subscriptionAttributes = map[string]func(string) error{
	"RawMessageDelivery":  func(v string) error { return oneOf(v, "true", "false") },
	"FilterPolicy":        func(v string) error { return validateFilterPolicy(v) },
	"FilterPolicyScope":   func(v string) error { return oneOf(v, "MessageAttributes", "MessageBody") },
	"RedrivePolicy":       jsonObject,
	"DeliveryPolicy":      jsonObject,
	"SubscriptionRoleArn": func(string) error { return nil },
}

// checkEndpoint validates an endpoint for its protocol as AWS does.
func checkEndpoint(protocol, endpoint string) error {
	switch protocol {
	case "sqs", "lambda", "firehose", "application":
		if parts := strings.Split(endpoint, ":"); len(parts) < 6 || parts[0] != "arn" {
			return errInvalid("%s endpoint must be an ARN", protocol)
		}
	case "http", "https":
		u, err := url.Parse(endpoint)
		if err != nil || u.Scheme != protocol || u.Host == "" {
			return errInvalid("Endpoint must match the protocol %s", protocol)
		}
	case "email", "email-json":
		if _, err := mail.ParseAddress(endpoint); err != nil {
			return errInvalid("Email address")
		}
	case "sms":
		if !strings.HasPrefix(endpoint, "+") {
			return errInvalid("SMS endpoint must be a phone number in E.164 format")
		}
	default:
		return errInvalid("Invalid protocol type: %s", protocol)
	}
	return nil
}

// confirmedOnSubscribe reports whether AWS confirms a subscription of protocol at once: those
// to AWS resources in the same account need no confirmation.
func confirmedOnSubscribe(protocol string) bool {
	switch protocol {
	case "sqs", "lambda", "firehose", "application":
		return true
	}
	return false
}

func (b *Backend) subscribe(call *core.Call, in *sns.SubscribeInput) (*sns.SubscribeOutput, error) {
	protocol, endpoint := aws.ToString(in.Protocol), aws.ToString(in.Endpoint)
	if err := checkEndpoint(protocol, endpoint); err != nil {
		return nil, err
	}
	for k, v := range in.Attributes {
		check, ok := subscriptionAttributes[k]
		if !ok {
			return nil, errInvalid("Attributes Reason: Unknown attribute %s", k)
		}
		if err := check(v); err != nil {
			return nil, errInvalid("Attributes Reason: %s: %v", k, err)
		}
	}
	return withTopic(b, call, in.TopicArn, func(t *topic) (*sns.SubscribeOutput, error) {
		for _, s := range b.subs {
			if s.topicARN == t.arn && s.protocol == protocol && s.endpoint == endpoint {
				return &sns.SubscribeOutput{SubscriptionArn: aws.String(s.visibleARN(in.ReturnSubscriptionArn))}, nil
			}
		}
		b.seq++
		s := &subscription{
			arn:      fmt.Sprintf("%s:%08x-0000-4000-8000-%012x", t.arn, b.seq, b.seq),
			topicARN: t.arn, owner: call.Account, protocol: protocol, endpoint: endpoint,
			confirmed: confirmedOnSubscribe(protocol),
			token:     fmt.Sprintf("%064x", b.seq),
			attrs:     map[string]string{},
		}
		for k, v := range in.Attributes {
			s.attrs[k] = v
		}
		b.subs[s.arn] = s
		return &sns.SubscribeOutput{SubscriptionArn: aws.String(s.visibleARN(in.ReturnSubscriptionArn))}, nil
	})
}

// visibleARN is the ARN AWS reports: "pending confirmation" for an unconfirmed subscription
// unless the caller asked for the ARN.
func (s *subscription) visibleARN(always bool) string {
	if s.confirmed || always {
		return s.arn
	}
	return pendingARN
}

func (b *Backend) confirmSubscription(call *core.Call, in *sns.ConfirmSubscriptionInput) (*sns.ConfirmSubscriptionOutput, error) {
	return withTopic(b, call, in.TopicArn, func(t *topic) (*sns.ConfirmSubscriptionOutput, error) {
		for _, s := range b.subs {
			if s.topicARN == t.arn && s.token == aws.ToString(in.Token) {
				s.confirmed = true
				return &sns.ConfirmSubscriptionOutput{SubscriptionArn: aws.String(s.arn)}, nil
			}
		}
		return nil, errInvalid("Token")
	})
}

// withSubscription runs f, holding b.mu, on the subscription with arn in the caller's account,
// and returns f's answer or subscriptionFor's error.
func withSubscription[O any](b *Backend, call *core.Call, arn *string, f func(*subscription) (*O, error)) (*O, error) {
	return core.Holding(&b.mu, func() (*subscription, error) { return b.subscriptionFor(call, arn) }, f)
}

// subscriptionFor returns the subscription with arn, in the caller's account. The caller holds
// b.mu.
func (b *Backend) subscriptionFor(call *core.Call, arn *string) (*subscription, error) {
	return owned(call, b.subs, arn, "Subscription", func(s *subscription) string { return s.owner })
}

func (b *Backend) unsubscribe(call *core.Call, in *sns.UnsubscribeInput) (*sns.UnsubscribeOutput, error) {
	return withSubscription(b, call, in.SubscriptionArn, func(s *subscription) (*sns.UnsubscribeOutput, error) {
		delete(b.subs, s.arn)
		return &sns.UnsubscribeOutput{}, nil
	})
}

func (b *Backend) listSubscriptionsByTopic(call *core.Call, in *sns.ListSubscriptionsByTopicInput) (*sns.ListSubscriptionsByTopicOutput, error) {
	return withTopic(b, call, in.TopicArn, func(t *topic) (*sns.ListSubscriptionsByTopicOutput, error) {
		var arns []string
		for arn, s := range b.subs {
			if s.topicARN == t.arn {
				arns = append(arns, arn)
			}
		}
		page, next, err := paginate(arns, aws.ToString(in.NextToken), 100)
		if err != nil {
			return nil, err
		}
		out := &sns.ListSubscriptionsByTopicOutput{NextToken: next, Subscriptions: []types.Subscription{}}
		for _, arn := range page {
			s := b.subs[arn]
			out.Subscriptions = append(out.Subscriptions, types.Subscription{
				SubscriptionArn: aws.String(s.visibleARN(false)), TopicArn: aws.String(s.topicARN), Owner: aws.String(s.owner),
				Protocol: aws.String(s.protocol), Endpoint: aws.String(s.endpoint),
			})
		}
		return out, nil
	})
}

// attributes returns the subscription's attributes as GetSubscriptionAttributes reports them,
// plus, for the state dump, a pending subscription's confirmation token.
func (s *subscription) attributes() map[string]string {
	out := map[string]string{
		"SubscriptionArn": s.arn, "TopicArn": s.topicARN, "Owner": s.owner, "Protocol": s.protocol, "Endpoint": s.endpoint,
		"PendingConfirmation": strconv.FormatBool(!s.confirmed), "ConfirmationWasAuthenticated": strconv.FormatBool(s.confirmed),
		"RawMessageDelivery": "false",
	}
	if !s.confirmed {
		// Only the state dump shows it (AWS would send it to the endpoint); ConfirmSubscription
		// takes it.
		out["ConfirmationToken"] = s.token
	}
	for k, v := range s.attrs {
		out[k] = v
	}
	if _, ok := s.attrs["FilterPolicy"]; ok && out["FilterPolicyScope"] == "" {
		out["FilterPolicyScope"] = "MessageAttributes"
	}
	return out
}

func (b *Backend) getSubscriptionAttributes(call *core.Call, in *sns.GetSubscriptionAttributesInput) (*sns.GetSubscriptionAttributesOutput, error) {
	return withSubscription(b, call, in.SubscriptionArn, func(s *subscription) (*sns.GetSubscriptionAttributesOutput, error) {
		attrs := s.attributes()
		delete(attrs, "ConfirmationToken")
		return &sns.GetSubscriptionAttributesOutput{Attributes: attrs}, nil
	})
}

func (b *Backend) setSubscriptionAttributes(call *core.Call, in *sns.SetSubscriptionAttributesInput) (*sns.SetSubscriptionAttributesOutput, error) {
	return withSubscription(b, call, in.SubscriptionArn, func(s *subscription) (*sns.SetSubscriptionAttributesOutput, error) {
		name, value := aws.ToString(in.AttributeName), aws.ToString(in.AttributeValue)
		check, ok := subscriptionAttributes[name]
		if !ok {
			return nil, errInvalid("AttributeName")
		}
		if value == "" && (name == "FilterPolicy" || name == "RedrivePolicy") {
			delete(s.attrs, name) // An empty value removes a policy.
			return &sns.SetSubscriptionAttributesOutput{}, nil
		}
		if err := check(value); err != nil {
			return nil, errInvalid("AttributeValue Reason: %v", err)
		}
		s.attrs[name] = value
		return &sns.SetSubscriptionAttributesOutput{}, nil
	})
}
