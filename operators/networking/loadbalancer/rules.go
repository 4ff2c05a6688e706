package loadbalancer

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// rule is a listener rule's conditions and action in a comparable form: the conditions as
// sorted "field:values" strings (the order of conditions and of a condition's values does not
// change what matches), joined by newlines.
type rule struct {
	conditions string
	act        action
}

// rules reads the rules of the load balancer's HTTP and HTTPS listeners (an NLB's listeners
// have none), by listener port and priority; the default rule, the listener's default action,
// is left out.
func (d *driver[O]) rules(ctx context.Context, listeners map[int32]types.Listener) (map[int32]map[int32]types.Rule, error) {
	out := map[int32]map[int32]types.Rule{}
	for _, port := range slices.Sorted(maps.Keys(listeners)) {
		l := listeners[port]
		if l.Protocol != types.ProtocolEnumHttp && l.Protocol != types.ProtocolEnumHttps {
			continue
		}
		byPriority := map[int32]types.Rule{}
		var marker *string
		for {
			page, err := d.api.DescribeRules(ctx, &elb.DescribeRulesInput{ListenerArn: l.ListenerArn, Marker: marker})
			if err != nil {
				return nil, fmt.Errorf("describe the rules of the listener on port %d: %w", port, err)
			}
			for _, r := range page.Rules {
				if aws.ToBool(r.IsDefault) {
					continue
				}
				var priority int32
				if _, err := fmt.Sscan(aws.ToString(r.Priority), &priority); err == nil {
					byPriority[priority] = r
				}
			}
			if marker = page.NextMarker; marker == nil {
				break
			}
		}
		out[port] = byPriority
	}
	return out, nil
}

// wantedRule returns the spec's rule; ok is false while a target group it forwards to does
// not exist yet.
func wantedRule(r v1alpha1.ListenerRule, groups map[string]types.TargetGroup) (rule, bool) {
	act, ok := wantedAction(r.Action, groups)
	if !ok {
		return rule{}, false
	}
	return rule{conditions: conditionKey(sdkConditions(r.Conditions)), act: act}, true
}

// observedRule returns AWS's rule in the comparable form.
func observedRule(r types.Rule) rule {
	return rule{conditions: conditionKey(r.Conditions), act: observedAction(r.Actions)}
}

// conditionKey returns conditions in the comparable form: each condition's values are taken
// from its configuration (AWS describes host-header and path-pattern conditions in both the
// legacy Values and the configuration).
func conditionKey(conditions []types.RuleCondition) string {
	keys := make([]string, 0, len(conditions))
	for _, c := range conditions {
		field := aws.ToString(c.Field)
		var values []string
		switch {
		case c.HostHeaderConfig != nil:
			values = c.HostHeaderConfig.Values
		case c.PathPatternConfig != nil:
			values = c.PathPatternConfig.Values
		case c.HttpHeaderConfig != nil:
			field += "(" + strings.ToLower(aws.ToString(c.HttpHeaderConfig.HttpHeaderName)) + ")"
			values = c.HttpHeaderConfig.Values
		case c.QueryStringConfig != nil:
			for _, kv := range c.QueryStringConfig.Values {
				values = append(values, aws.ToString(kv.Key)+"="+aws.ToString(kv.Value))
			}
		case c.SourceIpConfig != nil:
			values = c.SourceIpConfig.Values
		case c.HttpRequestMethodConfig != nil:
			values = c.HttpRequestMethodConfig.Values
		default:
			values = c.Values
		}
		values = slices.Sorted(slices.Values(values))
		keys = append(keys, field+":"+strings.Join(values, ","))
	}
	slices.Sort(keys)
	return strings.Join(keys, "\n")
}

// sdkConditions returns the spec's conditions as ELBv2 takes them, each in its configuration
// form.
func sdkConditions(conditions []v1alpha1.RuleCondition) []types.RuleCondition {
	out := make([]types.RuleCondition, 0, len(conditions))
	for _, c := range conditions {
		var rc types.RuleCondition
		switch {
		case len(c.HostHeader) > 0:
			rc = types.RuleCondition{Field: aws.String("host-header"), HostHeaderConfig: &types.HostHeaderConditionConfig{Values: c.HostHeader}}
		case len(c.PathPattern) > 0:
			rc = types.RuleCondition{Field: aws.String("path-pattern"), PathPatternConfig: &types.PathPatternConditionConfig{Values: c.PathPattern}}
		case c.HTTPHeader != nil:
			rc = types.RuleCondition{Field: aws.String("http-header"), HttpHeaderConfig: &types.HttpHeaderConditionConfig{
				HttpHeaderName: aws.String(c.HTTPHeader.Name), Values: c.HTTPHeader.Values}}
		case len(c.QueryString) > 0:
			pairs := make([]types.QueryStringKeyValuePair, len(c.QueryString))
			for i, kv := range c.QueryString {
				pairs[i] = types.QueryStringKeyValuePair{Key: optional(kv.Key), Value: aws.String(kv.Value)}
			}
			rc = types.RuleCondition{Field: aws.String("query-string"), QueryStringConfig: &types.QueryStringConditionConfig{Values: pairs}}
		case len(c.SourceIP) > 0:
			rc = types.RuleCondition{Field: aws.String("source-ip"), SourceIpConfig: &types.SourceIpConditionConfig{Values: c.SourceIP}}
		case len(c.HTTPRequestMethod) > 0:
			rc = types.RuleCondition{Field: aws.String("http-request-method"), HttpRequestMethodConfig: &types.HttpRequestMethodConditionConfig{Values: c.HTTPRequestMethod}}
		}
		out = append(out, rc)
	}
	return out
}

