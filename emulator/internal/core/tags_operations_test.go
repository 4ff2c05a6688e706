package core

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testTag is a service's SDK Tag in the tests.
type testTag struct{ K, V string }

// testTagging returns a Tagging over store whose resources are those of known, and the count of
// the Touch calls it makes.
func testTagging(store *Tags, known ...string) (Tagging[string, testTag], *int) {
	touched := new(int)
	return Tagging[string, testTag]{
		Lock: &sync.Mutex{},
		Find: func(_ *Call, ref string) (TagTarget, error) {
			for _, k := range known {
				if k == ref {
					return TagTarget{Tags: store, ID: ref, Touch: func() { *touched++ }}, nil
				}
			}
			return TagTarget{}, NotFoundf("NotFound", "no %s", ref)
		},
		Rules: testRules,
		Pair:  func(t testTag) (string, string) { return t.K, t.V },
		Tag:   func(k, v string) testTag { return testTag{k, v} },
	}, touched
}

// TestTaggingOperations checks Add, AddList, Remove, Map and List on a found resource, the
// error of Find for one that is not there, and the Touch of the operations that change tags.
func TestTaggingOperations(t *testing.T) {
	store := NewTags(testRules)
	g, touched := testTagging(store, "r1", "r2")
	call := &Call{}
	if err := g.AddList(call, "r1", []testTag{{"b", "1"}, {"a", "2"}}); err != nil {
		t.Fatal(err)
	}
	if err := g.Add(call, "r1", map[string]string{"c": "3"}); err != nil {
		t.Fatal(err)
	}
	if err := g.Add(call, "r1", map[string]string{"d": "4"}); code(t, err) != "TooMany" {
		t.Errorf("a fourth tag: %v, want TooMany", err)
	}
	if err := g.Remove(call, "r1", []string{"c", "absent"}); err != nil {
		t.Fatal(err)
	}
	list, err := g.List(call, "r1")
	if diff := cmp.Diff([]testTag{{"a", "2"}, {"b", "1"}}, list); err != nil || diff != "" {
		t.Errorf("List = %v, %v\n-want +got:\n%s", list, err, diff)
	}
	if m, err := g.Map(call, "r2"); err != nil || m == nil || len(m) != 0 {
		t.Errorf("Map of an untagged resource = %#v, %v; want an empty map", m, err)
	}
	if got, err := g.List(call, "r2"); err != nil || got == nil || len(got) != 0 {
		t.Errorf("List of an untagged resource = %#v, %v; want an empty list", got, err)
	}
	if *touched != 3 {
		t.Errorf("Touch ran %d times, want 3 (two adds and a remove)", *touched)
	}
	for name, err := range map[string]error{
		"Add":    g.Add(call, "gone", map[string]string{"a": "1"}),
		"Remove": g.Remove(call, "gone", []string{"a"}),
		"Map":    func() error { _, err := g.Map(call, "gone"); return err }(),
		"List":   func() error { _, err := g.List(call, "gone"); return err }(),
	} {
		if code(t, err) != "NotFound" {
			t.Errorf("%s of a missing resource: %v, want Find's NotFound", name, err)
		}
	}
}

// TestTaggingAddAll checks that AddAll tags every resource or, when Find or the rules refuse
// one, none.
func TestTaggingAddAll(t *testing.T) {
	store := NewTags(testRules)
	g, _ := testTagging(store, "r1", "r2")
	call := &Call{}
	if err := g.AddAll(call, []string{"r1", "gone"}, map[string]string{"a": "1"}); code(t, err) != "NotFound" {
		t.Errorf("AddAll with a missing resource: %v, want NotFound", err)
	}
	if err := g.Add(call, "r2", many(3)); err != nil {
		t.Fatal(err)
	}
	if err := g.AddAll(call, []string{"r1", "r2"}, map[string]string{"a": "1"}); code(t, err) != "TooMany" {
		t.Errorf("AddAll with a full resource: %v, want TooMany", err)
	}
	if got := store.Map("r1"); len(got) != 0 {
		t.Errorf("r1 = %v after refused AddAlls, want no tags", got)
	}
	if err := g.AddAll(call, []string{"r1", "r2"}, map[string]string{"k0": "w"}); err != nil {
		t.Fatal(err)
	}
	if store.Map("r1")["k0"] != "w" || store.Map("r2")["k0"] != "w" {
		t.Errorf("AddAll left r1 %v and r2 %v, want k0=w on both", store.Map("r1"), store.Map("r2"))
	}
	var seen []string
	err := g.Each(call, []string{"r1", "gone", "r2"}, func(t TagTarget) error {
		seen = append(seen, t.ID)
		return nil
	})
	if code(t, err) != "NotFound" || !cmp.Equal(seen, []string{"r1"}) {
		t.Errorf("Each = %v after %v, want NotFound after r1 alone", err, seen)
	}
}

