package emulator_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
)

// hostRule is a host-header condition in the legacy Values form.
func hostRule(hosts ...string) []types.RuleCondition {
	return []types.RuleCondition{{Field: aws.String("host-header"), Values: hosts}}
}

// ruleListener returns an HTTP listener of a new ALB forwarding to a new target group.
func ruleListener(t *testing.T, c *elb.Client, n network) (listenerARN, tg *string) {
	t.Helper()
	lb := createLB(t, c, alb("rules", n)).LoadBalancerArn
	tg = createTG(t, c, httpTG("web", n.vpc)).TargetGroupArn
	l, err := c.CreateListener(context.Background(), &elb.CreateListenerInput{LoadBalancerArn: lb, Protocol: types.ProtocolEnumHttp,
		Port: aws.Int32(80), DefaultActions: []types.Action{{Type: types.ActionTypeEnumFixedResponse,
			FixedResponseConfig: &types.FixedResponseActionConfig{StatusCode: aws.String("404")}}}})
	if err != nil {
		t.Fatal(err)
	}
	return l.Listeners[0].ListenerArn, tg
}

// TestELBv2RuleLifecycle creates rules, lists them by priority with the default rule last,
// modifies one, swaps priorities at once, and deletes them; a target group a rule forwards to is
// in use until the rule goes.
func TestELBv2RuleLifecycle(t *testing.T) {
	_, c, n := elbClient(t)
	ctx := context.Background()
	listenerARN, tg := ruleListener(t, c, n)
	api, err := c.CreateRule(ctx, &elb.CreateRuleInput{ListenerArn: listenerARN, Priority: aws.Int32(20), Conditions: hostRule("api.example.com"),
		Actions: forward(tg), Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("web")}}})
	if err != nil {
		t.Fatal(err)
	}
	apiRule := api.Rules[0]
	c0 := apiRule.Conditions[0]
	if aws.ToString(apiRule.Priority) != "20" || aws.ToBool(apiRule.IsDefault) || len(c0.Values) != 1 || c0.HostHeaderConfig == nil ||
		c0.HostHeaderConfig.Values[0] != "api.example.com" || aws.ToString(apiRule.Actions[0].TargetGroupArn) != aws.ToString(tg) ||
		apiRule.Actions[0].ForwardConfig == nil {
		t.Errorf("CreateRule = %+v; want priority 20, both condition forms, a forward action with its config", apiRule)
	}
	static, err := c.CreateRule(ctx, &elb.CreateRuleInput{ListenerArn: listenerARN, Priority: aws.Int32(10), Conditions: []types.RuleCondition{
		{Field: aws.String("path-pattern"), PathPatternConfig: &types.PathPatternConditionConfig{Values: []string{"/static/*"}}},
		{Field: aws.String("http-header"), HttpHeaderConfig: &types.HttpHeaderConditionConfig{HttpHeaderName: aws.String("X-Env"), Values: []string{"prod"}}},
		{Field: aws.String("http-request-method"), HttpRequestMethodConfig: &types.HttpRequestMethodConditionConfig{Values: []string{"GET"}}},
		{Field: aws.String("query-string"), QueryStringConfig: &types.QueryStringConditionConfig{Values: []types.QueryStringKeyValuePair{{Key: aws.String("v"), Value: aws.String("2")}}}},
		{Field: aws.String("source-ip"), SourceIpConfig: &types.SourceIpConditionConfig{Values: []string{"10.0.0.0/8"}}},
	}, Actions: []types.Action{{Type: types.ActionTypeEnumRedirect, RedirectConfig: &types.RedirectActionConfig{StatusCode: types.RedirectActionStatusCodeEnumHttp301, Protocol: aws.String("HTTPS")}}}})
	if err != nil {
		t.Fatal(err)
	}
	staticARN := static.Rules[0].RuleArn
	if got := static.Rules[0].Conditions[0]; len(got.Values) != 1 || got.Values[0] != "/static/*" {
		t.Errorf("path-pattern condition = %+v; want the Values form filled in", got)
	}
	rules, err := c.DescribeRules(ctx, &elb.DescribeRulesInput{ListenerArn: listenerARN})
	if err != nil || len(rules.Rules) != 3 || aws.ToString(rules.Rules[0].Priority) != "10" || aws.ToString(rules.Rules[1].Priority) != "20" ||
		aws.ToString(rules.Rules[2].Priority) != "default" || !aws.ToBool(rules.Rules[2].IsDefault) {
		t.Fatalf("DescribeRules = %+v, %v; want 10, 20, default", rules, err)
	}
	paged, err := c.DescribeRules(ctx, &elb.DescribeRulesInput{ListenerArn: listenerARN, PageSize: aws.Int32(2)})
	if err != nil || len(paged.Rules) != 2 || paged.NextMarker == nil {
		t.Errorf("DescribeRules page of 2 = %+v, %v; want 2 rules and a marker", paged, err)
	}
	tags, err := c.DescribeTags(ctx, &elb.DescribeTagsInput{ResourceArns: []string{aws.ToString(apiRule.RuleArn)}})
	if err != nil || len(tags.TagDescriptions) != 1 || len(tags.TagDescriptions[0].Tags) != 1 {
		t.Errorf("DescribeTags of a rule = %+v, %v; want team=web", tags, err)
	}
	if _, err := c.DeleteTargetGroup(ctx, &elb.DeleteTargetGroupInput{TargetGroupArn: tg}); errorCode(err) != "ResourceInUse" {
		t.Errorf("DeleteTargetGroup used by a rule: %v, want ResourceInUse", err)
	}
	groups, err := c.DescribeTargetGroups(ctx, &elb.DescribeTargetGroupsInput{TargetGroupArns: []string{aws.ToString(tg)}})
	if err != nil || len(groups.TargetGroups[0].LoadBalancerArns) != 1 {
		t.Errorf("target group used by a rule = %+v, %v; want its load balancer", groups, err)
	}
	modified, err := c.ModifyRule(ctx, &elb.ModifyRuleInput{RuleArn: apiRule.RuleArn, Conditions: hostRule("*.example.com"),
		Actions: []types.Action{{Type: types.ActionTypeEnumFixedResponse, FixedResponseConfig: &types.FixedResponseActionConfig{StatusCode: aws.String("503")}}}})
	if err != nil || modified.Rules[0].Conditions[0].Values[0] != "*.example.com" || modified.Rules[0].Actions[0].Type != types.ActionTypeEnumFixedResponse {
		t.Errorf("ModifyRule = %+v, %v", modified, err)
	}
	swapped, err := c.SetRulePriorities(ctx, &elb.SetRulePrioritiesInput{RulePriorities: []types.RulePriorityPair{
		{RuleArn: apiRule.RuleArn, Priority: aws.Int32(10)}, {RuleArn: staticARN, Priority: aws.Int32(20)}}})
	if err != nil || len(swapped.Rules) != 2 {
		t.Fatalf("SetRulePriorities swapping = %+v, %v", swapped, err)
	}
	rules, _ = c.DescribeRules(ctx, &elb.DescribeRulesInput{ListenerArn: listenerARN})
	if aws.ToString(rules.Rules[0].RuleArn) != aws.ToString(apiRule.RuleArn) {
		t.Errorf("after the swap the first rule is %s, want %s", aws.ToString(rules.Rules[0].RuleArn), aws.ToString(apiRule.RuleArn))
	}
	// The target group is free once no rule forwards to it.
	if _, err := c.DeleteTargetGroup(ctx, &elb.DeleteTargetGroupInput{TargetGroupArn: tg}); err != nil {
		t.Errorf("DeleteTargetGroup no rule uses: %v", err)
	}
	defaultARN := rules.Rules[2].RuleArn
	if _, err := c.DeleteRule(ctx, &elb.DeleteRuleInput{RuleArn: defaultARN}); errorCode(err) != "OperationNotPermitted" {
		t.Errorf("DeleteRule of the default rule: %v, want OperationNotPermitted", err)
	}
	if _, err := c.DeleteRule(ctx, &elb.DeleteRuleInput{RuleArn: staticARN}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteRule(ctx, &elb.DeleteRuleInput{RuleArn: staticARN}); errorCode(err) != "RuleNotFound" {
		t.Errorf("DeleteRule twice: %v, want RuleNotFound", err)
	}
	if _, err := c.DeleteListener(ctx, &elb.DeleteListenerInput{ListenerArn: listenerARN}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeRules(ctx, &elb.DescribeRulesInput{RuleArns: []string{aws.ToString(apiRule.RuleArn)}}); errorCode(err) != "RuleNotFound" {
		t.Errorf("DescribeRules of a deleted listener's rule: %v, want RuleNotFound", err)
	}
}

// TestELBv2RuleErrors checks each error of CreateRule, ModifyRule and SetRulePriorities.
func TestELBv2RuleErrors(t *testing.T) {
	_, c, n := elbClient(t)
	ctx := context.Background()
	listenerARN, tg := ruleListener(t, c, n)
	first, err := c.CreateRule(ctx, &elb.CreateRuleInput{ListenerArn: listenerARN, Priority: aws.Int32(1), Conditions: hostRule("a.example.com"), Actions: forward(tg)})
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.CreateRule(ctx, &elb.CreateRuleInput{ListenerArn: listenerARN, Priority: aws.Int32(2), Conditions: hostRule("b.example.com"), Actions: forward(tg)})
	if err != nil {
		t.Fatal(err)
	}
	many := func(field string, n int) []types.RuleCondition {
		vals := make([]string, n)
		for i := range vals {
			vals[i] = string(rune('a'+i)) + ".example.com"
		}
		return []types.RuleCondition{{Field: aws.String(field), Values: vals}}
	}
	for name, tc := range map[string]struct {
		in   *elb.CreateRuleInput
		code string
	}{
		"PriorityInUse":     {&elb.CreateRuleInput{Priority: aws.Int32(1), Conditions: hostRule("c.example.com"), Actions: forward(tg)}, "PriorityInUse"},
		"PriorityTooHigh":   {&elb.CreateRuleInput{Priority: aws.Int32(50001), Conditions: hostRule("c.example.com"), Actions: forward(tg)}, "ValidationError"},
		"NoConditions":      {&elb.CreateRuleInput{Priority: aws.Int32(3), Conditions: []types.RuleCondition{}, Actions: forward(tg)}, "ValidationError"},
		"NoActions":         {&elb.CreateRuleInput{Priority: aws.Int32(3), Conditions: hostRule("c.example.com"), Actions: []types.Action{}}, "ValidationError"},
		"SixValues":         {&elb.CreateRuleInput{Priority: aws.Int32(3), Conditions: many("host-header", 6), Actions: forward(tg)}, "ValidationError"},
		"SixWildcards":      {&elb.CreateRuleInput{Priority: aws.Int32(3), Conditions: hostRule("***.example.com", "???.example.com"), Actions: forward(tg)}, "ValidationError"},
		"TwoHostConditions": {&elb.CreateRuleInput{Priority: aws.Int32(3), Conditions: append(hostRule("c.example.com"), hostRule("d.example.com")...), Actions: forward(tg)}, "ValidationError"},
		"BadHost":           {&elb.CreateRuleInput{Priority: aws.Int32(3), Conditions: hostRule("exa mple.com"), Actions: forward(tg)}, "ValidationError"},
		"BadSourceIP": {&elb.CreateRuleInput{Priority: aws.Int32(3), Conditions: []types.RuleCondition{{Field: aws.String("source-ip"),
			SourceIpConfig: &types.SourceIpConditionConfig{Values: []string{"10.0.0.1"}}}}, Actions: forward(tg)}, "ValidationError"},
		"ValuesOnHeader": {&elb.CreateRuleInput{Priority: aws.Int32(3), Conditions: []types.RuleCondition{{Field: aws.String("http-header"), Values: []string{"x"}}}, Actions: forward(tg)}, "ValidationError"},
		"UnknownField":   {&elb.CreateRuleInput{Priority: aws.Int32(3), Conditions: []types.RuleCondition{{Field: aws.String("cookie"), Values: []string{"x"}}}, Actions: forward(tg)}, "ValidationError"},
		"UnknownGroup":   {&elb.CreateRuleInput{Priority: aws.Int32(3), Conditions: hostRule("c.example.com"), Actions: forward(aws.String(aws.ToString(tg) + "0"))}, "TargetGroupNotFound"},
		"UnknownListener": {&elb.CreateRuleInput{ListenerArn: aws.String(aws.ToString(listenerARN) + "0"), Priority: aws.Int32(3), Conditions: hostRule("c.example.com"),
			Actions: forward(tg)}, "ListenerNotFound"},
	} {
		if tc.in.ListenerArn == nil {
			tc.in.ListenerArn = listenerARN
		}
		if _, err := c.CreateRule(ctx, tc.in); errorCode(err) != tc.code {
			t.Errorf("%s: CreateRule = %v, want %s", name, err, tc.code)
		}
	}
	nlb := createLB(t, c, &elb.CreateLoadBalancerInput{Name: aws.String("edge"), Type: types.LoadBalancerTypeEnumNetwork, Subnets: n.subnets[:1]}).LoadBalancerArn
	tcp := createTG(t, c, &elb.CreateTargetGroupInput{Name: aws.String("tcp"), Protocol: types.ProtocolEnumTcp, Port: aws.Int32(443), VpcId: aws.String(n.vpc)}).TargetGroupArn
	nl, err := c.CreateListener(ctx, &elb.CreateListenerInput{LoadBalancerArn: nlb, Protocol: types.ProtocolEnumTcp, Port: aws.Int32(443), DefaultActions: forward(tcp)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateRule(ctx, &elb.CreateRuleInput{ListenerArn: nl.Listeners[0].ListenerArn, Priority: aws.Int32(1), Conditions: hostRule("a.example.com"),
		Actions: forward(tcp)}); errorCode(err) != "InvalidConfigurationRequest" {
		t.Errorf("CreateRule on an NLB listener: %v, want InvalidConfigurationRequest", err)
	}
	if _, err := c.ModifyRule(ctx, &elb.ModifyRuleInput{RuleArn: aws.String(aws.ToString(first.Rules[0].RuleArn) + "0"), Conditions: hostRule("x.example.com")}); errorCode(err) != "RuleNotFound" {
		t.Errorf("ModifyRule of an unknown rule: %v, want RuleNotFound", err)
	}
	if _, err := c.ModifyRule(ctx, &elb.ModifyRuleInput{RuleArn: first.Rules[0].RuleArn, Conditions: many("host-header", 6)}); errorCode(err) != "ValidationError" {
		t.Errorf("ModifyRule with six values: %v, want ValidationError", err)
	}
	// A conflict leaves every priority as it was.
	if _, err := c.SetRulePriorities(ctx, &elb.SetRulePrioritiesInput{RulePriorities: []types.RulePriorityPair{
		{RuleArn: first.Rules[0].RuleArn, Priority: aws.Int32(5)}, {RuleArn: second.Rules[0].RuleArn, Priority: aws.Int32(5)}}}); errorCode(err) != "PriorityInUse" {
		t.Errorf("SetRulePriorities to one priority: %v, want PriorityInUse", err)
	}
	rules, err := c.DescribeRules(ctx, &elb.DescribeRulesInput{RuleArns: []string{aws.ToString(first.Rules[0].RuleArn)}})
	if err != nil || aws.ToString(rules.Rules[0].Priority) != "1" {
		t.Errorf("priority after a failed SetRulePriorities = %+v, %v; want 1", rules, err)
	}
	if _, err := c.SetRulePriorities(ctx, &elb.SetRulePrioritiesInput{RulePriorities: []types.RulePriorityPair{
		{RuleArn: first.Rules[0].RuleArn, Priority: aws.Int32(2)}}}); errorCode(err) != "PriorityInUse" {
		t.Errorf("SetRulePriorities to a used priority: %v, want PriorityInUse", err)
	}
}

// TestELBv2TooManyRules checks the quota of 100 rules per Application Load Balancer.
func TestELBv2TooManyRules(t *testing.T) {
	_, c, n := elbClient(t)
	ctx := context.Background()
	listenerARN, tg := ruleListener(t, c, n)
	for i := range int32(100) {
		if _, err := c.CreateRule(ctx, &elb.CreateRuleInput{ListenerArn: listenerARN, Priority: aws.Int32(i + 1), Conditions: hostRule("a.example.com"), Actions: forward(tg)}); err != nil {
			t.Fatalf("rule %d: %v", i+1, err)
		}
	}
	if _, err := c.CreateRule(ctx, &elb.CreateRuleInput{ListenerArn: listenerARN, Priority: aws.Int32(101), Conditions: hostRule("a.example.com"), Actions: forward(tg)}); errorCode(err) != "TooManyRules" {
		t.Errorf("rule 101: %v, want TooManyRules", err)
	}
}

// TestELBv2RuleDetails checks weighted forwards, the default rule's protections, conditions in
// both forms, rules across listeners, and that deleting a load balancer deletes its rules.
func TestELBv2RuleDetails(t *testing.T) {
	_, c, n := elbClient(t)
	ctx := context.Background()
	listenerARN, tg := ruleListener(t, c, n)
	blue := createTG(t, c, httpTG("blue", n.vpc)).TargetGroupArn
	weighted, err := c.CreateRule(ctx, &elb.CreateRuleInput{ListenerArn: listenerARN, Priority: aws.Int32(5), Conditions: hostRule("a.example.com"),
		Actions: []types.Action{{Type: types.ActionTypeEnumForward, ForwardConfig: &types.ForwardActionConfig{
			TargetGroups:                []types.TargetGroupTuple{{TargetGroupArn: tg, Weight: aws.Int32(80)}, {TargetGroupArn: blue, Weight: aws.Int32(20)}},
			TargetGroupStickinessConfig: &types.TargetGroupStickinessConfig{Enabled: aws.Bool(true), DurationSeconds: aws.Int32(60)}}}}})
	if err != nil {
		t.Fatal(err)
	}
	fc := weighted.Rules[0].Actions[0].ForwardConfig
	if fc == nil || len(fc.TargetGroups) != 2 || aws.ToInt32(fc.TargetGroups[1].Weight) != 20 || !aws.ToBool(fc.TargetGroupStickinessConfig.Enabled) ||
		weighted.Rules[0].Actions[0].TargetGroupArn != nil {
		t.Errorf("weighted forward = %+v; want two weighted groups with stickiness and no TargetGroupArn", weighted.Rules[0].Actions[0])
	}
	if _, err := c.DeleteTargetGroup(ctx, &elb.DeleteTargetGroupInput{TargetGroupArn: blue}); errorCode(err) != "ResourceInUse" {
		t.Errorf("DeleteTargetGroup weighted in a rule: %v, want ResourceInUse", err)
	}
	rules, err := c.DescribeRules(ctx, &elb.DescribeRulesInput{ListenerArn: listenerARN})
	if err != nil || len(rules.Rules) != 2 {
		t.Fatalf("DescribeRules = %+v, %v", rules, err)
	}
	defaultARN := rules.Rules[1].RuleArn
	if _, err := c.ModifyRule(ctx, &elb.ModifyRuleInput{RuleArn: defaultARN, Conditions: hostRule("b.example.com")}); errorCode(err) != "OperationNotPermitted" {
		t.Errorf("ModifyRule of the default rule: %v, want OperationNotPermitted", err)
	}
	if _, err := c.SetRulePriorities(ctx, &elb.SetRulePrioritiesInput{RulePriorities: []types.RulePriorityPair{{RuleArn: defaultARN, Priority: aws.Int32(9)}}}); errorCode(err) != "OperationNotPermitted" {
		t.Errorf("SetRulePriorities of the default rule: %v, want OperationNotPermitted", err)
	}
	if _, err := c.AddTags(ctx, &elb.AddTagsInput{ResourceArns: []string{aws.ToString(weighted.Rules[0].RuleArn)}, Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}}); err != nil {
		t.Errorf("AddTags on a rule: %v", err)
	}
	for name, conditions := range map[string][]types.RuleCondition{
		"ValuesAndOtherConfig": {{Field: aws.String("host-header"), Values: []string{"a.example.com"}, HostHeaderConfig: &types.HostHeaderConditionConfig{Values: []string{"b.example.com"}}}},
		"QueryWithoutValue":    {{Field: aws.String("query-string"), QueryStringConfig: &types.QueryStringConditionConfig{Values: []types.QueryStringKeyValuePair{{Key: aws.String("k")}}}}},
		"MethodWildcard":       {{Field: aws.String("http-request-method"), HttpRequestMethodConfig: &types.HttpRequestMethodConditionConfig{Values: []string{"GE*"}}}},
		"HeaderWithoutName":    {{Field: aws.String("http-header"), HttpHeaderConfig: &types.HttpHeaderConditionConfig{Values: []string{"x"}}}},
		"EmptyConfig":          {{Field: aws.String("path-pattern"), PathPatternConfig: &types.PathPatternConditionConfig{}}},
	} {
		if _, err := c.CreateRule(ctx, &elb.CreateRuleInput{ListenerArn: listenerARN, Priority: aws.Int32(6), Conditions: conditions, Actions: forward(tg)}); errorCode(err) != "ValidationError" {
			t.Errorf("%s: CreateRule = %v, want ValidationError", name, err)
		}
	}
	lb := createLB(t, c, alb("other", n)).LoadBalancerArn
	other, err := c.CreateListener(ctx, &elb.CreateListenerInput{LoadBalancerArn: lb, Protocol: types.ProtocolEnumHttp, Port: aws.Int32(80),
		DefaultActions: []types.Action{{Type: types.ActionTypeEnumFixedResponse, FixedResponseConfig: &types.FixedResponseActionConfig{StatusCode: aws.String("200")}}}})
	if err != nil {
		t.Fatal(err)
	}
	otherRule, err := c.CreateRule(ctx, &elb.CreateRuleInput{ListenerArn: other.Listeners[0].ListenerArn, Priority: aws.Int32(5), Conditions: hostRule("a.example.com"),
		Actions: []types.Action{{Type: types.ActionTypeEnumFixedResponse, FixedResponseConfig: &types.FixedResponseActionConfig{StatusCode: aws.String("200")}}}})
	if err != nil {
		t.Fatalf("CreateRule with a priority another listener uses: %v", err)
	}
	if _, err := c.SetRulePriorities(ctx, &elb.SetRulePrioritiesInput{RulePriorities: []types.RulePriorityPair{
		{RuleArn: weighted.Rules[0].RuleArn, Priority: aws.Int32(7)}, {RuleArn: otherRule.Rules[0].RuleArn, Priority: aws.Int32(8)}}}); errorCode(err) != "ValidationError" {
		t.Errorf("SetRulePriorities across listeners: %v, want ValidationError", err)
	}
	if _, err := c.DeleteLoadBalancer(ctx, &elb.DeleteLoadBalancerInput{LoadBalancerArn: lb}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeRules(ctx, &elb.DescribeRulesInput{RuleArns: []string{aws.ToString(otherRule.Rules[0].RuleArn)}}); errorCode(err) != "RuleNotFound" {
		t.Errorf("DescribeRules of a deleted load balancer's rule: %v, want RuleNotFound", err)
	}
}
