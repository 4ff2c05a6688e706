// Package sqs emulates Amazon SQS over its JSON protocol (with query-compatible error codes):
// standard and FIFO queues, attributes as AWS validates them (GetQueueAttributes reports
// RedrivePolicy with maxReceiveCount a JSON number, whichever form it was set in), tags, and
// messages with visibility timeouts, delays and dead-letter redrive, listed back by
// ListDeadLetterSourceQueues. Messages carry up to 10 message attributes, validated as AWS
// does and counted towards MaximumMessageSize, with MD5OfMessageAttributes computed as the
// Amazon SQS Developer Guide documents; ReceiveMessage returns those MessageAttributeNames asks
// for (names, "All", ".*" or "prefix.*") and the system attributes MessageSystemAttributeNames
// or AttributeNames ask for (SenderId, SentTimestamp, ApproximateReceiveCount,
// ApproximateFirstReceiveTimestamp, AWSTraceHeader, DeadLetterQueueSourceArn and, for FIFO
// queues, MessageGroupId, MessageDeduplicationId and SequenceNumber), none unless asked.
// SenderId is the sending account's ID (the topic's account for SNS deliveries).
//
// Server-side encryption with a KMS key (KmsMasterKeyId) is checked against the emulated KMS
// when it is used, not when it is set: AWS models no KMS error for CreateQueue or
// SetQueueAttributes, which keep the key as given, and models KmsNotFound, KmsDisabled,
// KmsInvalidState and KmsInvalidKeyUsage (awsQuery codes KMS.NotFoundException,
// KMS.DisabledException, KMS.InvalidStateException, KMS.InvalidKeyUsageException) for
// SendMessage and ReceiveMessage. So SendMessage, and delivery from SNS, refuse a message when
// the queue's key does not exist, is disabled, is pending deletion or is no symmetric encryption
// key; each message remembers its key, and ReceiveMessage refuses while a message it could
// return has a key that could not decrypt it now. The message of such an error is KMS's own
// (AWS's exact wording could not be established). Simplification: AWS reuses a data key for
// KmsDataKeyReusePeriodSeconds, so on AWS a key disabled a moment ago may still serve sends for
// that long; the emulator checks the key on every call.
package sqs

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Backend holds the queues of every account and region.
type Backend struct {
	clock   *core.Clock
	keys    core.Keys
	mu      sync.Mutex
	regions *core.Regions[*region]
	seq     int
}

// region is what one account has in one region: its queues, when each name was last deleted,
// and the queues' tags, all by queue name.
type region struct {
	queues  map[string]*queue
	deleted map[string]time.Time
	tags    *core.Tags
}

// newRegion returns the empty state of an account in a region.
func newRegion(core.Scope) *region {
	return &region{queues: map[string]*queue{}, deleted: map[string]time.Time{}, tags: core.NewTags(tagRules)}
}

// New returns an empty SQS backend on clock that encrypts messages with the KMS keys of keys.
func New(clock *core.Clock, keys core.Keys) *Backend {
	return &Backend{clock: clock, keys: keys, regions: core.NewRegions(newRegion)}
}

// Service describes SQS to the router.
func (b *Backend) Service() *core.Service {
	s := core.JSONService("sqs", "SQS", "AmazonSQS")
	s.Protocol, s.QueryCompatible, s.Errors = core.ProtocolJSON10, true, sqs.TypeRegistry
	s.Throttle.Code = "RequestThrottled"
	return s.Declare(0, b.dump, b.operations(), b.tagOperations())
}

