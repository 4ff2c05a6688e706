// Package sns emulates Amazon SNS over its query protocol: standard and FIFO topics,
// attributes, tags, subscriptions (SQS subscriptions are confirmed at once and deliver into the
// emulated SQS queue when its policy allows the topic; email and HTTP subscriptions stay pending
// until ConfirmSubscription), filter policies, data protection policies (kept and returned,
// never applied to messages), and Publish.
//
// A topic's KMS key (KmsMasterKeyId) is checked against the emulated KMS when the topic is used,
// not when it is set: AWS models no KMS error for CreateTopic or SetTopicAttributes, which keep
// the key as given, and models KMSNotFound, KMSDisabled and KMSInvalidState for Publish. So
// Publish to an encrypted topic refuses the message when its key does not exist, is disabled or
// is pending deletion, with KMS's own message (AWS's exact wording could not be established),
// and a key that is no symmetric encryption key gets KMSInvalidState. A delivery to an encrypted
// SQS queue whose key is unusable fails like any other delivery: it is not reported to the
// publisher, and the state dump counts it.
package sns

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sns/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// Queues is what SNS needs of SQS: delivery on behalf of a topic, subject to the queue policy.
type Queues interface {
	DeliverFromService(queueARN, service, sourceARN, sourceAccount, body, groupID string) error
}

// Backend holds the topics and subscriptions of every account and region.
type Backend struct {
	clock  *core.Clock
	queues Queues
	keys   core.Keys
	mu     sync.Mutex
	topics map[string]*topic // by ARN
	tags   *core.Tags        // the topics', by ARN
	subs   map[string]*subscription
	seq    int
	// failed counts deliveries that failed, by subscription and reason.
	failed map[string]int
}

// New returns an empty SNS backend that delivers to queues and encrypts messages with the KMS
// keys of keys.
func New(clock *core.Clock, queues Queues, keys core.Keys) *Backend {
	return &Backend{clock: clock, queues: queues, keys: keys, topics: map[string]*topic{}, tags: core.NewTags(tagRules), subs: map[string]*subscription{},
		failed: map[string]int{}}
}

// Service describes SNS to the router.
func (b *Backend) Service() *core.Service {
	// QueryService throttles with AWS's request-rate Throttling, which the SDK retries, unlike SNS's
	// own 429 Throttled.
	s := core.QueryService("sns", "SNS", "sns", "2010-03-31", models.MustLoad("sns"))
	return s.Declare(0, b.dump, b.operations(), b.tagOperations())
}

func errNotFound(what string) *core.APIError {
	return core.NotFoundf("NotFound", "%s does not exist", what)
}

func errInvalid(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidParameter", "Invalid parameter: "+format, args...)
}

