package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testRules are rules as a service gives them, with errors that say which rule was broken.
var testRules = TagRules{
	MaxTags:  3,
	Reserved: []string{"aws:", "rds:"},
	TooMany:  Errorf("TooMany", "at most 3"),
	Invalid:  func(problem string) *APIError { return Errorf("Invalid", "%s", problem) },
}

// code returns the APIError code of err, "" for nil.
func code(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("%v is not the service's APIError", err)
	}
	return apiErr.Code
}

// many returns n tags k0=v ... k<n-1>=v.
func many(n int) map[string]string {
	out := map[string]string{}
	for i := range n {
		out[fmt.Sprintf("k%d", i)] = "v"
	}
	return out
}

// TestTagsMerge checks that Merge adds and replaces tags, counts the limit on the merged result,
// and changes nothing, on any resource, when the rules refuse the tags for one.
func TestTagsMerge(t *testing.T) {
	s := NewTags(testRules)
	if err := s.Merge(map[string]string{"b": "1", "a": "2"}, "r1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Merge(map[string]string{"a": "3", "c": "4"}, "r1"); err != nil {
		t.Fatalf("replacing a value and reaching the limit: %v", err)
	}
	type pair struct{ K, V string }
	list := TagList(s, "r1", func(k, v string) pair { return pair{k, v} })
	if diff := cmp.Diff([]pair{{"a", "3"}, {"b", "1"}, {"c", "4"}}, list); diff != "" {
		t.Errorf("TagList, sorted by key\n-want +got:\n%s", diff)
	}
	if got := TagList(s, "untagged", func(k, v string) pair { return pair{k, v} }); got == nil || len(got) != 0 {
		t.Errorf("TagList of an untagged resource = %#v, want an empty list", got)
	}
	if err := s.Merge(map[string]string{"a": "5", "b": "6"}, "r1"); err != nil {
		t.Errorf("replacing values at the limit: %v", err)
	}
	if err := s.Merge(map[string]string{"d": "7"}, "r1"); code(t, err) != "TooMany" {
		t.Errorf("a fourth tag: %v, want TooMany", err)
	}
	if err := s.Merge(map[string]string{"x": "1"}, "r2", "r1"); code(t, err) != "TooMany" {
		t.Errorf("tagging r2 and a full r1: %v, want TooMany", err)
	}
	if got := s.Map("r2"); len(got) != 0 {
		t.Errorf("r2 = %v after a refused Merge, want no tags", got)
	}
	if diff := cmp.Diff(map[string]string{"a": "5", "b": "6", "c": "4"}, s.Map("r1")); diff != "" {
		t.Errorf("r1 after refused merges\n-want +got:\n%s", diff)
	}
	if err := s.Merge(many(4), "new"); code(t, err) != "TooMany" {
		t.Errorf("creating a resource with 4 tags: %v, want TooMany", err)
	}
	m := s.Map("r1")
	m["z"] = "changed"
	if _, ok := s.Map("r1")["z"]; ok {
		t.Error("Map returned the store's own map")
	}
}

// TestTagsRules checks the key and value limits, counted in characters, and the reserved
// prefixes, whatever their case.
func TestTagsRules(t *testing.T) {
	cases := map[string]struct {
		tags map[string]string
		want string
	}{
		"EmptyKey":        {map[string]string{"": "v"}, "Invalid"},
		"LongKey":         {map[string]string{strings.Repeat("k", MaxTagKey+1): "v"}, "Invalid"},
		"LongestKey":      {map[string]string{strings.Repeat("é", MaxTagKey): "v"}, ""},
		"LongValue":       {map[string]string{"k": strings.Repeat("v", MaxTagValue+1)}, "Invalid"},
		"LongestValue":    {map[string]string{"k": strings.Repeat("ü", MaxTagValue)}, ""},
		"EmptyValue":      {map[string]string{"k": ""}, ""},
		"Reserved":        {map[string]string{"aws:cloudformation:stack": "v"}, "Invalid"},
		"ReservedAnyCase": {map[string]string{"RDS:x": "v"}, "Invalid"},
		"PrefixInside":    {map[string]string{"team-aws:x": "v"}, ""},
		"BadTagFirst":     {map[string]string{"": "v", "a": "1", "b": "2", "c": "3"}, "Invalid"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := NewTags(testRules)
			if got := code(t, s.Merge(tc.tags, "r")); got != tc.want {
				t.Errorf("Merge: %q, want %q", got, tc.want)
			}
			if got := code(t, s.Replace("r", tc.tags)); got != tc.want {
				t.Errorf("Replace: %q, want %q", got, tc.want)
			}
		})
	}
	var apiErr *APIError
	if err := NewTags(testRules).Merge(map[string]string{"aws:x": ""}, "r"); !errors.As(err, &apiErr) || !strings.Contains(apiErr.Message, "'aws:'") {
		t.Errorf("a reserved key: %v, want a message naming the prefix", err)
	}
}

