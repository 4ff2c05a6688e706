package elbv2

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxRules is how many rules besides the default ones an Application Load Balancer may have
// (Quotas for your Application Load Balancers: rules per Application Load Balancer).
const maxRules = 100

// rule is one listener rule other than the listener's default rule.
type rule struct {
	arn, listener string
	priority      int32
	conditions    []types.RuleCondition
	actions       []types.Action
}

func (ru *rule) describe() types.Rule {
	return types.Rule{RuleArn: aws.String(ru.arn), Priority: aws.String(fmt.Sprint(ru.priority)), IsDefault: aws.Bool(false),
		Conditions: slices.Clone(ru.conditions), Actions: slices.Clone(ru.actions)}
}

// defaultRuleARN is the ARN of a listener's default rule: the listener's ARN under
// listener-rule/, with 16 hex digits derived from it, so that it is stable.
func defaultRuleARN(l *listener) string {
	sum := sha256.Sum256([]byte(l.arn))
	return l.ruleARNPrefix() + hex.EncodeToString(sum[:8])
}

// defaultRule is a listener's default rule as DescribeRules reports it: priority "default",
// no conditions, and the listener's default actions.
func defaultRule(l *listener) types.Rule {
	return types.Rule{RuleArn: aws.String(defaultRuleARN(l)), Priority: aws.String("default"), IsDefault: aws.Bool(true),
		Conditions: []types.RuleCondition{}, Actions: l.actions}
}

// rulesOf returns the ARNs of a listener's rules by priority, its default rule last.
func (r *region) rulesOf(l *listener) []string {
	var rules []*rule
	for _, ru := range r.rules {
		if ru.listener == l.arn {
			rules = append(rules, ru)
		}
	}
	slices.SortFunc(rules, func(a, b *rule) int { return int(a.priority - b.priority) })
	out := make([]string, 0, len(rules)+1)
	for _, ru := range rules {
		out = append(out, ru.arn)
	}
	return append(out, defaultRuleARN(l))
}

// describeRule describes the rule or default rule an ARN of the region names.
func (r *region) describeRule(arn string) (types.Rule, bool) {
	if ru := r.rules[arn]; ru != nil {
		return ru.describe(), true
	}
	for _, l := range r.listeners {
		if defaultRuleARN(l) == arn {
			return defaultRule(l), true
		}
	}
	return types.Rule{}, false
}

func ruleNotFound(arn string) error {
	return core.Errorf("RuleNotFound", "One or more rules not found: '%s'", arn)
}

// checkPriority checks a rule's priority: 1 to 50000, not used by another rule of the listener.
func (r *region) checkPriority(listenerARN, self string, priority *int32) error {
	if priority == nil {
		return validation("A priority must be specified")
	}
	if err := inRange("priority", priority, 1, 50000); err != nil {
		return err
	}
	for _, other := range r.rules {
		if other.listener == listenerARN && other.priority == *priority && other.arn != self {
			return core.Errorf("PriorityInUse", "Priority '%d' is currently in use", *priority)
		}
	}
	return nil
}

// ruleActions checks the actions of a rule of listener l: rules belong to the listeners of
// Application Load Balancers only, whose listeners alone route on conditions.
func (r *region) ruleActions(l *listener, actions []types.Action) ([]types.Action, error) {
	lb := r.lbs[l.lb]
	if lb.typ != types.LoadBalancerTypeEnumApplication {
		return nil, invalidConfig("Rules can only be created on the listeners of Application Load Balancers")
	}
	if len(actions) == 0 {
		return nil, validation("At least one action must be specified")
	}
	return r.checkActions(lb, l, actions)
}

// newRule checks what CreateRule says of a rule other than its conditions and tags.
func (r *region) newRule(in *elb.CreateRuleInput) (*rule, error) {
	l, err := r.listener(in.ListenerArn)
	if err != nil {
		return nil, err
	}
	ru := &rule{arn: l.ruleARNPrefix() + newID(), listener: l.arn}
	if ru.actions, err = r.ruleActions(l, in.Actions); err != nil {
		return nil, err
	}
	if err := r.checkPriority(l.arn, "", in.Priority); err != nil {
		return nil, err
	}
	ru.priority = *in.Priority
	count := 0
	for _, other := range r.rules {
		if r.listeners[other.listener].lb == l.lb {
			count++
		}
	}
	if count >= maxRules {
		return nil, core.Errorf("TooManyRules", "You've reached the limit on the number of rules per load balancer (%d)", maxRules)
	}
	return ru, nil
}

func (b *Backend) createRule(call *core.Call, in *elb.CreateRuleInput) (*elb.CreateRuleOutput, error) {
	conditions, err := checkConditions(in.Conditions)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*elb.CreateRuleOutput, error) {
		ru, err := r.newRule(in)
		if err != nil {
			return nil, err
		}
		ru.conditions = conditions
		tags, err := requestTags(in.Tags)
		if err == nil {
			err = r.tags.Merge(tags, ru.arn)
		}
		if err != nil {
			return nil, err
		}
		r.rules[ru.arn] = ru
		return &elb.CreateRuleOutput{Rules: []types.Rule{ru.describe()}}, nil
	})
}

