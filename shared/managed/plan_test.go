package managed

import (
	"context"
	"errors"
	"maps"
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

// TestPlanShowsValues checks the values a plan shows: strings of any string type as they are,
// other values as JSON, each attribute of an attribute-map call with AWS's value, and of tags
// only those that change (removed ones with their old value).
func TestPlanShowsValues(t *testing.T) {
	type mode string
	noop := func(context.Context) error { return nil }
	var p Plan
	p.AddValue("mode", mode("MUTABLE"), mode("IMMUTABLE"), noop)
	p.AddValue("count", int32(2), 5, noop)
	p.AddValue("enabled", false, true, noop)
	p.AddAttributes(map[string]string{"VisibilityTimeout": "90", "DelaySeconds": "0"}, map[string]string{"VisibilityTimeout": "30"}, noop)
	p.AddTags(map[string]string{"team": "b", "env": "prod"}, map[string]string{"team": "a", "env": "prod", "old": "x"},
		func(context.Context, map[string]string, []string) error { return nil })
	want := map[string]Values{
		"mode":              {Current: "MUTABLE", Desired: "IMMUTABLE"},
		"count":             {Current: "2", Desired: "5"},
		"enabled":           {Current: "false", Desired: "true"},
		"VisibilityTimeout": {Current: "30", Desired: "90"},
		"DelaySeconds":      {Current: "", Desired: "0"},
		"tags":              {Current: `{"old":"x","team":"a"}`, Desired: `{"team":"b"}`},
	}
	got := map[string]Values{}
	for _, c := range p {
		for f, v := range c.Values {
			got[f] = v
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("values = %v, want %v", got, want)
	}
	if fields := p.Fields(); !slices.Equal(fields, []string{"mode", "count", "enabled", "DelaySeconds", "VisibilityTimeout", "tags"}) {
		t.Errorf("fields = %v", fields)
	}
}

// TestPlanFieldValuesInOneCall checks that AddFieldValues plans one change for several fields
// in the order given, shows the values it holds for those fields only (a secret field shows
// just its name), and plans nothing without fields.
func TestPlanFieldValuesInOneCall(t *testing.T) {
	calls := 0
	apply := func(context.Context) error { calls++; return nil }
	var p Plan
	p.AddFieldValues(nil, map[string]Values{"timeout": ValuesOf(3, 30)}, apply)
	if len(p) != 0 {
		t.Fatalf("no fields planned %v", p.Fields())
	}
	p.AddFieldValues([]string{"timeout", "password", "description"}, map[string]Values{
		"description": ValuesOf("old", "new"),
		"timeout":     ValuesOf(int32(3), int32(30)),
		"other":       ValuesOf(1, 2),
	}, apply)
	if len(p) != 1 {
		t.Fatalf("planned %d changes, want one call", len(p))
	}
	if got, want := p.String(), "timeout, password, description"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	want := map[string]Values{"timeout": {Current: "3", Desired: "30"}, "description": {Current: "old", Desired: "new"}}
	if !maps.Equal(p[0].Values, want) {
		t.Errorf("values = %v, want %v", p[0].Values, want)
	}
	if err := p.Apply(context.Background()); err != nil || calls != 1 {
		t.Errorf("Apply() = %v after %d calls, want one call", err, calls)
	}
}
