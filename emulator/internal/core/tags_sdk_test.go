package core

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeClient stands for a service's SDK client in the tests: its methods have the signature of
// an SDK client's, for the inputs and outputs below.
type (
	fakeClient  struct{}
	fakeOptions struct{}
)

// The inputs and outputs of fakeClient's tag operations, named as the SDK names them: a list
// service's (tags as a list of testTag, listed under TagList) and a map service's.
type (
	TagThingInput struct {
		Name *string
		Tags []testTag
	}
	TagThingOutput  struct{}
	UntagThingInput struct {
		Name    *string
		TagKeys []string
	}
	UntagThingOutput struct{}
	ListThingInput   struct{ Name *string }
	ListThingOutput  struct{ TagList []testTag }
	TagMapInput      struct {
		Name *string
		Tags map[string]string
	}
	TagMapOutput   struct{}
	ListMapInput   struct{ Name *string }
	ListMapOutput  struct{ Tags map[string]string }
	BadThingInput  struct{ Ref *string }
	BadThingOutput struct{}
)

func (*fakeClient) TagThing(context.Context, *TagThingInput, ...func(*fakeOptions)) (*TagThingOutput, error) {
	return nil, nil
}

func (*fakeClient) UntagThing(context.Context, *UntagThingInput, ...func(*fakeOptions)) (*UntagThingOutput, error) {
	return nil, nil
}

func (*fakeClient) ListThing(context.Context, *ListThingInput, ...func(*fakeOptions)) (*ListThingOutput, error) {
	return nil, nil
}

func (*fakeClient) TagMap(context.Context, *TagMapInput, ...func(*fakeOptions)) (*TagMapOutput, error) {
	return nil, nil
}

func (*fakeClient) ListMap(context.Context, *ListMapInput, ...func(*fakeOptions)) (*ListMapOutput, error) {
	return nil, nil
}

func (*fakeClient) BadThing(context.Context, *BadThingInput, ...func(*fakeOptions)) (*BadThingOutput, error) {
	return nil, nil
}

// sdkTagging returns a Tagging over store, by a request's name, whose only resource is "r".
func sdkTagging(store *Tags) Tagging[*string, testTag] {
	return Tagging[*string, testTag]{
		Lock: &sync.Mutex{},
		Find: func(_ *Call, ref *string) (TagTarget, error) {
			if ref == nil || *ref != "r" {
				return TagTarget{}, NotFoundf("NotFound", "no such resource")
			}
			return TagTarget{Tags: store, ID: *ref}, nil
		},
		Rules: testRules,
		Pair:  func(t testTag) (string, string) { return t.K, t.V },
		Tag:   func(k, v string) testTag { return testTag{k, v} },
	}
}

// TestTagOperations checks the tag operations declared by an SDK client's methods: named after
// their inputs, reading the resource's reference and the tags or keys from the requests'
// members, and answering the tags in the output's member, as a list or as a map.
func TestTagOperations(t *testing.T) {
	store := NewTags(testRules)
	g := sdkTagging(store)
	ops := TagOperations(g, "Name", (*fakeClient).TagThing, (*fakeClient).UntagThing, (*fakeClient).ListThing)
	for name, op := range TagChangeOperations(g, "Name", (*fakeClient).TagMap, (*fakeClient).UntagThing) {
		ops[name+"ByMap"] = op
	}
	for name, op := range ListTagsOperation(g, "Name", (*fakeClient).ListMap) {
		ops[name] = op
	}
	if diff := cmp.Diff([]string{"ListMap", "ListThing", "TagMapByMap", "TagThing", "UntagThing", "UntagThingByMap"}, SortedKeys(ops)); diff != "" {
		t.Fatalf("operations (-want +got):\n%s", diff)
	}
	r := new("r")
	call := &Call{}
	steps := []struct {
		op   string
		in   any
		want any
	}{
		{"TagThing", &TagThingInput{Name: r, Tags: []testTag{{"b", "1"}}}, &TagThingOutput{}},
		{"TagMapByMap", &TagMapInput{Name: r, Tags: map[string]string{"a": "2", "c": "3"}}, &TagMapOutput{}},
		{"UntagThing", &UntagThingInput{Name: r, TagKeys: []string{"c"}}, &UntagThingOutput{}},
		{"ListThing", &ListThingInput{Name: r}, &ListThingOutput{TagList: []testTag{{"a", "2"}, {"b", "1"}}}},
		{"ListMap", &ListMapInput{Name: r}, &ListMapOutput{Tags: map[string]string{"a": "2", "b": "1"}}},
	}
	for _, s := range steps {
		got, err := ops[s.op].Handle(call, s.in)
		if diff := cmp.Diff(s.want, got); err != nil || diff != "" {
			t.Errorf("%s = %v, %v\n-want +got:\n%s", s.op, got, err, diff)
		}
	}
	if _, err := ops["ListThing"].Handle(call, &ListThingInput{Name: new("gone")}); code(t, err) != "NotFound" {
		t.Errorf("ListThing of a missing resource: %v, want Find's NotFound", err)
	}
	if _, err := ops["TagThing"].Handle(call, &TagThingInput{Name: r, Tags: []testTag{{"aws:x", "1"}}}); code(t, err) != "Invalid" {
		t.Errorf("TagThing of a reserved key: %v, want the rules' Invalid", err)
	}
}

// TestTagOperationsPanics checks that a declaration whose SDK structs lack the members it names
// panics, as the router meets it when it starts.
func TestTagOperationsPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("TagChangeOperations with an input without the member Name did not panic")
		}
	}()
	TagChangeOperations(sdkTagging(NewTags(testRules)), "Name", (*fakeClient).BadThing, (*fakeClient).UntagThing)
}