// describeRules lists the rules of a listener by priority with its default rule last, or the
// rules RuleArns names.
func (b *Backend) describeRules(call *core.Call, in *elb.DescribeRulesInput) (*elb.DescribeRulesOutput, error) {
	if (in.ListenerArn == nil) == (len(in.RuleArns) == 0) {
		return nil, validation("You must specify either listener rule ARNs or a listener ARN")
	}
	return core.Locked(b.state, call, func(r *region) (*elb.DescribeRulesOutput, error) {
		described := map[string]types.Rule{}
		var arns []string
		if in.ListenerArn != nil {
			l, err := r.listener(in.ListenerArn)
			if err != nil {
				return nil, err
			}
			arns = r.rulesOf(l)
		} else {
			arns = slices.Compact(slices.Sorted(slices.Values(in.RuleArns)))
		}
		for _, arn := range arns {
			d, ok := r.describeRule(arn)
			if !ok {
				return nil, ruleNotFound(arn)
			}
			described[arn] = d
		}
		rules, next, err := page(arns, in.Marker, in.PageSize, func(arn string) types.Rule { return described[arn] })
		return &elb.DescribeRulesOutput{Rules: rules, NextMarker: next}, err
	})
}

// modifyRule replaces a rule's conditions or actions. The default rule's actions are the
// listener's default actions (ModifyListener); its conditions cannot be given.
func (b *Backend) modifyRule(call *core.Call, in *elb.ModifyRuleInput) (*elb.ModifyRuleOutput, error) {
	var conditions []types.RuleCondition
	if in.Conditions != nil {
		var err error
		if conditions, err = checkConditions(in.Conditions); err != nil {
			return nil, err
		}
	}
	return core.Locked(b.state, call, func(r *region) (*elb.ModifyRuleOutput, error) {
		ru := r.rules[aws.ToString(in.RuleArn)]
		if ru == nil {
			if _, ok := r.describeRule(aws.ToString(in.RuleArn)); ok {
				return nil, core.Errorf("OperationNotPermitted", "Default rule '%s' cannot be modified; modify the listener's default actions", aws.ToString(in.RuleArn))
			}
			return nil, ruleNotFound(aws.ToString(in.RuleArn))
		}
		actions := ru.actions
		if in.Actions != nil {
			var err error
			if actions, err = r.ruleActions(r.listeners[ru.listener], in.Actions); err != nil {
				return nil, err
			}
		}
		if conditions != nil {
			ru.conditions = conditions
		}
		ru.actions = actions
		return &elb.ModifyRuleOutput{Rules: []types.Rule{ru.describe()}}, nil
	})
}

// setRulePriorities changes the priorities of rules of one listener at once: every priority is
// checked against the listener's rules as they will be, and nothing changes on an error.
func (b *Backend) setRulePriorities(call *core.Call, in *elb.SetRulePrioritiesInput) (*elb.SetRulePrioritiesOutput, error) {
	if len(in.RulePriorities) == 0 {
		return nil, validation("At least one rule priority must be specified")
	}
	return core.Locked(b.state, call, func(r *region) (*elb.SetRulePrioritiesOutput, error) {
		next := map[string]int32{}
		listenerARN := ""
		for _, p := range in.RulePriorities {
			arn := aws.ToString(p.RuleArn)
			ru := r.rules[arn]
			if ru == nil {
				if _, ok := r.describeRule(arn); ok {
					return nil, core.Errorf("OperationNotPermitted", "The priority of default rule '%s' cannot be changed", arn)
				}
				return nil, ruleNotFound(arn)
			}
			if listenerARN != "" && ru.listener != listenerARN {
				return nil, validation("The rules must belong to the same listener")
			}
			listenerARN = ru.listener
			if p.Priority == nil {
				return nil, validation("A priority must be specified for rule '%s'", arn)
			}
			if err := inRange("priority", p.Priority, 1, 50000); err != nil {
				return nil, err
			}
			next[arn] = *p.Priority
		}
		used := map[int32]string{}
		for _, ru := range r.rules {
			if ru.listener != listenerARN {
				continue
			}
			priority, ok := next[ru.arn]
			if !ok {
				priority = ru.priority
			}
			if other, taken := used[priority]; taken && other != ru.arn {
				return nil, core.Errorf("PriorityInUse", "Priority '%d' is currently in use", priority)
			}
			used[priority] = ru.arn
		}
		out := &elb.SetRulePrioritiesOutput{}
		for arn, priority := range next {
			r.rules[arn].priority = priority
		}
		for _, arn := range slices.Sorted(maps.Keys(next)) {
			out.Rules = append(out.Rules, r.rules[arn].describe())
		}
		return out, nil
	})
}

// deleteRule deletes a rule; a listener's default rule is deleted with the listener only.
func (b *Backend) deleteRule(call *core.Call, in *elb.DeleteRuleInput) (*elb.DeleteRuleOutput, error) {
	arn := aws.ToString(in.RuleArn)
	return core.Locked(b.state, call, func(r *region) (*elb.DeleteRuleOutput, error) {
		if r.rules[arn] == nil {
			if _, ok := r.describeRule(arn); ok {
				return nil, core.Errorf("OperationNotPermitted", "Default rule '%s' cannot be deleted", arn)
			}
			return nil, ruleNotFound(arn)
		}
		r.deleteRules(func(ru *rule) bool { return ru.arn == arn })
		return &elb.DeleteRuleOutput{}, nil
	})
}

// deleteRules deletes the rules that match, with their tags.
func (r *region) deleteRules(match func(*rule) bool) {
	for arn, ru := range r.rules {
		if match(ru) {
			delete(r.rules, arn)
			r.tags.Delete(arn)
		}
	}
}
