package s3

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// s3Principal is the service principal S3 acts as when it notifies a destination.
const s3Principal = "s3.amazonaws.com"

// notificationSubject is the subject of the SNS messages S3 publishes.
const notificationSubject = "Amazon S3 Notification"

// Queues is what S3 needs of the emulated SQS: delivering a message to a queue as a service, the
// queue's policy permitting (the SQS backend implements it).
type Queues interface {
	DeliverFromService(queueARN, service, sourceARN, sourceAccount, body, groupID string) error
}

// Topics is what S3 needs of the emulated SNS: publishing to a topic as a service, the topic's
// policy permitting (the SNS backend implements it).
type Topics interface {
	PublishFromService(topicARN, service, sourceARN, sourceAccount, subject, message string) error
}

// Functions is what S3 needs of the emulated Lambda: whether a function exists and its policy
// lets a service invoke it (the Lambda backend implements it).
type Functions interface {
	MayInvoke(scope core.Scope, arn, principal, sourceARN string) (exists, allowed bool)
}

// Destinations are the services a bucket's event notifications go to.
type Destinations struct {
	Queues    Queues
	Topics    Topics
	Functions Functions
}

// NotifyThrough makes S3 check the destinations of notification configurations against the
// emulated SQS, SNS and Lambda, and deliver its events to them, as AWS does: a configuration is
// refused unless each queue and topic exists and takes a test message (s3:TestEvent) from S3
// and each function's policy lets S3 invoke it (unless the request skips destination
// validation); then every object created (PutObject) or deleted (DeleteObject, DeleteObjects)
// is published, as an event record of AWS's structure, to the queues and topics whose
// configurations match its event and key. Functions are not invoked: the emulator runs no code.
// The server calls it once, before serving.
func (b *Backend) NotifyThrough(d Destinations) { b.destinations = &d }

// destination is one notification configuration: its kind (queue, topic or function), the ARN it
// names, its id, events and key filter.
type destination struct {
	kind, arn, id string
	events        []types.Event
	filter        *types.NotificationConfigurationFilter
}

// destinationsOf returns the configurations of c.
func destinationsOf(c *types.NotificationConfiguration) []destination {
	var out []destination
	for _, q := range c.QueueConfigurations {
		out = append(out, destination{"queue", aws.ToString(q.QueueArn), aws.ToString(q.Id), q.Events, q.Filter})
	}
	for _, t := range c.TopicConfigurations {
		out = append(out, destination{"topic", aws.ToString(t.TopicArn), aws.ToString(t.Id), t.Events, t.Filter})
	}
	for _, f := range c.LambdaFunctionConfigurations {
		out = append(out, destination{"function", aws.ToString(f.LambdaFunctionArn), aws.ToString(f.Id), f.Events, f.Filter})
	}
	return out
}

// validateDestinations checks each destination of a configuration of the bucket name (owned by
// owner), as AWS does before it stores the configuration: a queue or topic must take a test
// message from S3, a function's policy must let S3 invoke it. Without Destinations it checks
// nothing.
func (b *Backend) validateDestinations(dests []destination, name, owner string, now time.Time) error {
	d := b.destinations
	if d == nil {
		return nil
	}
	source := "arn:aws:s3:::" + name
	test, _ := json.Marshal(map[string]string{"Service": "Amazon S3", "Event": "s3:TestEvent", "Time": eventTime(now), "Bucket": name,
		"RequestId": core.NewUUID(), "HostId": "emulator"})
	for _, dest := range dests {
		var err error
		switch dest.kind {
		case "queue":
			err = d.Queues.DeliverFromService(dest.arn, s3Principal, source, owner, string(test), "")
		case "topic":
			err = d.Topics.PublishFromService(dest.arn, s3Principal, source, owner, notificationSubject, string(test))
		case "function":
			parts := strings.Split(dest.arn, ":")
			if len(parts) < 7 {
				err = fmt.Errorf("not a function ARN")
				break
			}
			exists, allowed := d.Functions.MayInvoke(core.Scope{Account: parts[4], Region: parts[3]}, dest.arn, s3Principal, source)
			if !exists || !allowed {
				err = fmt.Errorf("function missing or not invokable")
			}
		}
		if err != nil {
			return core.Errorf("InvalidArgument", "Unable to validate the following destination configurations")
		}
	}
	return nil
}

// pendingEvent is an event S3 publishes once the request that caused it has let the backend's
// lock go.
type pendingEvent struct {
	record       map[string]any
	dests        []destination
	bucket, from string // the bucket's name and owner
}