var queueName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,80}$`)

// errNoQueue is AWS's answer for a queue that does not exist.
func errNoQueue() *core.APIError {
	return &core.APIError{Code: "QueueDoesNotExist",
		Message: "The specified queue does not exist."}
}

// withQueue runs f, holding b.mu, on the queue with url in the caller's account and region, and
// returns f's answer or lookup's error.
func withQueue[O any](b *Backend, call *core.Call, url *string, f func(*queue) (*O, error)) (*O, error) {
	return core.Holding(&b.mu, func() (*queue, error) { return b.lookup(call, url) }, f)
}

// lookup finds the queue a QueueUrl names in the caller's account and region. The caller holds
// b.mu.
func (b *Backend) lookup(call *core.Call, url *string) (*queue, error) {
	u := aws.ToString(url)
	name := u[strings.LastIndex(u, "/")+1:]
	q, ok := b.regions.Of(call).queues[name]
	if !ok || q.url != u && !strings.HasSuffix(u, "/"+call.Account+"/"+name) {
		return nil, errNoQueue()
	}
	return q, nil
}

func (b *Backend) createQueue(call *core.Call, in *sqs.CreateQueueInput) (*sqs.CreateQueueOutput, error) {
	name := aws.ToString(in.QueueName)
	fifo := in.Attributes["FifoQueue"] == "true"
	base := strings.TrimSuffix(name, ".fifo")
	if !queueName.MatchString(base) || len(name) > 80 {
		return nil, &core.APIError{Code: "InvalidParameterValue",
			Message: "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length"}
	}
	if fifo != strings.HasSuffix(name, ".fifo") {
		return nil, &core.APIError{Code: "InvalidParameterValue",
			Message: "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length."}
	}
	if err := checkAttributes(in.Attributes, fifo, false); err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.regions.Of(call)
	if q, ok := r.queues[name]; ok {
		if !q.sameAttributes(in.Attributes) {
			return nil, &core.APIError{Code: "QueueNameExists",
				Message: "A queue already exists with the same name and a different value for attribute(s) " + strings.Join(q.differing(in.Attributes), ", ")}
		}
		return &sqs.CreateQueueOutput{QueueUrl: aws.String(q.url)}, nil
	}
	if at, ok := r.deleted[name]; ok && call.Now.Sub(at) < 60*time.Second {
		return nil, &core.APIError{Code: "QueueDeletedRecently",
			Message: "You must wait 60 seconds after deleting a queue before you can create another queue with the same name."}
	}
	if err := r.tags.Merge(in.Tags, name); err != nil {
		return nil, err
	}
	q := newQueue(call, name, fifo, in.Attributes)
	r.queues[name] = q
	return &sqs.CreateQueueOutput{QueueUrl: aws.String(q.url)}, nil
}

func (b *Backend) getQueueURL(call *core.Call, in *sqs.GetQueueUrlInput) (*sqs.GetQueueUrlOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, ok := b.regions.Of(call).queues[aws.ToString(in.QueueName)]
	if !ok || !q.visible(call) {
		return nil, errNoQueue()
	}
	return &sqs.GetQueueUrlOutput{QueueUrl: aws.String(q.url)}, nil
}

func (b *Backend) getQueueAttributes(call *core.Call, in *sqs.GetQueueAttributesInput) (*sqs.GetQueueAttributesOutput, error) {
	return withQueue(b, call, in.QueueUrl, func(q *queue) (*sqs.GetQueueAttributesOutput, error) {
		all := q.attributes(b.clock.Now())
		out := map[string]string{}
		for _, name := range in.AttributeNames {
			if name == types.QueueAttributeNameAll {
				return &sqs.GetQueueAttributesOutput{Attributes: all}, nil
			}
			v, ok := all[string(name)]
			if !ok {
				if _, known := knownReadOnly[string(name)]; !known {
					if _, settableName := settable[string(name)]; !settableName {
						return nil, &core.APIError{Code: "InvalidAttributeName", Message: "Unknown Attribute " + string(name) + "."}
					}
				}
				continue
			}
			out[string(name)] = v
		}
		return &sqs.GetQueueAttributesOutput{Attributes: out}, nil
	})
}

func (b *Backend) setQueueAttributes(call *core.Call, in *sqs.SetQueueAttributesInput) (*sqs.SetQueueAttributesOutput, error) {
	return withQueue(b, call, in.QueueUrl, func(q *queue) (*sqs.SetQueueAttributesOutput, error) {
		if v, ok := in.Attributes["FifoQueue"]; ok && (v == "true") != q.fifo {
			return nil, &core.APIError{Code: "InvalidAttributeValue",
				Message: "Invalid value for the parameter FifoQueue: a queue's type cannot be changed."}
		}
		if err := checkAttributes(in.Attributes, q.fifo, true); err != nil {
			return nil, err
		}
		for k, v := range in.Attributes {
			switch {
			case k == "FifoQueue":
			case v == "" && removable[k]:
				delete(q.attrs, k)
			default:
				q.attrs[k] = v
			}
		}
		q.modified = call.Now
		return &sqs.SetQueueAttributesOutput{}, nil
	})
}

func (b *Backend) deleteQueue(call *core.Call, in *sqs.DeleteQueueInput) (*sqs.DeleteQueueOutput, error) {
	return withQueue(b, call, in.QueueUrl, func(q *queue) (*sqs.DeleteQueueOutput, error) {
		r := b.regions.Of(call)
		delete(r.queues, q.name)
		r.tags.Delete(q.name)
		r.deleted[q.name] = call.Now
		return &sqs.DeleteQueueOutput{}, nil
	})
}

func (b *Backend) listQueues(call *core.Call, in *sqs.ListQueuesInput) (*sqs.ListQueuesOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var urls []string
	for name, q := range b.regions.Of(call).queues {
		if strings.HasPrefix(name, aws.ToString(in.QueueNamePrefix)) && q.visible(call) {
			urls = append(urls, q.url)
		}
	}
	page, next, err := pageOf(urls, in.MaxResults, in.NextToken)
	return &sqs.ListQueuesOutput{QueueUrls: page, NextToken: next}, err
}

func md5Hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

func (b *Backend) nextID() string {
	b.seq++
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", b.seq, b.seq)
}

func (b *Backend) dump() any {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]any{}
	for scope, r := range b.regions.All() {
		for name, q := range r.queues {
			out[scope.Account+"/"+scope.Region+"/"+name] = q.attributes(b.clock.Now())
		}
	}
	return out
}
