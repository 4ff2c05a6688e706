package loadbalancer

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
)

// TestDiffRules checks how a listener's rules become the spec's: kept, moved in one
// SetRulePriorities (a swap included), modified in place, deleted and created.
func TestDiffRules(t *testing.T) {
	groups := map[string]types.TargetGroup{"web": {TargetGroupArn: aws.String("arn:tg/web")}, "api": {TargetGroupArn: aws.String("arn:tg/api")}}
	path := func(p int32, pattern, group string) v1alpha1.ListenerRule {
		return v1alpha1.ListenerRule{Priority: p, Conditions: []v1alpha1.RuleCondition{{PathPattern: []string{pattern}}},
			Action: v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroup: group}}}
	}
	// described returns the rule AWS would describe for a spec rule, with arn.
	described := func(arn string, r v1alpha1.ListenerRule) types.Rule {
		w, _ := wantedRule(r, groups)
		return types.Rule{RuleArn: aws.String(arn), Conditions: sdkConditions(r.Conditions), Actions: w.act.sdk()}
	}
	type want struct {
		Remove []string
		Moves  map[string]int32
		Modify map[string]int32
		Create []int32
	}
	cases := map[string]struct {
		spec []v1alpha1.ListenerRule
		got  map[int32]types.Rule
		want want
	}{
		"Same": {spec: []v1alpha1.ListenerRule{path(1, "/api/*", "api")}, got: map[int32]types.Rule{1: described("r1", path(1, "/api/*", "api"))}},
		"Swap": {spec: []v1alpha1.ListenerRule{path(1, "/b/*", "web"), path(2, "/a/*", "api")},
			got:  map[int32]types.Rule{1: described("r1", path(1, "/a/*", "api")), 2: described("r2", path(2, "/b/*", "web"))},
			want: want{Moves: map[string]int32{"r1": 2, "r2": 1}}},
		"ChangedOutside": {spec: []v1alpha1.ListenerRule{path(1, "/api/*", "api")}, got: map[int32]types.Rule{1: described("r1", path(1, "/other/*", "api"))},
			want: want{Modify: map[string]int32{"r1": 1}}},
		"RemovedAndAdded": {spec: []v1alpha1.ListenerRule{path(5, "/new/*", "web")},
			got:  map[int32]types.Rule{1: described("r1", path(1, "/old/*", "api")), 9: described("r9", path(9, "/x/*", "web"))},
			want: want{Remove: []string{"r1", "r9"}, Create: []int32{5}}},
		"MoveOverARemovedRule": {spec: []v1alpha1.ListenerRule{path(1, "/a/*", "api")},
			got:  map[int32]types.Rule{1: described("r1", path(1, "/gone/*", "web")), 2: described("r2", path(2, "/a/*", "api"))},
			want: want{Remove: []string{"r1"}, Moves: map[string]int32{"r2": 1}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			wanted := map[int32]rule{}
			for _, r := range tc.spec {
				wanted[r.Priority], _ = wantedRule(r, groups)
			}
			c := diffRules(tc.spec, wanted, tc.got)
			got := want{Remove: c.remove}
			for _, m := range c.moves {
				if got.Moves == nil {
					got.Moves = map[string]int32{}
				}
				got.Moves[*m.RuleArn] = *m.Priority
			}
			for arn, r := range c.modify {
				if got.Modify == nil {
					got.Modify = map[string]int32{}
				}
				got.Modify[arn] = r.Priority
			}
			for _, r := range c.create {
				got.Create = append(got.Create, r.Priority)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConditionsCompareAsSets checks that the order of conditions and of their values does not
// make a rule differ, and that AWS's legacy Values beside the configuration are read as one.
func TestConditionsCompareAsSets(t *testing.T) {
	spec := []v1alpha1.RuleCondition{{HostHeader: []string{"b.example.com", "a.example.com"}}, {HTTPHeader: &v1alpha1.HTTPHeaderCondition{Name: "X-Env", Values: []string{"canary"}}}}
	described := []types.RuleCondition{
		{Field: aws.String("http-header"), HttpHeaderConfig: &types.HttpHeaderConditionConfig{HttpHeaderName: aws.String("x-env"), Values: []string{"canary"}}},
		{Field: aws.String("host-header"), Values: []string{"a.example.com", "b.example.com"}, HostHeaderConfig: &types.HostHeaderConditionConfig{Values: []string{"a.example.com", "b.example.com"}}},
	}
	if a, b := conditionKey(sdkConditions(spec)), conditionKey(described); a != b {
		t.Errorf("conditions differ:\n%s\n%s", a, b)
	}
	other := []v1alpha1.RuleCondition{{HostHeader: []string{"a.example.com"}}, {HTTPHeader: &v1alpha1.HTTPHeaderCondition{Name: "X-Env", Values: []string{"canary"}}}}
	if conditionKey(sdkConditions(other)) == conditionKey(described) {
		t.Error("a host value fewer does not differ")
	}
}

// TestWeightedForward checks that a weighted forward compares with AWS's description, default
// weights and stickiness included, and that a forward to one group without stickiness is the
// plain forward whichever way it is written.
func TestWeightedForward(t *testing.T) {
	groups := map[string]types.TargetGroup{"blue": {TargetGroupArn: aws.String("arn:tg/blue")}, "green": {TargetGroupArn: aws.String("arn:tg/green")}}
	spec := v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroups: []v1alpha1.WeightedTargetGroup{{Name: "green", Weight: aws.Int32(10)}, {Name: "blue"}},
		Stickiness: &v1alpha1.GroupStickiness{Enabled: true, DurationSeconds: aws.Int32(300)}}}
	want, ok := wantedAction(spec, groups)
	if !ok {
		t.Fatal("groups exist")
	}
	described := []types.Action{{Type: types.ActionTypeEnumForward, ForwardConfig: &types.ForwardActionConfig{
		TargetGroups:                []types.TargetGroupTuple{{TargetGroupArn: aws.String("arn:tg/blue"), Weight: aws.Int32(1)}, {TargetGroupArn: aws.String("arn:tg/green"), Weight: aws.Int32(10)}},
		TargetGroupStickinessConfig: &types.TargetGroupStickinessConfig{Enabled: aws.Bool(true), DurationSeconds: aws.Int32(300)}}}}
	if got := observedAction(described); got != want {
		t.Errorf("weighted forward %+v, AWS %+v", want, got)
	}
	if got := observedAction(want.sdk()); got != want {
		t.Errorf("the weighted forward sent %+v reads back as %+v", want, got)
	}
	one, _ := wantedAction(v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroups: []v1alpha1.WeightedTargetGroup{{Name: "blue", Weight: aws.Int32(5)}}}}, groups)
	plain, _ := wantedAction(v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroup: "blue"}}, groups)
	if one != plain {
		t.Errorf("one weighted group %+v is not the plain forward %+v", one, plain)
	}
	if _, ok := wantedAction(v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroups: []v1alpha1.WeightedTargetGroup{{Name: "red"}}}}, groups); ok {
		t.Error("a weighted forward to a group that does not exist yet is resolvable")
	}
}
