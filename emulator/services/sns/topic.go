package sns

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// topic is one SNS topic.
type topic struct {
	arn, owner     string
	fifo           bool
	attrs          map[string]string
	dedup          map[string]bool
	dataProtection string // the data protection policy, "" for none
}

func (t *topic) value(name string) string {
	if name == "FifoTopic" {
		return strconv.FormatBool(t.fifo)
	}
	return t.attrs[name]
}

// topicAttributes returns what GetTopicAttributes reports. The caller holds b.mu.
func (b *Backend) topicAttributes(t *topic) map[string]string {
	out := map[string]string{
		"TopicArn":                t.arn,
		"Owner":                   t.owner,
		"DisplayName":             t.attrs["DisplayName"],
		"SubscriptionsDeleted":    "0",
		"EffectiveDeliveryPolicy": `{"http":{"defaultHealthyRetryPolicy":{"minDelayTarget":20,"maxDelayTarget":20,"numRetries":3,"numMaxDelayRetries":0,"numNoDelayRetries":0,"numMinDelayRetries":0,"backoffFunction":"linear"},"disableSubscriptionOverrides":false,"defaultRequestPolicy":{"headerContentType":"text/plain; charset=UTF-8"}}}`,
		"Policy":                  defaultTopicPolicy(t),
	}
	for k, v := range t.attrs {
		out[k] = v
	}
	if t.fifo {
		out["FifoTopic"] = "true"
		if _, ok := out["ContentBasedDeduplication"]; !ok {
			out["ContentBasedDeduplication"] = "false"
		}
	}
	confirmed, pending := 0, 0
	for _, s := range b.subs {
		if s.topicARN != t.arn {
			continue
		}
		if s.confirmed {
			confirmed++
		} else {
			pending++
		}
	}
	out["SubscriptionsConfirmed"] = strconv.Itoa(confirmed)
	out["SubscriptionsPending"] = strconv.Itoa(pending)
	return out
}

// defaultTopicPolicy is the policy AWS gives a new topic: its owner may use it.
func defaultTopicPolicy(t *topic) string {
	b, _ := json.Marshal(map[string]any{
		"Version": "2008-10-17",
		"Id":      "__default_policy_ID",
		"Statement": []map[string]any{{
			"Sid": "__default_statement_ID", "Effect": "Allow",
			"Principal": map[string]string{"AWS": "*"},
			"Action":    []string{"SNS:GetTopicAttributes", "SNS:SetTopicAttributes", "SNS:AddPermission", "SNS:RemovePermission", "SNS:DeleteTopic", "SNS:Subscribe", "SNS:ListSubscriptionsByTopic", "SNS:Publish"},
			"Resource":  t.arn,
			"Condition": map[string]any{"StringEquals": map[string]string{"AWS:SourceOwner": t.owner}},
		}},
	})
	return string(b)
}

func maxLen(v string, n int) error {
	if len(v) > n {
		return fmt.Errorf("must be at most %d characters", n)
	}
	return nil
}

func oneOf(v string, values ...string) error {
	for _, ok := range values {
		if v == ok {
			return nil
		}
	}
	return fmt.Errorf("must be one of %v", values)
}

func jsonObject(v string) error {
	var m map[string]any
	if err := json.Unmarshal([]byte(v), &m); err != nil {
		return fmt.Errorf("must be a JSON object")
	}
	return nil
}
