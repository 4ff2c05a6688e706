package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Sid prefixes of the statements objects keep in policies other objects own.
const (
	// SNSSidPrefix starts the Sid of the statement an SNSTopic keeps in a queue's policy.
	SNSSidPrefix = ReservedSidPrefix + "SNS"
	// CloudFrontSidPrefix starts the Sid of the statement a CloudFrontDistribution keeps in a
	// bucket's policy.
	CloudFrontSidPrefix = ReservedSidPrefix + "CloudFront"
	// S3SidPrefix starts the Sid of the statement an S3Bucket keeps in the policy of each queue
	// and topic its event notifications go to.
	S3SidPrefix = ReservedSidPrefix + "S3"
	// LogDeliverySidPrefix starts the Sid of the statement an S3Bucket keeps in the policy of
	// the bucket its server access logs go to.
	LogDeliverySidPrefix = ReservedSidPrefix + "Logging"
)

// A Grant is one kind of statement that objects keep in a policy another object owns, under
// ReservedSidPrefix: the owner of the policy keeps such a statement only when it is exactly
// what the operator writes (see Document.Granted), so that a statement added by hand under the
// reserved prefix is drift like any other, not a way around the owner's spec.
type Grant struct {
	// SidPrefix starts the Sid of every statement of the kind.
	SidPrefix string
	// rebuild returns the statement the writer that st names would write into the policy of
	// the resource with ARN resource, or nil when st names no writer.
	rebuild func(st map[string]any, resource string) map[string]any
}

// SNSSend is the statement an SNSTopic keeps in the policy of each SQS queue it subscribes.
var SNSSend = Grant{SidPrefix: SNSSidPrefix, rebuild: func(st map[string]any, queueARN string) map[string]any {
	if topic := conditionValue(st, "ArnEquals", "aws:SourceArn"); topic != "" {
		return SNSSendStatement(topic, queueARN)
	}
	return nil
}}

// CloudFrontRead is the statement a CloudFrontDistribution keeps in the policy of each S3
// bucket it serves.
var CloudFrontRead = Grant{SidPrefix: CloudFrontSidPrefix, rebuild: func(st map[string]any, bucketARN string) map[string]any {
	if arn := conditionValue(st, "StringEquals", "AWS:SourceArn"); arn != "" {
		return CloudFrontReadStatement(arn[strings.LastIndex(arn, "/")+1:], arn, bucketARN)
	}
	return nil
}}

// S3Send is the statement an S3Bucket keeps in the policy of each SQS queue its event
// notifications go to.
var S3Send = Grant{SidPrefix: S3SidPrefix, rebuild: func(st map[string]any, queueARN string) map[string]any {
	if bucket := conditionValue(st, "ArnEquals", "aws:SourceArn"); bucket != "" {
		return S3SendStatement(bucket, queueARN)
	}
	return nil
}}

// S3Publish is the statement an S3Bucket keeps in the policy of each SNS topic its event
// notifications go to.
var S3Publish = Grant{SidPrefix: S3SidPrefix, rebuild: func(st map[string]any, topicARN string) map[string]any {
	if bucket := conditionValue(st, "ArnEquals", "aws:SourceArn"); bucket != "" {
		return S3PublishStatement(bucket, topicARN)
	}
	return nil
}}

// LogDelivery is the statement an S3Bucket keeps in the policy of the bucket its server access
// logs go to.
var LogDelivery = Grant{SidPrefix: LogDeliverySidPrefix, rebuild: func(st map[string]any, targetARN string) map[string]any {
	source, account := conditionValue(st, "ArnLike", "aws:SourceArn"), conditionValue(st, "StringEquals", "aws:SourceAccount")
	prefix, ok := strings.CutPrefix(single(st["Resource"]), targetARN+"/")
	if source == "" || account == "" || !ok || !strings.HasSuffix(prefix, "*") {
		return nil
	}
	return LogDeliveryStatement(source, account, targetARN, strings.TrimSuffix(prefix, "*"))
}}

// LogDeliverySid returns the Sid of the statement that lets the logging service write the
// server access logs of the bucket with sourceARN: the LogDelivery prefix and a digest of the
// source bucket's ARN.
func LogDeliverySid(sourceARN string) string {
	sum := sha256.Sum256([]byte(sourceARN))
	return LogDeliverySidPrefix + hex.EncodeToString(sum[:8])
}

// LogDeliveryStatement returns the statement that lets the S3 logging service write the server
// access logs of the bucket with sourceARN, in account, under prefix of the bucket with
// targetARN, and nothing else: the bucket policy AWS documents for server access logging.
func LogDeliveryStatement(sourceARN, account, targetARN, prefix string) map[string]any {
	// Built as JSON values so that it compares equal to the same statement read back.
	return map[string]any{
		"Sid":       LogDeliverySid(sourceARN),
		"Effect":    "Allow",
		"Principal": map[string]any{"Service": "logging.s3.amazonaws.com"},
		"Action":    "s3:PutObject",
		"Resource":  targetARN + "/" + prefix + "*",
		"Condition": map[string]any{
			"ArnLike":      map[string]any{"aws:SourceArn": sourceARN},
			"StringEquals": map[string]any{"aws:SourceAccount": account},
		},
	}
}

