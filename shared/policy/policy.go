// Package policy compares AWS policy documents (IAM, S3 bucket, SQS queue, SNS topic and KMS key
// policies) by what they say rather than by their text: AWS stores a policy in its own form
// (a single statement as an object or a list, an action as a string or a list, its own key
// order and spacing), so a text comparison would update a policy that never changes.
package policy

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// DefaultVersion is the policy language version AWS assumes for a document without one.
const DefaultVersion = "2012-10-17"

// listMembers are the statement members whose value may be one string or a list of strings,
// in any order.
var listMembers = []string{"Action", "NotAction", "Resource", "NotResource"}

// Equivalent reports whether two policy documents say the same: the same Version (absent means
// DefaultVersion) and Id, and the same statements in any order, where a single statement or
// value may be written alone or as a list of one and lists of actions, resources, principals
// and condition values are sets. "" is the empty policy. Documents that are not JSON are equal
// only as text.
func Equivalent(a, b string) bool {
	ca, errA := Canonical(a)
	cb, errB := Canonical(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return ca == cb
}

// Canonical returns the canonical JSON text of a policy document, the form Equivalent
// compares; "" for the empty policy.
func Canonical(doc string) (string, error) {
	if strings.TrimSpace(doc) == "" {
		return "", nil
	}
	var top map[string]any
	if err := json.Unmarshal([]byte(doc), &top); err != nil {
		return "", err
	}
	if _, ok := top["Version"]; !ok {
		top["Version"] = DefaultVersion
	}
	if raw, ok := top["Statement"]; ok {
		var statements []string
		for _, st := range asList(raw) {
			m, ok := st.(map[string]any)
			if !ok {
				statements = append(statements, mustJSON(st))
				continue
			}
			statements = append(statements, CanonicalStatement(m))
		}
		slices.Sort(statements)
		top["Statement"] = rawList(statements)
	}
	return mustJSON(top), nil
}

// CanonicalStatement returns the canonical JSON text of one statement.
func CanonicalStatement(st map[string]any) string {
	out := maps.Clone(st)
	for _, k := range listMembers {
		if v, ok := out[k]; ok {
			out[k] = stringSet(v)
		}
	}
	for _, k := range []string{"Principal", "NotPrincipal"} {
		if m, ok := out[k].(map[string]any); ok {
			out[k] = setValues(m)
		}
	}
	if cond, ok := out["Condition"].(map[string]any); ok {
		c := map[string]any{}
		for op, v := range cond {
			if m, ok := v.(map[string]any); ok {
				c[op] = setValues(m)
			} else {
				c[op] = v
			}
		}
		out["Condition"] = c
	}
	return mustJSON(out)
}

// setValues returns m with every value made a sorted set.
func setValues(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = stringSet(v)
	}
	return out
}

// stringSet turns a string or a list into a sorted list without duplicates; other values are
// kept as they are.
func stringSet(v any) any {
	list := asList(v)
	texts := make([]string, 0, len(list))
	for _, item := range list {
		s, ok := item.(string)
		if !ok {
			return v
		}
		texts = append(texts, s)
	}
	slices.Sort(texts)
	return slices.Compact(texts)
}

// asList returns v as a list: a list as it is, anything else as a list of one.
func asList(v any) []any {
	if l, ok := v.([]any); ok {
		return l
	}
	return []any{v}
}

// rawList holds canonical JSON texts that encode as a JSON list of those values.
type rawList []string

// MarshalJSON writes the texts as a JSON list.
func (r rawList) MarshalJSON() ([]byte, error) {
	return []byte("[" + strings.Join(r, ",") + "]"), nil
}

// mustJSON encodes a value decoded from JSON, which always encodes; map keys come out sorted.
func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