// notify records, for delivery after the request, an event (such as "s3:ObjectCreated:Put") of
// the object key of bucket bk when one of its notification configurations takes it. The caller
// holds b.mu.
func (b *Backend) notify(bk *bucket, event types.Event, key string, o *object, now time.Time) {
	if bk.notification == nil || b.destinations == nil {
		return
	}
	var dests []destination
	for _, d := range destinationsOf(bk.notification) {
		if d.kind != "function" && takes(d, event, key) {
			dests = append(dests, d)
		}
	}
	if len(dests) == 0 {
		return
	}
	b.seq++
	// Event records carry the key URL-encoded as an HTML form encodes it (a space as +).
	object := map[string]any{"key": url.QueryEscape(key), "sequencer": fmt.Sprintf("%016X", b.seq)}
	if o != nil {
		if !o.deleteMarker {
			object["size"], object["eTag"] = len(o.body), strings.Trim(o.etag, `"`)
		}
		if o.versionID != "" && o.versionID != "null" {
			object["versionId"] = o.versionID
		}
	}
	record := map[string]any{"eventVersion": "2.1", "eventSource": "aws:s3", "awsRegion": bk.region, "eventTime": eventTime(now),
		"eventName": strings.TrimPrefix(string(event), "s3:"), "userIdentity": map[string]string{"principalId": "AWS:" + bk.owner},
		"requestParameters": map[string]string{"sourceIPAddress": "127.0.0.1"},
		"responseElements":  map[string]string{"x-amz-request-id": core.NewUUID(), "x-amz-id-2": "emulator"},
		"s3": map[string]any{"s3SchemaVersion": "1.0", "bucket": map[string]any{"name": bk.name, "ownerIdentity": map[string]string{"principalId": bk.owner},
			"arn": "arn:aws:s3:::" + bk.name}, "object": object}}
	b.outbox = append(b.outbox, pendingEvent{record: record, dests: dests, bucket: bk.name, from: bk.owner})
}

// notifyRemoved records the event of a deletion of key (of its version requested, when one was):
// a delete marker created for a deletion that named no version, an object removed otherwise. The
// caller holds b.mu.
func (b *Backend) notifyRemoved(bk *bucket, key, requested string, marker bool, version string, now time.Time) {
	event := types.EventS3ObjectRemovedDelete
	if requested == "" && marker {
		event = types.EventS3ObjectRemovedDeleteMarkerCreated
	}
	b.notify(bk, event, key, &object{versionID: version, deleteMarker: true}, now)
}

// flush publishes the events the requests recorded, without b.mu held: each to the queues and
// topics of the configurations that took it, with the configuration's id. As on AWS, a delivery
// that fails is not reported to the request's caller; the state dump counts it.
func (b *Backend) flush() {
	b.mu.Lock()
	events := b.outbox
	b.outbox = nil
	b.mu.Unlock()
	for _, e := range events {
		for _, d := range e.dests {
			s3 := e.record["s3"].(map[string]any)
			record := map[string]any{}
			for k, v := range e.record {
				record[k] = v
			}
			withID := map[string]any{"configurationId": d.id}
			for k, v := range s3 {
				withID[k] = v
			}
			record["s3"] = withID
			body, _ := json.Marshal(map[string]any{"Records": []any{record}})
			source := "arn:aws:s3:::" + e.bucket
			var err error
			if d.kind == "queue" {
				err = b.destinations.Queues.DeliverFromService(d.arn, s3Principal, source, e.from, string(body), "")
			} else {
				err = b.destinations.Topics.PublishFromService(d.arn, s3Principal, source, e.from, notificationSubject, string(body))
			}
			if err != nil {
				b.mu.Lock()
				b.undelivered[d.arn+": "+err.Error()]++
				b.mu.Unlock()
			}
		}
	}
}

// takes reports whether the configuration d takes the event of key: one of its events is the
// event or its family's wildcard (s3:ObjectCreated:*), and the key has the prefix and suffix
// its filter names.
func takes(d destination, event types.Event, key string) bool {
	matched := false
	for _, e := range d.events {
		if e == event || strings.HasSuffix(string(e), ":*") && strings.HasPrefix(string(event), strings.TrimSuffix(string(e), "*")) {
			matched = true
		}
	}
	if !matched {
		return false
	}
	if d.filter == nil || d.filter.Key == nil {
		return true
	}
	for _, r := range d.filter.Key.FilterRules {
		v := aws.ToString(r.Value)
		switch strings.ToLower(string(r.Name)) {
		case "prefix":
			if !strings.HasPrefix(key, v) {
				return false
			}
		case "suffix":
			if !strings.HasSuffix(key, v) {
				return false
			}
		}
	}
	return true
}

// eventTime writes a time as S3's event records do.
func eventTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
