package snstopic

import (
	"strconv"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/attributes"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// jsonAttributes are the topic attributes whose values are JSON documents, compared by
// meaning.
var jsonAttributes = map[string]bool{"Policy": true, "DeliveryPolicy": true}

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
	out := attributes.NonEmpty(desiredTopicAttributes(s))
	if s.FifoTopic {
		out["FifoTopic"] = "true"
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
	return attributes.EqualJSON(want, got)
}

// withGrants returns desired with the spec's policy, when it sets one, merged with the
// statements S3Buckets keep in the policy of the topic st describes, each exactly as the
// operator writes it (policy.S3Publish): any other statement under their Sid prefix is a
// difference like any other.
func withGrants(desired map[string]string, st *State) map[string]string {
	spec, ok := desired["Policy"]
	if !ok {
		return desired
	}
	have, err := policy.Parse(st.Attributes["Policy"])
	if err != nil {
		return desired
	}
	granted := have.Granted(policy.S3Publish, st.ARN)
	if len(granted) == 0 {
		return desired
	}
	user, _ := policy.Parse(spec) // Validated before any AWS call.
	desired["Policy"] = policy.Merge(user, policy.S3SidPrefix, granted).String()
	return desired
}
