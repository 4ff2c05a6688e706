package managed

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// TestPlanCarriesOutChangesInOrder checks that a plan runs its changes in the order they were
// planned, stops at the first failure, and names every differing field.
func TestPlanCarriesOutChangesInOrder(t *testing.T) {
	var ran []string
	step := func(name string, err error) func(context.Context) error {
		return func(context.Context) error { ran = append(ran, name); return err }
	}
	var p Plan
	p.Add("policy", step("policy", nil))
	p.AddFields(nil, step("nothing", nil))
	p.AddFields([]string{"visibilityTimeout", "delaySeconds"}, step("attributes", errors.New("refused")))
	p.Add("tags", step("tags", nil))
	if got, want := p.String(), "policy, visibilityTimeout, delaySeconds, tags"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if err := p.Apply(context.Background()); err == nil || err.Error() != "refused" {
		t.Errorf("Apply() = %v, want the failing change's error", err)
	}
	if want := []string{"policy", "attributes"}; !slices.Equal(ran, want) {
		t.Errorf("ran %v, want %v (in order, stopping at the failure)", ran, want)
	}
}

// TestPlanTagsOnlyWhenTheyDiffer checks that AddTags plans nothing for equal tags, and hands
// the change the tags to set and the keys to remove otherwise (never AWS's own tags).
func TestPlanTagsOnlyWhenTheyDiffer(t *testing.T) {
	var p Plan
	p.AddTags(map[string]string{"a": "1"}, map[string]string{"a": "1", "aws:cloudformation": "x"}, nil)
	if len(p) != 0 {
		t.Fatalf("equal tags planned %v", p.Fields())
	}
	var gotSet map[string]string
	var gotRemove []string
	p.AddTags(map[string]string{"a": "2", "b": "1"}, map[string]string{"a": "1", "c": "3"}, func(_ context.Context, set map[string]string, remove []string) error {
		gotSet, gotRemove = set, remove
		return nil
	})
	if err := p.Apply(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(gotSet) != 2 || gotSet["a"] != "2" || gotSet["b"] != "1" || !slices.Equal(gotRemove, []string{"c"}) {
		t.Errorf("set %v remove %v, want a=2 b=1 and remove c", gotSet, gotRemove)
	}
}