// S3Sid returns the Sid of the statement that lets S3 deliver the events of the bucket with
// bucketARN to a queue, a topic or a function: the S3 prefix and a digest of the bucket's ARN.
func S3Sid(bucketARN string) string {
	sum := sha256.Sum256([]byte(bucketARN))
	return S3SidPrefix + hex.EncodeToString(sum[:8])
}

// S3SendStatement returns the statement that lets S3 send the events of the bucket with
// bucketARN to the SQS queue with queueARN, and nothing else.
func S3SendStatement(bucketARN, queueARN string) map[string]any {
	return s3Statement(bucketARN, "sqs:SendMessage", queueARN)
}

// S3PublishStatement returns the statement that lets S3 publish the events of the bucket with
// bucketARN to the SNS topic with topicARN, and nothing else.
func S3PublishStatement(bucketARN, topicARN string) map[string]any {
	return s3Statement(bucketARN, "sns:Publish", topicARN)
}

// s3Statement returns the statement that lets S3, for the bucket with bucketARN only, do
// action on resource.
func s3Statement(bucketARN, action, resource string) map[string]any {
	// Built as JSON values so that it compares equal to the same statement read back.
	return map[string]any{
		"Sid":       S3Sid(bucketARN),
		"Effect":    "Allow",
		"Principal": map[string]any{"Service": "s3.amazonaws.com"},
		"Action":    action,
		"Resource":  resource,
		"Condition": map[string]any{"ArnEquals": map[string]any{"aws:SourceArn": bucketARN}},
	}
}

// SNSSendSid returns the Sid of the statement that lets the topic with topicARN send to a
// queue: the SNSSend prefix and a digest of the topic's ARN.
func SNSSendSid(topicARN string) string {
	sum := sha256.Sum256([]byte(topicARN))
	return SNSSidPrefix + hex.EncodeToString(sum[:8])
}

// SNSSendStatement returns the statement that lets the SNS topic with topicARN send to the SQS
// queue with queueARN, and nothing else.
func SNSSendStatement(topicARN, queueARN string) map[string]any {
	// Built as JSON values so that it compares equal to the same statement read back.
	return map[string]any{
		"Sid":       SNSSendSid(topicARN),
		"Effect":    "Allow",
		"Principal": map[string]any{"Service": "sns.amazonaws.com"},
		"Action":    "sqs:SendMessage",
		"Resource":  queueARN,
		"Condition": map[string]any{"ArnEquals": map[string]any{"aws:SourceArn": topicARN}},
	}
}

// CloudFrontReadStatement returns the statement that lets the CloudFront distribution with id
// and distributionARN, through its origin access control, read the objects of the S3 bucket
// with bucketARN, and nothing else: the statement AWS documents for origin access control.
func CloudFrontReadStatement(id, distributionARN, bucketARN string) map[string]any {
	// Built as JSON values so that it compares equal to the same statement read back.
	return map[string]any{
		"Sid":       CloudFrontSidPrefix + id,
		"Effect":    "Allow",
		"Principal": map[string]any{"Service": "cloudfront.amazonaws.com"},
		"Action":    "s3:GetObject",
		"Resource":  bucketARN + "/*",
		"Condition": map[string]any{"StringEquals": map[string]any{"AWS:SourceArn": distributionARN}},
	}
}

// Granted returns the statements of d, the policy of the resource with ARN resource, that are
// g's statements exactly as the operator writes them into that resource's policy: each names
// its writer (the condition on the source ARN), and is the statement that writer would write,
// Sid, principal, action, resource and condition alike. Any other statement under
// ReservedSidPrefix (another kind's, one widened by hand, one with a Sid the operator never
// gives) is left out: the owner of the policy treats it as drift, removed under driftPolicy
// Enforce and reported under Report.
func (d Document) Granted(g Grant, resource string) []map[string]any {
	var out []map[string]any
	for _, st := range d.Statements {
		if !HasSidPrefix(st, g.SidPrefix) {
			continue
		}
		if want := g.rebuild(st, resource); want != nil && CanonicalStatement(want) == CanonicalStatement(st) {
			out = append(out, st)
		}
	}
	return out
}

// conditionValue returns the single string value of key under the condition operator op of
// st, or "" when st has no such value.
func conditionValue(st map[string]any, op, key string) string {
	cond, _ := st["Condition"].(map[string]any)
	values, _ := cond[op].(map[string]any)
	return single(values[key])
}

// single returns v when it is a string or a list of one string (as AWS may return a policy's
// values), and "" otherwise.
func single(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		if len(v) == 1 {
			s, _ := v[0].(string)
			return s
		}
	}
	return ""
}
