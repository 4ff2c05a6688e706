package core

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The requests and responses of a service's tag operations, in the tests.
type (
	testTagIn struct {
		Ref  string
		List []testTag
		Map  map[string]string
		Keys []string
	}
	testTagOut  struct{}
	testListOut struct{ Tags []testTag }
	testMapOut  struct{ Tags map[string]string }
)

// TestTagOps checks the operations made from a Tagging: they change and answer the tags of the
// resource a request names, and answer Find's error for one that is not there.
func TestTagOps(t *testing.T) {
	store := NewTags(testRules)
	g, _ := testTagging(store, "r")
	ref := func(in *testTagIn) string { return in.Ref }
	ops := map[string]Operation{
		"AddList": AddListOp[testTagOut](g, func(in *testTagIn) (string, []testTag) { return in.Ref, in.List }),
		"Add":     AddOp[testTagOut](g, func(in *testTagIn) (string, map[string]string) { return in.Ref, in.Map }),
		"Remove":  RemoveOp[testTagOut](g, func(in *testTagIn) (string, []string) { return in.Ref, in.Keys }),
		"List":    ListOp(g, ref, func(tags []testTag) *testListOut { return &testListOut{tags} }),
		"Map":     MapOp(g, ref, func(tags map[string]string) *testMapOut { return &testMapOut{tags} }),
	}
	call := &Call{}
	steps := []struct {
		op   string
		in   testTagIn
		want any
	}{
		{"AddList", testTagIn{Ref: "r", List: []testTag{{"b", "1"}}}, &testTagOut{}},
		{"Add", testTagIn{Ref: "r", Map: map[string]string{"a": "2", "c": "3"}}, &testTagOut{}},
		{"Remove", testTagIn{Ref: "r", Keys: []string{"c"}}, &testTagOut{}},
		{"List", testTagIn{Ref: "r"}, &testListOut{[]testTag{{"a", "2"}, {"b", "1"}}}},
		{"Map", testTagIn{Ref: "r"}, &testMapOut{map[string]string{"a": "2", "b": "1"}}},
	}
	for _, s := range steps {
		got, err := ops[s.op].Handle(call, &s.in)
		if diff := cmp.Diff(s.want, got); err != nil || diff != "" {
			t.Errorf("%s = %v, %v\n-want +got:\n%s", s.op, got, err, diff)
		}
	}
	for name, op := range ops {
		if got, err := op.Handle(call, &testTagIn{Ref: "gone"}); code(t, err) != "NotFound" || got != nil {
			t.Errorf("%s of a missing resource = %v, %v; want Find's NotFound", name, got, err)
		}
	}
}
