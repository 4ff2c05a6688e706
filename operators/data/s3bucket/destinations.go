package s3bucket

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	snstypes "github.com/aws/aws-sdk-go-v2/service/sns/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/lambdagrant"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// s3Principal is the service principal S3 delivers event notifications as.
const s3Principal = "s3.amazonaws.com"

// permissionsField names, in plans, the statements the bucket keeps in its destinations.
const permissionsField = "notificationPermissions"

// byNotification says, in messages, what names a notification's destination.
const byNotification = "a notification of the bucket"

// queueAPI is the part of the SQS API that reads and writes a queue's policy and reads its tags.
type queueAPI interface {
	GetQueueUrl(ctx context.Context, in *sqs.GetQueueUrlInput, opts ...func(*sqs.Options)) (*sqs.GetQueueUrlOutput, error)
	GetQueueAttributes(ctx context.Context, in *sqs.GetQueueAttributesInput, opts ...func(*sqs.Options)) (*sqs.GetQueueAttributesOutput, error)
	SetQueueAttributes(ctx context.Context, in *sqs.SetQueueAttributesInput, opts ...func(*sqs.Options)) (*sqs.SetQueueAttributesOutput, error)
	ListQueueTags(ctx context.Context, in *sqs.ListQueueTagsInput, opts ...func(*sqs.Options)) (*sqs.ListQueueTagsOutput, error)
}

// topicAPI is the part of the SNS API that reads and writes a topic's policy and reads its tags.
type topicAPI interface {
	GetTopicAttributes(ctx context.Context, in *sns.GetTopicAttributesInput, opts ...func(*sns.Options)) (*sns.GetTopicAttributesOutput, error)
	SetTopicAttributes(ctx context.Context, in *sns.SetTopicAttributesInput, opts ...func(*sns.Options)) (*sns.SetTopicAttributesOutput, error)
	ListTagsForResource(ctx context.Context, in *sns.ListTagsForResourceInput, opts ...func(*sns.Options)) (*sns.ListTagsForResourceOutput, error)
}

var (
	_ queueAPI = (*sqs.Client)(nil)
	_ topicAPI = (*sns.Client)(nil)
)

// holder is a queue or a topic whose policy holds the statement that lets S3 deliver a bucket's
// events to it.
type holder struct {
	// what names the resource in messages, for example "SQS queue".
	what, arn string
	// by says, in messages, what names the resource, for example "a notification of the bucket".
	by string
	// field names, in plans, the writes of the statement.
	field string
	// statement is the bucket's statement.
	statement map[string]any
	// read returns the resource's policy; found is false when the resource does not exist, and
	// readable false when the credentials may not read it (another account's).
	read func(ctx context.Context) (doc policy.Document, found, readable bool, err error)
	// write replaces the resource's policy.
	write func(ctx context.Context, doc policy.Document) error
	// tags returns the resource's tags.
	tags func(ctx context.Context) (map[string]string, error)
}

// holderOf returns the holder of the policy of the queue or topic n notifies, for the bucket
// with bucketARN.
func (d *driver) holderOf(n notification, bucketARN string) holder {
	if n.Kind == kindTopic {
		return d.topicHolder(n.ARN, bucketARN)
	}
	return d.queueHolder(n.ARN, bucketARN)
}

