package sqs

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// attribute describes one settable queue attribute: its default and how AWS validates it.
type attribute struct {
	def      string
	fifoOnly bool
	validate func(string) error
}

func intRange(lo, hi int) func(string) error {
	return func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("must be an integer from %d to %d", lo, hi)
		}
		return nil
	}
}

func oneOf(values ...string) func(string) error {
	return func(v string) error {
		for _, ok := range values {
			if v == ok {
				return nil
			}
		}
		return fmt.Errorf("must be one of %s", strings.Join(values, ", "))
	}
}

func jsonObject(v string) error {
	var m map[string]any
	if err := json.Unmarshal([]byte(v), &m); err != nil {
		return fmt.Errorf("must be a JSON object")
	}
	return nil
}

func anyValue(string) error { return nil }

// removable are the attributes SetQueueAttributes removes when given an empty value, as AWS
// does: the queue then has no policy, dead-letter queue, redrive allow policy or KMS key.
var removable = map[string]bool{"Policy": true, "RedrivePolicy": true, "RedriveAllowPolicy": true, "KmsMasterKeyId": true}

// settable lists the attributes CreateQueue and SetQueueAttributes accept, with AWS's ranges.
var settable = map[string]attribute{
	"DelaySeconds":                  {def: "0", validate: intRange(0, 900)},
	"MaximumMessageSize":            {def: "1048576", validate: intRange(1024, 1048576)},
	"MessageRetentionPeriod":        {def: "345600", validate: intRange(60, 1209600)},
	"ReceiveMessageWaitTimeSeconds": {def: "0", validate: intRange(0, 20)},
	"VisibilityTimeout":             {def: "30", validate: intRange(0, 43200)},
	"Policy":                        {validate: jsonObject},
	"RedrivePolicy":                 {validate: validateRedrivePolicy},
	"RedriveAllowPolicy":            {validate: validateRedriveAllowPolicy},
	"KmsMasterKeyId":                {validate: anyValue},
	"KmsDataKeyReusePeriodSeconds":  {def: "300", validate: intRange(60, 86400)},
	"SqsManagedSseEnabled":          {def: "true", validate: oneOf("true", "false")},
	"FifoQueue":                     {validate: oneOf("true", "false")},
	"ContentBasedDeduplication":     {fifoOnly: true, def: "false", validate: oneOf("true", "false")},
	"DeduplicationScope":            {fifoOnly: true, def: "queue", validate: oneOf("messageGroup", "queue")},
	"FifoThroughputLimit":           {fifoOnly: true, def: "perQueue", validate: oneOf("perQueue", "perMessageGroupId")},
}

// redrivePolicy is the RedrivePolicy attribute; maxReceiveCount is a number, as AWS returns it.
type redrivePolicy struct {
	DeadLetterTargetArn string `json:"deadLetterTargetArn"`
	MaxReceiveCount     int    `json:"maxReceiveCount"`
}

func parseRedrivePolicy(v string) (redrivePolicy, error) {
	var raw map[string]any
	if err := json.Unmarshal([]byte(v), &raw); err != nil {
		return redrivePolicy{}, fmt.Errorf("must be a JSON object")
	}
	arn, _ := raw["deadLetterTargetArn"].(string)
	if !strings.HasPrefix(arn, "arn:") {
		return redrivePolicy{}, fmt.Errorf("deadLetterTargetArn must be a queue ARN")
	}
	var count int
	switch c := raw["maxReceiveCount"].(type) {
	case float64:
		count = int(c)
	case string:
		n, err := strconv.Atoi(c)
		if err != nil {
			return redrivePolicy{}, fmt.Errorf("maxReceiveCount must be a number")
		}
		count = n
	}
	if count < 1 || count > 1000 {
		return redrivePolicy{}, fmt.Errorf("maxReceiveCount must be from 1 to 1000")
	}
	return redrivePolicy{DeadLetterTargetArn: arn, MaxReceiveCount: count}, nil
}

// canonicalRedrivePolicy returns a valid RedrivePolicy as GetQueueAttributes reports it:
// {"deadLetterTargetArn":"…","maxReceiveCount":5}, with maxReceiveCount a JSON number whether
// SetQueueAttributes received a number or a string, as AWS returns it.
func canonicalRedrivePolicy(v string) string {
	p, err := parseRedrivePolicy(v)
	if err != nil {
		return v
	}
	b, _ := json.Marshal(p) // a struct of a string and an int always marshals
	return string(b)
}

// validateRedrivePolicy checks a RedrivePolicy attribute.
func validateRedrivePolicy(v string) error {
	_, err := parseRedrivePolicy(v)
	return err
}

func validateRedriveAllowPolicy(v string) error {
	var raw struct {
		RedrivePermission string   `json:"redrivePermission"`
		SourceQueueArns   []string `json:"sourceQueueArns"`
	}
	if err := json.Unmarshal([]byte(v), &raw); err != nil {
		return fmt.Errorf("must be a JSON object")
	}
	switch raw.RedrivePermission {
	case "allowAll", "denyAll":
	case "byQueue":
		if len(raw.SourceQueueArns) == 0 || len(raw.SourceQueueArns) > 10 {
			return fmt.Errorf("byQueue needs 1 to 10 sourceQueueArns")
		}
	default:
		return fmt.Errorf("redrivePermission must be allowAll, denyAll or byQueue")
	}
	return nil
}

// checkAttributes validates attributes as AWS does for a queue that is (or will be) FIFO; with
// removal, an empty value of a removable attribute is valid (SetQueueAttributes).
func checkAttributes(attrs map[string]string, fifo, removal bool) error {
	for name, value := range attrs {
		a, ok := settable[name]
		if !ok {
			return &core.APIError{Code: "InvalidAttributeName", Message: "Unknown Attribute " + name + "."}
		}
		if a.fifoOnly && !fifo {
			return &core.APIError{Code: "InvalidAttributeName", Message: "Unknown Attribute " + name + "."}
		}
		if removal && value == "" && removable[name] {
			continue
		}
		if err := a.validate(value); err != nil {
			return &core.APIError{Code: "InvalidAttributeValue",
				Message: fmt.Sprintf("Invalid value for the parameter %s: %v.", name, err)}
		}
	}
	return nil
}
