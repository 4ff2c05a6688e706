// Package attributes holds what the messaging family's kinds share about the attribute maps of
// their AWS APIs (SQS queues, SNS topics and subscriptions): which attributes differ from the
// spec's, which a create call sets, and the JSON values among them.
package attributes

import (
	"encoding/json"
	"maps"
	"reflect"
)

// Changes returns the attributes of want whose observed values differ; same reports whether
// the observed value got of the attribute name is the wanted one.
func Changes(want, observed map[string]string, same func(name, want, got string) bool) map[string]string {
	out := map[string]string{}
	for name, v := range want {
		if !same(name, v, observed[name]) {
			out[name] = v
		}
	}
	return out
}

// NonEmpty returns a copy of attrs without empty values: the attributes a create call sets
// (an empty value stands for an attribute to remove).
func NonEmpty(attrs map[string]string) map[string]string {
	out := maps.Clone(attrs)
	maps.DeleteFunc(out, func(_, v string) bool { return v == "" })
	return out
}

// JSON encodes a value built from strings, numbers and lists, which always encodes.
func JSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// EqualJSON reports whether two JSON documents mean the same; when either is not JSON,
// whether they are the same text.
func EqualJSON(want, got string) bool {
	var w, g any
	if json.Unmarshal([]byte(want), &w) != nil || json.Unmarshal([]byte(got), &g) != nil {
		return want == got
	}
	return reflect.DeepEqual(w, g)
}