// queueHolder returns the holder of the policy of the queue with queueARN: its URL is found
// with GetQueueUrl (by name and account), its policy read with GetQueueAttributes and written
// with SetQueueAttributes, its tags read with ListQueueTags.
func (d *driver) queueHolder(queueARN, bucketARN string) holder {
	var url *string
	locate := func(ctx context.Context) (found, readable bool, err error) {
		parts := strings.Split(queueARN, ":")
		out, err := d.sqs.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String(parts[len(parts)-1]), QueueOwnerAWSAccountId: aws.String(parts[4])})
		switch awserr.Classify(err) {
		case awserr.ClassNone:
			url = out.QueueUrl
			return true, true, nil
		case awserr.ClassNotFound:
			return false, true, nil
		case awserr.ClassAccessDenied:
			return true, false, nil
		}
		return false, false, fmt.Errorf("get the URL of queue %s: %w", queueARN, err)
	}
	return holder{what: "SQS queue", arn: queueARN, by: byNotification, field: permissionsField, statement: policy.S3SendStatement(bucketARN, queueARN),
		read: func(ctx context.Context) (policy.Document, bool, bool, error) {
			found, readable, err := locate(ctx)
			if !found || !readable || err != nil {
				return policy.Document{}, found, readable, err
			}
			out, err := d.sqs.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: url,
				AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNamePolicy}})
			if awserr.IsNotFound(err) {
				return policy.Document{}, false, true, nil
			}
			if err != nil {
				return policy.Document{}, false, false, fmt.Errorf("get the policy of queue %s: %w", queueARN, err)
			}
			// A policy that is not JSON lets nobody send; the statement replaces it.
			doc, _ := policy.Parse(out.Attributes[string(sqstypes.QueueAttributeNamePolicy)])
			return doc, true, true, nil
		},
		write: func(ctx context.Context, doc policy.Document) error {
			_, err := d.sqs.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: url,
				Attributes: map[string]string{string(sqstypes.QueueAttributeNamePolicy): doc.String()}})
			return managed.Wrap(err, "set the policy of queue %s", queueARN)
		},
		tags: func(ctx context.Context) (map[string]string, error) {
			out, err := d.sqs.ListQueueTags(ctx, &sqs.ListQueueTagsInput{QueueUrl: url})
			if err != nil {
				return nil, fmt.Errorf("list the tags of queue %s: %w", queueARN, err)
			}
			return out.Tags, nil
		},
	}
}

// topicHolder returns the holder of the policy of the topic with topicARN: read with
// GetTopicAttributes, written with SetTopicAttributes, its tags read with ListTagsForResource.
func (d *driver) topicHolder(topicARN, bucketARN string) holder {
	return holder{what: "SNS topic", arn: topicARN, by: byNotification, field: permissionsField, statement: policy.S3PublishStatement(bucketARN, topicARN),
		read: func(ctx context.Context) (policy.Document, bool, bool, error) {
			out, err := d.sns.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: aws.String(topicARN)})
			switch awserr.Classify(err) {
			case awserr.ClassNone:
				doc, _ := policy.Parse(out.Attributes["Policy"])
				return doc, true, true, nil
			case awserr.ClassNotFound:
				return policy.Document{}, false, true, nil
			case awserr.ClassAccessDenied:
				return policy.Document{}, true, false, nil
			}
			return policy.Document{}, false, false, fmt.Errorf("get the policy of topic %s: %w", topicARN, err)
		},
		write: func(ctx context.Context, doc policy.Document) error {
			_, err := d.sns.SetTopicAttributes(ctx, &sns.SetTopicAttributesInput{TopicArn: aws.String(topicARN),
				AttributeName: aws.String("Policy"), AttributeValue: aws.String(doc.String())})
			return managed.Wrap(err, "set the policy of topic %s", topicARN)
		},
		tags: func(ctx context.Context) (map[string]string, error) {
			out, err := d.sns.ListTagsForResource(ctx, &sns.ListTagsForResourceInput{ResourceArn: aws.String(topicARN)})
			if err != nil {
				return nil, fmt.Errorf("list the tags of topic %s: %w", topicARN, err)
			}
			return managed.TagMap(out.Tags, func(t snstypes.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) }), nil
		},
	}
}

// grant plans adding the bucket's statement to h's policy when the policy, read now, lacks it.
// It refuses, before anything is written, a resource no object of b's namespace made
// (managed.CheckForeignWrite on its tags), and waits for one that does not exist. A resource
// the credentials may not read (another account's) is its owner's to open to S3: S3 checks
// when the configuration is put.
func grant(ctx context.Context, p *managed.Plan, b *v1alpha1.S3Bucket, h holder) error {
	doc, found, readable, err := h.read(ctx)
	switch {
	case err != nil:
		return err
	case !found:
		return managed.Waiting(condition.ReasonNotFoundInAWS, "the %s %s that %s names does not exist", h.what, h.arn, h.by)
	case !readable || doc.Has(h.statement):
		return nil
	}
	if err := mayWrite(ctx, b, h); err != nil {
		return err
	}
	p.Add(h.field, func(ctx context.Context) error {
		// Read again, so that what the resource's owner wrote since stays.
		doc, found, _, err := h.read(ctx)
		if err != nil || !found {
			return err
		}
		return h.write(ctx, doc.With(h.statement))
	})
	return nil
}