// TestTagsRemoveReplaceCopyDelete checks the other operations services need.
func TestTagsRemoveReplaceCopyDelete(t *testing.T) {
	s := NewTags(testRules)
	if err := s.Merge(map[string]string{"a": "1", "b": "2"}, "db"); err != nil {
		t.Fatal(err)
	}
	s.Remove("db", "a", "missing")
	if diff := cmp.Diff(map[string]string{"b": "2"}, s.Map("db")); diff != "" {
		t.Errorf("Remove\n-want +got:\n%s", diff)
	}
	s.Remove("untagged", "a")

	if err := s.Merge(map[string]string{"old": "x"}, "snap"); err != nil {
		t.Fatal(err)
	}
	s.Copy("db", "snap")
	if diff := cmp.Diff(map[string]string{"b": "2"}, s.Map("snap")); diff != "" {
		t.Errorf("Copy replaces the target's tags\n-want +got:\n%s", diff)
	}
	if err := s.Merge(map[string]string{"c": "3"}, "snap"); err != nil || len(s.Map("db")) != 1 {
		t.Errorf("tagging a copy changed its source: %v, %v", s.Map("db"), err)
	}
	s.Copy("untagged", "snap")
	if got := s.Map("snap"); len(got) != 0 {
		t.Errorf("copying an untagged resource left %v", got)
	}

	if err := s.Replace("db", map[string]string{"x": "1"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"x": "1"}, s.Map("db")); diff != "" {
		t.Errorf("Replace\n-want +got:\n%s", diff)
	}
	if err := s.Replace("db", many(4)); code(t, err) != "TooMany" || s.Map("db")["x"] != "1" {
		t.Errorf("Replace with too many: %v, left %v; want TooMany and the tags unchanged", err, s.Map("db"))
	}

	b, err := json.Marshal(s)
	if err != nil || string(b) != `{"db":{"x":"1"}}` {
		t.Errorf("MarshalJSON = %s, %v", b, err)
	}
	s.Delete("db")
	if got := s.Map("db"); len(got) != 0 {
		t.Errorf("Delete left %v", got)
	}
}

// TestTagMap checks the conversion of a request's tag list and the repeated key it reports.
func TestTagMap(t *testing.T) {
	type tag struct{ k, v string }
	pair := func(t tag) (string, string) { return t.k, t.v }
	tags, repeated := TagMap([]tag{{"a", "1"}, {"b", "2"}, {"a", "3"}, {"b", "4"}}, pair)
	if diff := cmp.Diff(map[string]string{"a": "3", "b": "4"}, tags); diff != "" || repeated != "a" {
		t.Errorf("TagMap = %v, %q; want the last values and the first repeated key a\n%s", tags, repeated, diff)
	}
	if _, repeated := TagMap([]tag{{"a", "1"}}, pair); repeated != "" {
		t.Errorf("repeated = %q for distinct keys", repeated)
	}
}

// TestAWSTagRules checks the rules AWSTagRules, CountingRequests and InvalidTag make: 50 tags,
// no "aws:" key, and the service's errors.
func TestAWSTagRules(t *testing.T) {
	rules := AWSTagRules(Errorf("TooManyTags", "too many"), InvalidTag("InvalidTag", "bad tag: %s."))
	if rules.MaxTags != 50 || rules.CountRequest {
		t.Fatalf("AWSTagRules = %+v", rules)
	}
	err := rules.Check(map[string]string{"aws:name": "x"})
	if code(t, err) != "InvalidTag" || !strings.HasPrefix(err.(*APIError).Message, "bad tag: Tag keys starting with 'aws:'") {
		t.Errorf("Check of a reserved key = %v", err)
	}
	if err := rules.Check(many(51)); code(t, err) != "TooManyTags" {
		t.Errorf("Check of 51 tags = %v", err)
	}
	if !rules.CountingRequests().CountRequest {
		t.Error("CountingRequests did not set CountRequest")
	}
}