// ruleChanges is what makes one listener's rules the spec's, in the order the calls go: the
// rules to delete (which frees their priorities), the priority moves of rules that are
// already right but at another priority (one SetRulePriorities, so that a swap is atomic), the
// rules to modify in place, and the rules to create.
type ruleChanges struct {
	remove []string
	moves  []types.RulePriorityPair
	modify map[string]v1alpha1.ListenerRule
	create []v1alpha1.ListenerRule
}

// empty reports whether nothing differs.
func (c ruleChanges) empty() bool {
	return len(c.remove)+len(c.moves)+len(c.modify)+len(c.create) == 0
}

// diffRules compares a listener's wanted rules (by priority, in the comparable form) with AWS's
// and returns the changes: a rule equal to a wanted one at the same priority stays; one equal
// to a wanted rule at another priority moves there; one at the priority of a wanted rule that
// nothing else matched is modified; the others are deleted, and the wanted rules left over are
// created.
func diffRules(spec []v1alpha1.ListenerRule, want map[int32]rule, got map[int32]types.Rule) ruleChanges {
	c := ruleChanges{modify: map[string]v1alpha1.ListenerRule{}}
	byPriority := map[int32]v1alpha1.ListenerRule{}
	for _, r := range spec {
		byPriority[r.Priority] = r
	}
	matched := map[int32]bool{} // wanted priorities that an existing rule serves
	used := map[int32]bool{}    // AWS priorities whose rule is kept, moved or modified
	for p, w := range want {
		if g, ok := got[p]; ok && observedRule(g) == w {
			matched[p], used[p] = true, true
		}
	}
	for _, p := range slices.Sorted(maps.Keys(want)) {
		if matched[p] {
			continue
		}
		for _, gp := range slices.Sorted(maps.Keys(got)) {
			if !used[gp] && observedRule(got[gp]) == want[p] {
				c.moves = append(c.moves, types.RulePriorityPair{RuleArn: got[gp].RuleArn, Priority: aws.Int32(p)})
				matched[p], used[gp] = true, true
				break
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(want)) {
		if matched[p] {
			continue
		}
		if g, ok := got[p]; ok && !used[p] {
			c.modify[aws.ToString(g.RuleArn)] = byPriority[p]
			used[p] = true
			continue
		}
		c.create = append(c.create, byPriority[p])
	}
	for _, gp := range slices.Sorted(maps.Keys(got)) {
		if !used[gp] {
			c.remove = append(c.remove, aws.ToString(got[gp].RuleArn))
		}
	}
	return c
}

// planRules plans, for each listener of the spec that exists, the changes that make its rules
// the spec's (diffRules). A listener with a rule whose target group does not exist yet waits:
// the target groups' change creates the group, and the next look plans its rules.
func (d *driver[O]) planRules(v view, st *State) managed.Plan {
	var plan managed.Plan
	for _, l := range v.spec.Listeners {
		got, exists := st.Rules[l.Port]
		if !exists {
			continue
		}
		want := map[int32]rule{}
		ready := true
		for _, r := range l.Rules {
			w, ok := wantedRule(r, st.Groups)
			ready = ready && ok
			want[r.Priority] = w
		}
		if !ready {
			continue
		}
		if c := diffRules(l.Rules, want, got); !c.empty() {
			listener := st.Listeners[l.Port].ListenerArn
			plan.Add("rules", func(ctx context.Context) error { return d.applyRules(ctx, l.Port, listener, c, st) })
		}
	}
	return plan
}

// applyRules makes the calls of one listener's rule changes.
func (d *driver[O]) applyRules(ctx context.Context, port int32, listener *string, c ruleChanges, st *State) error {
	for _, arn := range c.remove {
		if _, err := d.api.DeleteRule(ctx, &elb.DeleteRuleInput{RuleArn: aws.String(arn)}); err != nil && !awserr.IsNotFound(err) {
			return fmt.Errorf("delete rule %s of the listener on port %d: %w", arn, port, err)
		}
	}
	if len(c.moves) > 0 {
		if _, err := d.api.SetRulePriorities(ctx, &elb.SetRulePrioritiesInput{RulePriorities: c.moves}); err != nil {
			return fmt.Errorf("set the priorities of %d rules of the listener on port %d: %w", len(c.moves), port, err)
		}
	}
	for _, arn := range slices.Sorted(maps.Keys(c.modify)) {
		r := c.modify[arn]
		w, _ := wantedRule(r, st.Groups)
		in := &elb.ModifyRuleInput{RuleArn: aws.String(arn), Conditions: sdkConditions(r.Conditions), Actions: w.act.sdk()}
		if _, err := d.api.ModifyRule(ctx, in); err != nil {
			return fmt.Errorf("modify the rule of priority %d of the listener on port %d: %w", r.Priority, port, err)
		}
	}
	for _, r := range c.create {
		w, _ := wantedRule(r, st.Groups)
		in := &elb.CreateRuleInput{ListenerArn: listener, Priority: aws.Int32(r.Priority), Conditions: sdkConditions(r.Conditions), Actions: w.act.sdk()}
		if _, err := d.api.CreateRule(ctx, in); err != nil {
			return fmt.Errorf("create the rule of priority %d of the listener on port %d: %w", r.Priority, port, err)
		}
	}
	return nil
}

// ruleStatus returns the rules of a listener as the status lists them, by priority.
func ruleStatus(rules map[int32]types.Rule) []v1alpha1.RuleStatus {
	var out []v1alpha1.RuleStatus
	for _, p := range slices.Sorted(maps.Keys(rules)) {
		out = append(out, v1alpha1.RuleStatus{Priority: p, ARN: aws.ToString(rules[p].RuleArn)})
	}
	return out
}
