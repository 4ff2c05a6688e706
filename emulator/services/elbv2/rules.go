package elbv2

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// defaultRuleARN is the ARN of a listener's default rule: the listener's ARN under
// listener-rule/, with 16 hex digits derived from it, so that it is stable.
func defaultRuleARN(l *listener) string {
	sum := sha256.Sum256([]byte(l.arn))
	return strings.Replace(l.arn, ":listener/", ":listener-rule/", 1) + "/" + hex.EncodeToString(sum[:8])
}

// defaultRule is a listener's default rule as DescribeRules reports it: priority "default",
// no conditions, and the listener's default actions.
func defaultRule(l *listener) types.Rule {
	return types.Rule{RuleArn: aws.String(defaultRuleARN(l)), Priority: aws.String("default"), IsDefault: aws.Bool(true),
		Conditions: []types.RuleCondition{}, Actions: l.actions}
}

// describeRules lists the rules of a listener, or the rules RuleArns names. Rules other than
// the default one (CreateRule) are not emulated, so each listener has only its default rule.
func (b *Backend) describeRules(call *core.Call, in *elb.DescribeRulesInput) (*elb.DescribeRulesOutput, error) {
	if (in.ListenerArn == nil) == (len(in.RuleArns) == 0) {
		return nil, validation("You must specify either listener rule ARNs or a listener ARN")
	}
	return core.Locked(b.state, call, func(r *region) (*elb.DescribeRulesOutput, error) {
		if in.ListenerArn != nil {
			l, err := r.listener(in.ListenerArn)
			if err != nil {
				return nil, err
			}
			return &elb.DescribeRulesOutput{Rules: []types.Rule{defaultRule(l)}}, nil
		}
		byARN := map[string]*listener{}
		for _, l := range r.listeners {
			byARN[defaultRuleARN(l)] = l
		}
		out := &elb.DescribeRulesOutput{}
		arns := append([]string(nil), in.RuleArns...)
		sort.Strings(arns)
		for _, arn := range arns {
			l, ok := byARN[arn]
			if !ok {
				return nil, core.Errorf("RuleNotFound", "One or more rules not found")
			}
			out.Rules = append(out.Rules, defaultRule(l))
		}
		return out, nil
	})
}
