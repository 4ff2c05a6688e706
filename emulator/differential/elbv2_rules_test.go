package differential

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// balancing is one side of the ELBv2 rules and targets comparison: its clients, what the setup
// made (an ALB's HTTP listener and an ip target group it forwards to) and the rules the steps
// create.
type balancing struct {
	ec2            *ec2.Client
	elb            *elb.Client
	settle         func()
	listener, tg   string
	first, second  string
	defaultRuleARN string
}

// setup makes the ALB, its listener and its target group on one side.
func (c *balancing) setup(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	vpc, err := c.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.0.0.0/16")})
	if err != nil {
		t.Fatal(err)
	}
	var subnets []string
	for i, zone := range []string{"us-east-1a", "us-east-1b"} {
		s, err := c.ec2.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, AvailabilityZone: aws.String(zone), CidrBlock: aws.String("10.0." + strconv.Itoa(i+1) + ".0/24")})
		if err != nil {
			t.Fatal(err)
		}
		subnets = append(subnets, aws.ToString(s.Subnet.SubnetId))
	}
	lb, err := c.elb.CreateLoadBalancer(ctx, &elb.CreateLoadBalancerInput{Name: aws.String("diff-rules"), Subnets: subnets})
	if err != nil {
		t.Fatal(err)
	}
	tg, err := c.elb.CreateTargetGroup(ctx, &elb.CreateTargetGroupInput{Name: aws.String("diff-web"), Protocol: types.ProtocolEnumHttp, Port: aws.Int32(8080),
		VpcId: vpc.Vpc.VpcId, TargetType: types.TargetTypeEnumIp})
	if err != nil {
		t.Fatal(err)
	}
	c.tg = aws.ToString(tg.TargetGroups[0].TargetGroupArn)
	l, err := c.elb.CreateListener(ctx, &elb.CreateListenerInput{LoadBalancerArn: lb.LoadBalancers[0].LoadBalancerArn, Protocol: types.ProtocolEnumHttp,
		Port: aws.Int32(80), DefaultActions: []types.Action{{Type: types.ActionTypeEnumFixedResponse, FixedResponseConfig: &types.FixedResponseActionConfig{StatusCode: aws.String("404")}}}})
	if err != nil {
		t.Fatal(err)
	}
	c.listener = aws.ToString(l.Listeners[0].ListenerArn)
}

// ruleFields are what the comparison looks at of a rule. A condition's values are those of its
// configuration when it has one, else its legacy Values: AWS describes host-header and
// path-pattern conditions in both forms, moto in the form it was given.
func ruleFields(r types.Rule) map[string]string {
	var conds []string
	for _, c := range r.Conditions {
		vals := c.Values
		switch {
		case c.HostHeaderConfig != nil:
			vals = c.HostHeaderConfig.Values
		case c.PathPatternConfig != nil:
			vals = c.PathPatternConfig.Values
		}
		conds = append(conds, aws.ToString(c.Field)+"="+strings.Join(vals, ","))
	}
	var actions []string
	for _, a := range r.Actions {
		actions = append(actions, string(a.Type))
	}
	return map[string]string{"priority": aws.ToString(r.Priority), "default": strconv.FormatBool(aws.ToBool(r.IsDefault)),
		"conditions": strings.Join(conds, ";"), "actions": strings.Join(actions, ",")}
}

func hosts(values ...string) []types.RuleCondition {
	return []types.RuleCondition{{Field: aws.String("host-header"), Values: values}}
}

func (c *balancing) forward() []types.Action {
	return []types.Action{{Type: types.ActionTypeEnumForward, TargetGroupArn: aws.String(c.tg)}}
}

// createRule is a step that creates a rule and keeps its ARN in keep when it succeeds.
func createRule(priority int32, conditions []types.RuleCondition, keep func(c *balancing) *string) func(c *balancing) outcome {
	return func(c *balancing) outcome {
		out, err := c.elb.CreateRule(context.Background(), &elb.CreateRuleInput{ListenerArn: aws.String(c.listener), Priority: aws.Int32(priority),
			Conditions: conditions, Actions: c.forward()})
		if err != nil {
			return observe(err, nil)
		}
		if keep != nil {
			*keep(c) = aws.ToString(out.Rules[0].RuleArn)
		}
		return observe(nil, ruleFields(out.Rules[0]))
	}
}

// targetHealth is a step that reports the state and reason of each target of the group.
func targetHealth(c *balancing) outcome {
	out, err := c.elb.DescribeTargetHealth(context.Background(), &elb.DescribeTargetHealthInput{TargetGroupArn: aws.String(c.tg)})
	if err != nil {
		return observe(err, nil)
	}
	fields := map[string]string{}
	for _, d := range out.TargetHealthDescriptions {
		fields[aws.ToString(d.Target.Id)] = string(d.TargetHealth.State) + "/" + string(d.TargetHealth.Reason)
	}
	return observe(nil, fields)
}