var topicName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,256}$`)

// topicAttributes are the attributes CreateTopic and SetTopicAttributes accept.
var topicAttributes = map[string]func(fifo bool, v string) error{
	"DisplayName":               func(_ bool, v string) error { return maxLen(v, 100) },
	"Policy":                    func(_ bool, v string) error { return jsonObject(v) },
	"DeliveryPolicy":            func(_ bool, v string) error { return jsonObject(v) },
	"KmsMasterKeyId":            func(bool, string) error { return nil },
	"SignatureVersion":          func(_ bool, v string) error { return oneOf(v, "1", "2") },
	"TracingConfig":             func(_ bool, v string) error { return oneOf(v, "PassThrough", "Active") },
	"FifoTopic":                 func(_ bool, v string) error { return oneOf(v, "true", "false") },
	"ContentBasedDeduplication": fifoOnly(func(v string) error { return oneOf(v, "true", "false") }),
	"ArchivePolicy":             fifoOnly(jsonObject),
	"FifoThroughputScope":       fifoOnly(func(v string) error { return oneOf(v, "Topic", "MessageGroup") }),
}

func fifoOnly(check func(string) error) func(bool, string) error {
	return func(fifo bool, v string) error {
		if !fifo {
			return fmt.Errorf("only FIFO topics have this attribute")
		}
		return check(v)
	}
}

func (b *Backend) arn(call *core.Call, name string) string {
	return call.Scope().ARN("sns", name)
}

func (b *Backend) createTopic(call *core.Call, in *sns.CreateTopicInput) (*sns.CreateTopicOutput, error) {
	name := aws.ToString(in.Name)
	fifo := in.Attributes["FifoTopic"] == "true"
	if !topicName.MatchString(strings.TrimSuffix(name, ".fifo")) || len(name) > 256 {
		return nil, errInvalid("Topic Name")
	}
	if fifo != strings.HasSuffix(name, ".fifo") {
		return nil, errInvalid("Topic Name: a FIFO topic's name ends in .fifo, and only a FIFO topic's does")
	}
	for k, v := range in.Attributes {
		check, ok := topicAttributes[k]
		if !ok {
			return nil, errInvalid("Attributes Reason: Unknown attribute %s", k)
		}
		if err := check(fifo, v); err != nil {
			return nil, errInvalid("Attributes Reason: %s: %v", k, err)
		}
	}
	tags, _ := core.TagMap(in.Tags, core.TagPair[types.Tag])
	b.mu.Lock()
	defer b.mu.Unlock()
	arn := b.arn(call, name)
	if t, ok := b.topics[arn]; ok {
		for k, v := range in.Attributes {
			if t.value(k) != v {
				return nil, errInvalid("Attributes Reason: Topic already exists with different attributes")
			}
		}
		have := b.tags.Map(arn)
		for k, v := range tags {
			if old, ok := have[k]; ok && old != v {
				return nil, errInvalid("Tags Reason: Topic already exists with different tags")
			}
		}
		return &sns.CreateTopicOutput{TopicArn: aws.String(arn)}, nil
	}
	if err := b.tags.Merge(tags, arn); err != nil {
		return nil, err
	}
	t := &topic{arn: arn, owner: call.Account, fifo: fifo, attrs: map[string]string{}}
	for k, v := range in.Attributes {
		if k != "FifoTopic" {
			t.attrs[k] = v
		}
	}
	b.topics[arn] = t
	return &sns.CreateTopicOutput{TopicArn: aws.String(arn)}, nil
}

// withTopic runs f, holding b.mu, on the topic with arn in the caller's account, and returns f's
// answer or topicFor's error.
func withTopic[O any](b *Backend, call *core.Call, arn *string, f func(*topic) (*O, error)) (*O, error) {
	return core.Holding(&b.mu, func() (*topic, error) { return b.topicFor(call, arn) }, f)
}

// topicFor returns the topic with arn, in the caller's account. The caller holds b.mu.
func (b *Backend) topicFor(call *core.Call, arn *string) (*topic, error) {
	return owned(call, b.topics, arn, "Topic", func(t *topic) string { return t.owner })
}

// owned returns the entry of m with arn, a topic or subscription (kind) that owner says the
// caller's account owns, or SNS's NotFound error for kind.
func owned[E any](call *core.Call, m map[string]E, arn *string, kind string, owner func(E) string) (E, error) {
	e, ok := m[aws.ToString(arn)]
	if !ok || owner(e) != call.Account {
		var none E
		return none, errNotFound(kind)
	}
	return e, nil
}

func (b *Backend) getTopicAttributes(call *core.Call, in *sns.GetTopicAttributesInput) (*sns.GetTopicAttributesOutput, error) {
	return withTopic(b, call, in.TopicArn, func(t *topic) (*sns.GetTopicAttributesOutput, error) {
		return &sns.GetTopicAttributesOutput{Attributes: b.topicAttributes(t)}, nil
	})
}

func (b *Backend) setTopicAttributes(call *core.Call, in *sns.SetTopicAttributesInput) (*sns.SetTopicAttributesOutput, error) {
	return withTopic(b, call, in.TopicArn, func(t *topic) (*sns.SetTopicAttributesOutput, error) {
		name, value := aws.ToString(in.AttributeName), aws.ToString(in.AttributeValue)
		check, ok := topicAttributes[name]
		if !ok || name == "FifoTopic" {
			return nil, errInvalid("AttributeName")
		}
		if err := check(t.fifo, value); err != nil {
			return nil, errInvalid("AttributeValue Reason: %v", err)
		}
		t.attrs[name] = value
		return &sns.SetTopicAttributesOutput{}, nil
	})
}

func (b *Backend) deleteTopic(call *core.Call, in *sns.DeleteTopicInput) (*sns.DeleteTopicOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	arn := aws.ToString(in.TopicArn)
	if t, ok := b.topics[arn]; ok && t.owner == call.Account {
		delete(b.topics, arn)
		b.tags.Delete(arn)
		for id, s := range b.subs {
			if s.topicARN == arn {
				delete(b.subs, id)
			}
		}
	}
	return &sns.DeleteTopicOutput{}, nil // Deleting a topic that does not exist succeeds.
}

func (b *Backend) listTopics(call *core.Call, in *sns.ListTopicsInput) (*sns.ListTopicsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var arns []string
	prefix := call.Scope().ARN("sns", "")
	for arn := range b.topics {
		if strings.HasPrefix(arn, prefix) {
			arns = append(arns, arn)
		}
	}
	page, next, err := paginate(arns, aws.ToString(in.NextToken), 100)
	if err != nil {
		return nil, err
	}
	out := &sns.ListTopicsOutput{NextToken: next}
	for _, arn := range page {
		out.Topics = append(out.Topics, types.Topic{TopicArn: aws.String(arn)})
	}
	return out, nil
}

// paginate returns one sorted page of items from the position in token, and the next token.
func paginate(items []string, token string, size int) ([]string, *string, error) {
	sort.Strings(items)
	page, next, ok := core.Page(items, token, size)
	if !ok {
		return nil, nil, errInvalid("NextToken")
	}
	if next == "" {
		return page, nil, nil
	}
	return page, aws.String(next), nil
}

func (b *Backend) dump() any {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]any{}
	for arn, t := range b.topics {
		out[arn] = b.topicAttributes(t)
	}
	for arn, s := range b.subs {
		out[arn] = s.attributes()
	}
	out["failedDeliveries"] = b.failed
	return out
}
