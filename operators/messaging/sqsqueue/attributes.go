package sqsqueue

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/attributes"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/queuepolicy"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// Attribute names, as SQS spells them.
const (
	attrPolicy             = "Policy"
	attrRedrivePolicy      = "RedrivePolicy"
	attrRedriveAllowPolicy = "RedriveAllowPolicy"
	attrKMSKey             = "KmsMasterKeyId"
	attrManagedSSE         = "SqsManagedSseEnabled"
	attrQueueARN           = "QueueArn"
	attrMessages           = "ApproximateNumberOfMessages"
)

// jsonAttributes are the attributes whose values are JSON documents, compared by meaning.
var jsonAttributes = map[string]bool{attrRedrivePolicy: true, attrRedriveAllowPolicy: true}

// desiredAttributes returns the attributes the spec manages, except the policy, as SQS spells
// them. An empty value removes the attribute (no dead-letter queue, no KMS key).
func desiredAttributes(s *v1alpha1.SQSQueueSpec) map[string]string {
	out := map[string]string{}
	setInt := func(name string, v *int32) {
		if v != nil {
			out[name] = strconv.Itoa(int(*v))
		}
	}
	setInt("MessageRetentionPeriod", s.MessageRetentionPeriod)
	setInt("VisibilityTimeout", s.VisibilityTimeout)
	setInt("DelaySeconds", s.DelaySeconds)
	setInt("MaximumMessageSize", s.MaximumMessageSize)
	setInt("ReceiveMessageWaitTimeSeconds", s.ReceiveWaitTimeSeconds)
	if s.ContentBasedDeduplication != nil {
		out["ContentBasedDeduplication"] = strconv.FormatBool(*s.ContentBasedDeduplication)
	}
	if s.DeduplicationScope != "" {
		out["DeduplicationScope"] = s.DeduplicationScope
	}
	if s.FifoThroughputLimit != "" {
		out["FifoThroughputLimit"] = s.FifoThroughputLimit
	}
	out[attrRedrivePolicy] = ""
	if dlq := s.DeadLetterQueue; dlq != nil {
		out[attrRedrivePolicy] = attributes.JSON(map[string]any{"deadLetterTargetArn": dlq.QueueARN, "maxReceiveCount": dlq.MaxReceiveCount})
	}
	out[attrRedriveAllowPolicy] = ""
	if p := s.RedriveAllowPolicy; p != nil {
		doc := map[string]any{"redrivePermission": p.RedrivePermission}
		if len(p.SourceQueueARNs) > 0 {
			doc["sourceQueueArns"] = p.SourceQueueARNs
		}
		out[attrRedriveAllowPolicy] = attributes.JSON(doc)
	}
	if e := s.Encryption; e != nil {
		switch {
		case e.Enabled && e.KMSKeyID != "":
			out[attrKMSKey] = e.KMSKeyID
			setInt("KmsDataKeyReusePeriodSeconds", e.DataKeyReusePeriodSeconds)
		default:
			out[attrKMSKey] = ""
			out[attrManagedSSE] = strconv.FormatBool(e.Enabled)
		}
	}
	return out
}

// createAttributes returns the attributes of CreateQueue: the desired ones that are set, the
// queue type and the user's policy.
func createAttributes(s *v1alpha1.SQSQueueSpec) map[string]string {
	out := attributes.NonEmpty(desiredAttributes(s))
	if s.FifoQueue {
		out["FifoQueue"] = "true"
	}
	if s.Policy != "" {
		user, _ := policy.Parse(s.Policy) // Validated before any AWS call.
		out[attrPolicy] = user.String()
	}
	return out
}

// attributeChanges returns the attributes to set so the queue matches the spec: the desired
// attributes that differ, and the policy when the user's statements differ (the statements
// SNSTopics and S3Buckets keep in it stay, each exactly as the operator writes it for this queue, whose ARN
// observed holds: any other statement under their Sid prefix, added or widened outside the
// operator, is a difference like any other).
func attributeChanges(s *v1alpha1.SQSQueueSpec, observed map[string]string) (map[string]string, error) {
	out := attributes.Changes(desiredAttributes(s), observed, sameValue)
	user, err := policy.Parse(s.Policy)
	if err != nil {
		return nil, fmt.Errorf("spec.policy: %w", err)
	}
	have, err := policy.Parse(observed[attrPolicy])
	if err != nil {
		// A policy that is not JSON cannot hold topic statements: replace it.
		have = policy.Document{}
	}
	queueARN := observed[attrQueueARN]
	granted := append(have.Granted(policy.SNSSend, queueARN), have.Granted(policy.S3Send, queueARN)...)
	if want := policy.Merge(user, queuepolicy.SidPrefix, granted); !policy.Equal(want, have) {
		out[attrPolicy] = want.String()
	}
	return out, nil
}

// sameValue reports whether an attribute's observed value is the wanted one; JSON documents
// are compared by meaning, with numbers and numeric strings alike (AWS returns
// maxReceiveCount as a number, some tools as a string).
func sameValue(name, want, got string) bool {
	if !jsonAttributes[name] || want == "" || got == "" {
		return want == got
	}
	return reflect.DeepEqual(normalJSON(want), normalJSON(got))
}

// normalJSON decodes a JSON document with every number and boolean turned into its text.
func normalJSON(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return s
	}
	return normalValue(v)
}

// normalValue turns every number and boolean inside a decoded JSON value into its text.
func normalValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalValue(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = normalValue(e)
		}
		return x
	case float64, bool:
		return fmt.Sprint(x)
	}
	return v
}