// revoke removes the bucket's statement from h's policy, when the resource exists and has it;
// a resource no object of b's namespace made is not written to (managed.CheckForeignWrite).
func revoke(ctx context.Context, b *v1alpha1.S3Bucket, h holder) error {
	doc, found, readable, err := h.read(ctx)
	if err != nil || !found || !readable {
		return err
	}
	sid, _ := h.statement["Sid"].(string)
	without := doc.Without(sid)
	if len(without.Statements) == len(doc.Statements) {
		return nil
	}
	if err := mayWrite(ctx, b, h); err != nil {
		return err
	}
	err = h.write(ctx, without)
	if awserr.IsNotFound(err) {
		return nil
	}
	return err
}

// mayWrite returns nil when b may write into h's policy: h's ownership tags name b's namespace,
// or the administrator lets the namespace write into resources it does not own.
func mayWrite(ctx context.Context, b *v1alpha1.S3Bucket, h holder) error {
	tags, err := h.tags(ctx)
	if err != nil {
		return err
	}
	return managed.CheckForeignWrite(ctx, b, h.what, h.arn, tags)
}

// invoker returns what writes the statements that let S3 invoke functions for the bucket.
func (d *driver) invoker(bucket string) lambdagrant.Invoker {
	return lambdagrant.Invoker{API: d.lambda, Principal: s3Principal, Name: "the event notifications of bucket " + bucket}
}

// functionGrants returns the statements the functions of ns need, one per function.
func functionGrants(ns []notification, bucketARN string) []lambdagrant.Grant {
	var out []lambdagrant.Grant
	for _, n := range ns {
		g := lambdagrant.Grant{Function: n.ARN, StatementID: policy.S3Sid(bucketARN), SourceARN: bucketARN}
		if n.Kind == kindFunction && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}

// destinations returns the distinct queues and topics of ns.
func destinations(ns []notification) []notification {
	var out []notification
	for _, n := range ns {
		if n.Kind != kindFunction && !slices.ContainsFunc(out, func(o notification) bool { return o.Kind == n.Kind && o.ARN == n.ARN }) {
			out = append(out, n)
		}
	}
	return out
}

// grantAll plans the statements the destinations of want need: one in the policy of each queue
// and topic, one permission of each function (lambdagrant, which makes the same foreign-write
// check).
func (d *driver) grantAll(ctx context.Context, p *managed.Plan, b *v1alpha1.S3Bucket, bucketARN string, want []notification) error {
	for _, n := range destinations(want) {
		if err := grant(ctx, p, b, d.holderOf(n, bucketARN)); err != nil {
			return err
		}
	}
	if fns := functionGrants(want, bucketARN); len(fns) > 0 {
		_, err := d.invoker(b.Spec.BucketName).Plan(ctx, b, fns, nil, p, permissionsField, func(lambdagrant.Grant, bool) {})
		return err
	}
	return nil
}

// revokeGone plans removing the statements of the destinations that had (the bucket's current
// configurations) name and want does not, after the configuration no longer names them.
func (d *driver) revokeGone(ctx context.Context, p *managed.Plan, b *v1alpha1.S3Bucket, bucketARN string, want, had []notification) error {
	var gone []notification
	for _, n := range had {
		if !slices.ContainsFunc(want, func(w notification) bool { return w.Kind == n.Kind && w.ARN == n.ARN }) {
			gone = append(gone, n)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	for _, n := range destinations(gone) {
		h := d.holderOf(n, bucketARN)
		p.Add(permissionsField, func(ctx context.Context) error { return revoke(ctx, b, h) })
	}
	if fns := functionGrants(gone, bucketARN); len(fns) > 0 {
		_, err := d.invoker(b.Spec.BucketName).Plan(ctx, b, nil, fns, p, permissionsField, func(lambdagrant.Grant, bool) {})
		return err
	}
	return nil
}

// revokeAll removes the statements of every destination of had, when the bucket is deleted.
func (d *driver) revokeAll(ctx context.Context, b *v1alpha1.S3Bucket, bucketARN string, had []notification) error {
	for _, n := range destinations(had) {
		if err := revoke(ctx, b, d.holderOf(n, bucketARN)); err != nil {
			return err
		}
	}
	return d.invoker(b.Spec.BucketName).Revoke(ctx, functionGrants(had, bucketARN))
}
