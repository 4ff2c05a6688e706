package snstopic

import (
	"encoding/json"
	"maps"
	"reflect"
	"strconv"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// jsonAttributes are the topic and subscription attributes whose values are JSON documents,
// compared by meaning.
var jsonAttributes = map[string]bool{"Policy": true, "DeliveryPolicy": true, "FilterPolicy": true, "RedrivePolicy": true}

// desiredTopicAttributes returns the topic attributes the spec manages, as SNS spells them;
// an empty value removes the attribute (encryption turned off).
func desiredTopicAttributes(s *v1alpha1.SNSTopicSpec) map[string]string {
	out := map[string]string{}
	if s.DisplayName != "" {
		out["DisplayName"] = s.DisplayName
	}
	if s.Policy != "" {
		out["Policy"] = s.Policy
	}
	if s.DeliveryPolicy != "" {
		out["DeliveryPolicy"] = s.DeliveryPolicy
	}
	if e := s.Encryption; e != nil {
		out["KmsMasterKeyId"] = e.KMSKeyID
	}
	if s.ContentBasedDeduplication != nil {
		out["ContentBasedDeduplication"] = strconv.FormatBool(*s.ContentBasedDeduplication)
	}
	if s.FifoThroughputScope != "" {
		out["FifoThroughputScope"] = s.FifoThroughputScope
	}
	return out
}

// createTopicAttributes returns the attributes of CreateTopic: the desired ones that are set,
// and the topic type.
func createTopicAttributes(s *v1alpha1.SNSTopicSpec) map[string]string {
	out := nonEmpty(desiredTopicAttributes(s))
	if s.FifoTopic {
		out["FifoTopic"] = "true"
	}
	return out
}

// rawDeliveryProtocols are the protocols that have the RawMessageDelivery attribute.
var rawDeliveryProtocols = map[string]bool{"sqs": true, "http": true, "https": true, "firehose": true}

// desiredSubscriptionAttributes returns the subscription attributes the spec manages: raw
// delivery (false unless set, where the protocol has it), the filter policy and the redrive
// policy (removed unless set), the filter scope with a filter policy, and the delivery policy
// when set.
func desiredSubscriptionAttributes(sub *v1alpha1.SNSSubscription) map[string]string {
	out := map[string]string{"FilterPolicy": sub.FilterPolicy, "RedrivePolicy": ""}
	if rawDeliveryProtocols[sub.Protocol] {
		out["RawMessageDelivery"] = strconv.FormatBool(sub.RawMessageDelivery != nil && *sub.RawMessageDelivery)
	}
	if sub.FilterPolicy != "" {
		out["FilterPolicyScope"] = sub.FilterPolicyScope
		if sub.FilterPolicyScope == "" {
			out["FilterPolicyScope"] = "MessageAttributes"
		}
	}
	if rp := sub.RedrivePolicy; rp != nil {
		b, _ := json.Marshal(map[string]string{"deadLetterTargetArn": rp.DeadLetterQueueARN}) // Strings always encode.
		out["RedrivePolicy"] = string(b)
	}
	if sub.DeliveryPolicy != "" {
		out["DeliveryPolicy"] = sub.DeliveryPolicy
	}
	return out
}

// attributeChanges returns the wanted attributes whose observed values differ.
func attributeChanges(want, observed map[string]string) map[string]string {
	out := map[string]string{}
	for name, v := range want {
		if !sameValue(name, v, observed[name]) {
			out[name] = v
		}
	}
	return out
}

// sameValue reports whether an attribute's observed value is the wanted one, comparing JSON
// documents by meaning.
func sameValue(name, want, got string) bool {
	if !jsonAttributes[name] || want == "" || got == "" {
		return want == got
	}
	if name == "Policy" {
		return policy.Equivalent(want, got)
	}
	var w, g any
	if json.Unmarshal([]byte(want), &w) != nil || json.Unmarshal([]byte(got), &g) != nil {
		return want == got
	}
	return reflect.DeepEqual(w, g)
}

// nonEmpty returns a copy of attrs without empty values.
func nonEmpty(attrs map[string]string) map[string]string {
	out := maps.Clone(attrs)
	maps.DeleteFunc(out, func(_, v string) bool { return v == "" })
	return out
}
