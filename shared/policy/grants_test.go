package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGranted checks that a policy's owner keeps, under the reserved Sid prefix, only the
// statements the operator writes into that resource's policy, exactly as it writes them:
// anything else under the prefix (added by hand, widened, another resource's, another kind's)
// is left out, and so is drift.
func TestGranted(t *testing.T) {
	const (
		queue  = "arn:aws:sqs:us-east-1:123456789012:inbox"
		topic  = "arn:aws:sns:us-east-1:123456789012:events"
		bucket = "arn:aws:s3:::site"
		dist   = "arn:aws:cloudfront::123456789012:distribution/E1"
	)
	send := SNSSendStatement(topic, queue)
	read := CloudFrontReadStatement("E1", dist, bucket)
	with := func(st map[string]any, key string, value any) map[string]any {
		out := map[string]any{}
		for k, v := range st {
			out[k] = v
		}
		out[key] = value
		return out
	}
	cases := map[string]struct {
		reason   string
		grant    Grant
		resource string
		policy   Document
		want     []string
	}{
		"LogDeliveryKept": {
			reason: "The statement a bucket's logging writes into its target's policy is kept, in AWS's form too.",
			grant:  LogDelivery, resource: bucket,
			policy: mustParse(t, `{"Statement":[{"Sid":"`+LogDeliverySid("arn:aws:s3:::orders")+`","Effect":"Allow","Principal":{"Service":["logging.s3.amazonaws.com"]},`+
				`"Action":["s3:PutObject"],"Resource":["`+bucket+`/logs/*"],"Condition":{"ArnLike":{"aws:SourceArn":"arn:aws:s3:::orders"},`+
				`"StringEquals":{"aws:SourceAccount":["123456789012"]}}}]}`),
			want: []string{LogDeliverySid("arn:aws:s3:::orders")},
		},
		"LogDeliveryWidened": {
			reason: "A logging statement whose resource was widened beyond the target bucket is not the operator's.",
			grant:  LogDelivery, resource: bucket,
			policy: Document{Statements: []map[string]any{with(LogDeliveryStatement("arn:aws:s3:::orders", "123456789012", bucket, "logs/"), "Resource", "*")}},
		},
		"SNSStatementKept": {
			reason: "The statement a topic writes into a queue's policy is kept.",
			grant:  SNSSend, resource: queue, policy: Document{Statements: []map[string]any{send}},
			want: []string{SNSSendSid(topic)},
		},
		"SNSStatementReadBack": {
			reason: "The same statement in AWS's form (lists of one, another key order) is kept.",
			grant:  SNSSend, resource: queue,
			policy: mustParse(t, `{"Statement":[{"Condition":{"ArnEquals":{"aws:SourceArn":["`+topic+`"]}},"Resource":["`+queue+`"],`+
				`"Action":["sqs:SendMessage"],"Principal":{"Service":["sns.amazonaws.com"]},"Effect":"Allow","Sid":"`+SNSSendSid(topic)+`"}]}`),
			want: []string{SNSSendSid(topic)},
		},
		"SNSWidenedPrincipal": {
			reason: "A topic's statement whose principal was widened to anyone is not the operator's.",
			grant:  SNSSend, resource: queue, policy: Document{Statements: []map[string]any{with(send, "Principal", "*")}},
		},
		"SNSWidenedAction": {
			reason: "A topic's statement whose action was widened is not the operator's.",
			grant:  SNSSend, resource: queue, policy: Document{Statements: []map[string]any{with(send, "Action", "sqs:*")}},
		},
		"SNSNoCondition": {
			reason: "A statement under the prefix that names no topic is not the operator's.",
			grant:  SNSSend, resource: queue, policy: Document{Statements: []map[string]any{with(send, "Condition", nil)}},
		},
		"SNSWrongSid": {
			reason: "A statement whose Sid is not the one its topic gets is not the operator's.",
			grant:  SNSSend, resource: queue, policy: Document{Statements: []map[string]any{with(send, "Sid", SNSSidPrefix+"0000")}},
		},
		"SNSOtherQueue": {
			reason: "A statement written for another queue is not this queue's grant.",
			grant:  SNSSend, resource: "arn:aws:sqs:us-east-1:123456789012:other", policy: Document{Statements: []map[string]any{send}},
		},
		"HandAddedReservedSid": {
			reason: "A statement added by hand under the reserved prefix, allowing anyone, is not kept.",
			grant:  CloudFrontRead, resource: bucket,
			policy: Document{Statements: []map[string]any{{"Sid": "InfraOperatorX", "Effect": "Allow", "Principal": "*", "Action": "s3:*", "Resource": bucket + "/*"}}},
		},
		"CloudFrontStatementKept": {
			reason: "The statement a distribution writes into a bucket's policy is kept, beside the owner's own statements.",
			grant:  CloudFrontRead, resource: bucket,
			policy: Document{Statements: []map[string]any{{"Sid": "Own", "Effect": "Deny", "Principal": "*", "Action": "s3:DeleteObject", "Resource": bucket + "/*"}, read}},
			want:   []string{CloudFrontSidPrefix + "E1"},
		},
		"CloudFrontOtherDistributionSid": {
			reason: "A distribution's statement under another distribution's Sid is not the operator's.",
			grant:  CloudFrontRead, resource: bucket, policy: Document{Statements: []map[string]any{with(read, "Sid", CloudFrontSidPrefix+"E2")}},
		},
		"S3SendKept": {
			reason: "The statement a bucket writes into a queue's policy is kept.",
			grant:  S3Send, resource: queue, policy: Document{Statements: []map[string]any{S3SendStatement(bucket, queue)}},
			want: []string{S3Sid(bucket)},
		},
		"S3PublishKept": {
			reason: "The statement a bucket writes into a topic's policy is kept.",
			grant:  S3Publish, resource: topic, policy: Document{Statements: []map[string]any{S3PublishStatement(bucket, topic)}},
			want: []string{S3Sid(bucket)},
		},
		"S3SendWidenedSource": {
			reason: "A bucket's statement whose source was widened to every bucket is not the operator's.",
			grant:  S3Send, resource: queue, policy: Document{Statements: []map[string]any{with(S3SendStatement(bucket, queue), "Condition",
				map[string]any{"ArnLike": map[string]any{"aws:SourceArn": "arn:aws:s3:::*"}})}},
		},
		"S3PublishInQueue": {
			reason: "A topic's statement of a bucket is not one a queue's owner keeps.",
			grant:  S3Send, resource: queue, policy: Document{Statements: []map[string]any{S3PublishStatement(bucket, queue)}},
		},
		"CloudFrontStatementInQueue": {
			reason: "A distribution's statement is not one a queue's owner keeps.",
			grant:  SNSSend, resource: queue, policy: Document{Statements: []map[string]any{read}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, st := range tc.policy.Granted(tc.grant, tc.resource) {
				sid, _ := st["Sid"].(string)
				got = append(got, sid)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