func ruleSteps() []step[*balancing] {
	ctx := context.Background()
	ip := []types.TargetDescription{{Id: aws.String("10.0.1.10")}}
	return []step[*balancing]{
		{"TargetsUnused", func(c *balancing) outcome {
			if _, err := c.elb.RegisterTargets(ctx, &elb.RegisterTargetsInput{TargetGroupArn: aws.String(c.tg), Targets: ip}); err != nil {
				return observe(err, nil)
			}
			return targetHealth(c)
		}},
		{"CreateRule", createRule(10, hosts("api.example.com"), func(c *balancing) *string { return &c.first })},
		{"CreateRulePriorityInUse", createRule(10, hosts("www.example.com"), nil)},
		{"CreateRuleSixValues", createRule(30, hosts("a.example.com", "b.example.com", "c.example.com", "d.example.com", "e.example.com", "f.example.com"), nil)},
		{"CreateRulePathConfig", createRule(20, []types.RuleCondition{{Field: aws.String("path-pattern"),
			PathPatternConfig: &types.PathPatternConditionConfig{Values: []string{"/static/*"}}}}, func(c *balancing) *string { return &c.second })},
		{"TargetsInUse", func(c *balancing) outcome {
			c.settle()
			return targetHealth(c)
		}},
		{"DescribeRules", func(c *balancing) outcome {
			out, err := c.elb.DescribeRules(ctx, &elb.DescribeRulesInput{ListenerArn: aws.String(c.listener)})
			if err != nil {
				return observe(err, nil)
			}
			var priorities []string
			for _, r := range out.Rules {
				priorities = append(priorities, aws.ToString(r.Priority))
				if aws.ToBool(r.IsDefault) {
					c.defaultRuleARN = aws.ToString(r.RuleArn)
				}
			}
			return observe(nil, map[string]string{"priorities": strings.Join(priorities, ",")})
		}},
		{"ModifyRule", func(c *balancing) outcome {
			out, err := c.elb.ModifyRule(ctx, &elb.ModifyRuleInput{RuleArn: aws.String(c.first), Conditions: hosts("*.example.com")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, ruleFields(out.Rules[0]))
		}},
		{"SetRulePrioritiesConflict", func(c *balancing) outcome {
			_, err := c.elb.SetRulePriorities(ctx, &elb.SetRulePrioritiesInput{RulePriorities: []types.RulePriorityPair{{RuleArn: aws.String(c.first), Priority: aws.Int32(20)}}})
			return observe(err, nil)
		}},
		{"SetRulePrioritiesSwap", func(c *balancing) outcome {
			out, err := c.elb.SetRulePriorities(ctx, &elb.SetRulePrioritiesInput{RulePriorities: []types.RulePriorityPair{
				{RuleArn: aws.String(c.first), Priority: aws.Int32(20)}, {RuleArn: aws.String(c.second), Priority: aws.Int32(10)}}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"rules": strconv.Itoa(len(out.Rules))})
		}},
		{"DeleteTargetGroupInUse", func(c *balancing) outcome {
			_, err := c.elb.DeleteTargetGroup(ctx, &elb.DeleteTargetGroupInput{TargetGroupArn: aws.String(c.tg)})
			return observe(err, nil)
		}},
		{"DeleteDefaultRule", func(c *balancing) outcome {
			_, err := c.elb.DeleteRule(ctx, &elb.DeleteRuleInput{RuleArn: aws.String(c.defaultRuleARN)})
			return observe(err, nil)
		}},
		{"DeleteRule", func(c *balancing) outcome {
			_, err := c.elb.DeleteRule(ctx, &elb.DeleteRuleInput{RuleArn: aws.String(c.first)})
			return observe(err, nil)
		}},
		{"DeleteRuleAgain", func(c *balancing) outcome {
			_, err := c.elb.DeleteRule(ctx, &elb.DeleteRuleInput{RuleArn: aws.String(c.first)})
			return observe(err, nil)
		}},
		{"Deregister", func(c *balancing) outcome {
			if _, err := c.elb.DeregisterTargets(ctx, &elb.DeregisterTargetsInput{TargetGroupArn: aws.String(c.tg), Targets: ip}); err != nil {
				return observe(err, nil)
			}
			return targetHealth(c)
		}},
		{"DeregisterUnregistered", func(c *balancing) outcome {
			_, err := c.elb.DeregisterTargets(ctx, &elb.DeregisterTargetsInput{TargetGroupArn: aws.String(c.tg), Targets: []types.TargetDescription{{Id: aws.String("10.0.1.99")}}})
			return observe(err, nil)
		}},
	}
}

// TestELBv2RulesAgainstMoto compares listener rules and target registration with moto's.
func TestELBv2RulesAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	emuCfg, peerCfg := sdkConfig(t, emu.URL), sdkConfig(t, peerURL)
	emuSide := &balancing{ec2: ec2.NewFromConfig(emuCfg), elb: elb.NewFromConfig(emuCfg), settle: func() { e.Clock.Advance(time.Minute) }}
	peerSide := &balancing{ec2: ec2.NewFromConfig(peerCfg), elb: elb.NewFromConfig(peerCfg), settle: func() {}}
	emuSide.setup(t)
	peerSide.setup(t)
	compare(t, emuSide, peerSide, "moto "+motoVersion, ruleSteps(), map[string]string{
		"TargetsUnused": "moto reports a target healthy in a group no listener or rule forwards to; AWS reports it unused with reason " +
			"Target.NotInUse (TargetHealth, Reason)",
		"SetRulePrioritiesSwap": "moto checks each new priority against the current ones, so swapping two rules is PriorityInUse; AWS applies " +
			"the new priorities at once and only refuses conflicts in the new order (SetRulePriorities)",
		"DeleteDefaultRule": "moto fails with an HTTP 500 and a malformed error body; AWS answers OperationNotPermitted: the default rule " +
			"goes with its listener only (DeleteRule)",
		"DeleteRuleAgain": "moto accepts deleting a rule that no longer exists; AWS answers RuleNotFound (DeleteRule, Errors)",
		"Deregister": "moto removes a deregistered target at once; AWS reports it draining with reason Target.DeregistrationInProgress " +
			"for the group's deregistration delay (deregistration_delay.timeout_seconds, 300 s by default)",
	})
}
