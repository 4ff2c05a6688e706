package sns

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns/types"
)

// validateFilterPolicy checks a filter policy's shape: an object whose leaves are arrays of
// strings, numbers or operator objects. The emulator evaluates exact values and the "exists"
// and "prefix" operators; a policy using another operator is refused rather than evaluated
// wrongly.
func validateFilterPolicy(v string) error {
	var policy map[string]any
	if err := json.Unmarshal([]byte(v), &policy); err != nil {
		return fmt.Errorf("must be a JSON object")
	}
	return validateConditions(policy)
}

func validateConditions(policy map[string]any) error {
	for key, cond := range policy {
		switch c := cond.(type) {
		case map[string]any:
			if err := validateConditions(c); err != nil {
				return err
			}
		case []any:
			for _, item := range c {
				if op, ok := item.(map[string]any); ok {
					for name := range op {
						if name != "exists" && name != "prefix" {
							return fmt.Errorf("the emulator does not evaluate the %q operator (key %s)", name, key)
						}
					}
				}
			}
		default:
			return fmt.Errorf("the value of %s must be an array", key)
		}
	}
	return nil
}

// matchesFilter reports whether a message passes a subscription's filter policy, evaluated on
// the message attributes or, with scope MessageBody, on the JSON body.
func matchesFilter(policy, scope, body string, attrs map[string]types.MessageAttributeValue) (bool, error) {
	if policy == "" {
		return true, nil
	}
	var p map[string]any
	if err := json.Unmarshal([]byte(policy), &p); err != nil {
		return false, fmt.Errorf("decode filter policy: %w", err)
	}
	if scope == "MessageBody" {
		var doc map[string]any
		if err := json.Unmarshal([]byte(body), &doc); err != nil {
			return false, nil
		}
		return matchDoc(p, doc), nil
	}
	doc := map[string]any{}
	for k, v := range attrs {
		if strings.HasPrefix(aws.ToString(v.DataType), "Number") {
			var n float64
			if _, err := fmt.Sscan(aws.ToString(v.StringValue), &n); err == nil {
				doc[k] = n
				continue
			}
		}
		doc[k] = aws.ToString(v.StringValue)
	}
	return matchDoc(p, doc), nil
}

func matchDoc(policy, doc map[string]any) bool {
	for key, cond := range policy {
		value, present := doc[key]
		switch c := cond.(type) {
		case map[string]any:
			nested, ok := value.(map[string]any)
			if !ok || !matchDoc(c, nested) {
				return false
			}
		case []any:
			if !matchAny(c, value, present) {
				return false
			}
		}
	}
	return true
}

func matchAny(conds []any, value any, present bool) bool {
	for _, cond := range conds {
		switch c := cond.(type) {
		case map[string]any:
			if exists, ok := c["exists"].(bool); ok && exists == present {
				return true
			}
			if prefix, ok := c["prefix"].(string); ok {
				if s, isString := value.(string); isString && strings.HasPrefix(s, prefix) {
					return true
				}
			}
		default:
			if present && fmt.Sprint(c) == fmt.Sprint(value) {
				return true
			}
		}
	}
	return false
}