// TestRequestTags checks the checks of a request's list before any lookup: the count under
// CountRequest and the repeated key under Repeated.
func TestRequestTags(t *testing.T) {
	pair := func(t testTag) (string, string) { return t.K, t.V }
	four := []testTag{{"a", ""}, {"b", ""}, {"c", ""}, {"d", ""}}
	if _, err := RequestTags(testRules, four, pair); err != nil {
		t.Errorf("four tags without CountRequest: %v, want them left to the store", err)
	}
	counted := testRules
	counted.CountRequest = true
	if _, err := RequestTags(counted, four, pair); code(t, err) != "TooMany" {
		t.Errorf("four tags under CountRequest: %v, want TooMany", err)
	}
	twice := []testTag{{"a", "1"}, {"a", "2"}}
	if tags, err := RequestTags(testRules, twice, pair); err != nil || tags["a"] != "2" {
		t.Errorf("a repeated key without Repeated = %v, %v; want its last value", tags, err)
	}
	strict := testRules
	strict.Repeated = func(key string) *APIError { return Errorf("Repeated", "%s", key) }
	if _, err := RequestTags(strict, twice, pair); code(t, err) != "Repeated" {
		t.Errorf("a repeated key under Repeated: %v, want Repeated", err)
	}
}

// TestTagsFoldCase checks that under FoldCase a merged key replaces one of another case, the
// limit counts the merged tags, and Remove removes a key in any case.
func TestTagsFoldCase(t *testing.T) {
	rules := testRules
	rules.FoldCase = true
	s := NewTags(rules)
	if err := s.Merge(map[string]string{"Team": "a", "env": "b", "x": "c"}, "r"); err != nil {
		t.Fatal(err)
	}
	if err := s.Merge(map[string]string{"TEAM": "d"}, "r"); err != nil {
		t.Fatalf("replacing a key of another case at the limit: %v", err)
	}
	if diff := cmp.Diff(map[string]string{"TEAM": "d", "env": "b", "x": "c"}, s.Map("r")); diff != "" {
		t.Errorf("after the merge\n-want +got:\n%s", diff)
	}
	s.Remove("r", "ENV", "team")
	if diff := cmp.Diff(map[string]string{"x": "c"}, s.Map("r")); diff != "" {
		t.Errorf("after Remove\n-want +got:\n%s", diff)
	}
}

// TestTagsRemoveValued checks that a tag given with a value is removed only when it has it.
func TestTagsRemoveValued(t *testing.T) {
	s := NewTags(testRules)
	if err := s.Merge(map[string]string{"a": "1", "b": "2"}, "r"); err != nil {
		t.Fatal(err)
	}
	other, same := "9", "2"
	s.RemoveValued("r", "a", &other)
	s.RemoveValued("r", "b", &same)
	s.RemoveValued("r", "absent", nil)
	if diff := cmp.Diff(map[string]string{"a": "1"}, s.Map("r")); diff != "" {
		t.Errorf("after RemoveValued\n-want +got:\n%s", diff)
	}
	s.RemoveValued("r", "a", nil)
	if got := s.Map("r"); len(got) != 0 {
		t.Errorf("RemoveValued without a value left %v", got)
	}
}

// TestTaggingChecks checks that Request and CheckKeys, when set, refuse a request before Find
// looks the resource up.
func TestTaggingChecks(t *testing.T) {
	store := NewTags(testRules)
	g, _ := testTagging(store)
	g.Request = func([]testTag) (map[string]string, error) { return nil, Errorf("BadList", "no") }
	g.CheckKeys = func([]string) error { return Errorf("BadKeys", "no") }
	if err := g.AddList(&Call{}, "gone", nil); code(t, err) != "BadList" {
		t.Errorf("AddList with Request: %v, want BadList", err)
	}
	if err := g.Remove(&Call{}, "gone", nil); code(t, err) != "BadKeys" {
		t.Errorf("Remove with CheckKeys: %v, want BadKeys", err)
	}
}
