package emulator_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
)

// TestELBv2RulesAndTargetHealth checks the reads controllers make of listeners and target
// groups: each listener's default rule, and target health without registered targets.
func TestELBv2RulesAndTargetHealth(t *testing.T) {
	_, c, n := elbClient(t)
	ctx := context.Background()
	lb := createLB(t, c, alb("rules", n)).LoadBalancerArn
	tg := createTG(t, c, httpTG("rules", n.vpc)).TargetGroupArn
	l, err := c.CreateListener(ctx, &elb.CreateListenerInput{LoadBalancerArn: lb, Protocol: types.ProtocolEnumHttp, Port: aws.Int32(80), DefaultActions: forward(tg)})
	if err != nil {
		t.Fatal(err)
	}
	listenerARN := l.Listeners[0].ListenerArn
	rules, err := c.DescribeRules(ctx, &elb.DescribeRulesInput{ListenerArn: listenerARN})
	if err != nil || len(rules.Rules) != 1 {
		t.Fatalf("DescribeRules = %+v, %v; want the default rule", rules, err)
	}
	rule := rules.Rules[0]
	if !aws.ToBool(rule.IsDefault) || aws.ToString(rule.Priority) != "default" || len(rule.Actions) != 1 ||
		aws.ToString(rule.Actions[0].TargetGroupArn) != aws.ToString(tg) || !strings.Contains(aws.ToString(rule.RuleArn), ":listener-rule/app/rules/") {
		t.Errorf("default rule = %+v", rule)
	}
	byARN, err := c.DescribeRules(ctx, &elb.DescribeRulesInput{RuleArns: []string{aws.ToString(rule.RuleArn)}})
	if err != nil || len(byARN.Rules) != 1 || aws.ToString(byARN.Rules[0].RuleArn) != aws.ToString(rule.RuleArn) {
		t.Errorf("DescribeRules by ARN = %+v, %v", byARN, err)
	}
	if _, err := c.DescribeRules(ctx, &elb.DescribeRulesInput{RuleArns: []string{aws.ToString(rule.RuleArn) + "0"}}); errorCode(err) != "RuleNotFound" {
		t.Errorf("DescribeRules of an unknown rule: %v, want RuleNotFound", err)
	}
	if _, err := c.DescribeRules(ctx, &elb.DescribeRulesInput{}); errorCode(err) != "ValidationError" {
		t.Errorf("DescribeRules without a listener or rules: %v, want ValidationError", err)
	}
	health, err := c.DescribeTargetHealth(ctx, &elb.DescribeTargetHealthInput{TargetGroupArn: tg})
	if err != nil || len(health.TargetHealthDescriptions) != 0 {
		t.Errorf("DescribeTargetHealth = %+v, %v; want no targets", health, err)
	}
	health, err = c.DescribeTargetHealth(ctx, &elb.DescribeTargetHealthInput{TargetGroupArn: tg, Targets: []types.TargetDescription{{Id: aws.String("i-0123456789abcdef0")}}})
	if err != nil || len(health.TargetHealthDescriptions) != 1 || health.TargetHealthDescriptions[0].TargetHealth.State != types.TargetHealthStateEnumUnused ||
		health.TargetHealthDescriptions[0].TargetHealth.Reason != types.TargetHealthReasonEnumNotRegistered {
		t.Errorf("DescribeTargetHealth of an unregistered target = %+v, %v; want unused, Target.NotRegistered", health, err)
	}
	if _, err := c.DescribeTargetHealth(ctx, &elb.DescribeTargetHealthInput{TargetGroupArn: aws.String(aws.ToString(tg) + "0")}); errorCode(err) != "TargetGroupNotFound" {
		t.Errorf("DescribeTargetHealth of an unknown group: %v, want TargetGroupNotFound", err)
	}
}
