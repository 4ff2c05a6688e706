package managed

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// param is a parameter of the tests: a name, a value and a method that InSync may compare.
type param struct{ name, value, method string }

func TestPlanParameters(t *testing.T) {
	name, value := func(p param) string { return p.name }, func(p param) string { return p.value }
	type want struct {
		fields []string
		values map[string]Values
		set    []param
		reset  []string
	}
	cases := map[string]struct {
		reason string
		set    ParameterSet[param]
		want   want
	}{
		"InSync": {
			reason: "A group whose user-set values are the spec's plans nothing.",
			set:    ParameterSet[param]{Desired: []param{{"timeout", "300", ""}}, Current: map[string]string{"timeout": "300"}},
		},
		"SetAndReset": {
			reason: "A new parameter and a changed one are set, and one the spec dropped is reset, in one entry in field order.",
			set: ParameterSet[param]{Desired: []param{{"timeout", "60", ""}, {"maxmemory-policy", "allkeys-lru", ""}},
				Current: map[string]string{"timeout": "300", "notify-keyspace-events": "Ex", "databases": "32"}},
			want: want{
				fields: []string{"parameters[databases]", "parameters[maxmemory-policy]", "parameters[notify-keyspace-events]", "parameters[timeout]"},
				values: map[string]Values{
					"parameters[databases]":              {Current: "32", Desired: "(engine default)"},
					"parameters[maxmemory-policy]":       {Current: "", Desired: "allkeys-lru"},
					"parameters[notify-keyspace-events]": {Current: "Ex", Desired: "(engine default)"},
					"parameters[timeout]":                {Current: "300", Desired: "60"},
				},
				set:   []param{{"timeout", "60", ""}, {"maxmemory-policy", "allkeys-lru", ""}},
				reset: []string{"databases", "notify-keyspace-events"},
			},
		},
		"InSyncDecides": {
			reason: "InSync, when given, decides whether a parameter of the same value is set again (another apply method).",
			set: ParameterSet[param]{Desired: []param{{"work_mem", "64", "pending-reboot"}}, Current: map[string]string{"work_mem": "64"},
				InSync: func(p param) bool { return p.method == "immediate" }},
			want: want{
				fields: []string{"parameters[work_mem]"},
				values: map[string]Values{"parameters[work_mem]": {Current: "64", Desired: "64"}},
				set:    []param{{"work_mem", "64", "pending-reboot"}},
			},
		},
	}
	for n, tc := range cases {
		t.Run(n, func(t *testing.T) {
			tc.set.Name, tc.set.Value = name, value
			var plan Plan
			var got want
			PlanParameters(&plan, tc.set, func(_ context.Context, set []param, reset []string) error {
				got.set, got.reset = set, reset
				return nil
			})
			if len(plan) > 0 {
				got.fields, got.values = plan[0].Fields, plan[0].Values
				if err := plan.Apply(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{}, param{})); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestInBatches(t *testing.T) {
	var sizes []int
	items := make([]int, 45)
	if err := InBatches(items, 20, func(b []int) error { sizes = append(sizes, len(b)); return nil }); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{20, 20, 5}, sizes); diff != "" {
		t.Errorf("batches of 45 by 20 (-want +got):\n%s", diff)
	}
	calls, boom := 0, errors.New("boom")
	if err := InBatches(items, 20, func([]int) error { calls++; return boom }); !errors.Is(err, boom) || calls != 1 {
		t.Errorf("an error stops the batches: %v after %d calls", err, calls)
	}
}
