package elbv2

import (
	"regexp"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

func invalidAction(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidLoadBalancerAction", format, args...)
}

// fixedStatus matches the status codes of fixed responses: 2XX, 4XX or 5XX.
var fixedStatus = regexp.MustCompile(`^[245]\d\d$`)

// checkActions checks the default actions of a listener l of lb, or the actions of one of its
// rules, and returns them as AWS
// describes them: a forward action to one target group shows both TargetGroupArn and a
// ForwardConfig, redirects show every component with its #{...} default.
func (r *region) checkActions(lb *loadBalancer, l *listener, actions []types.Action) ([]types.Action, error) {
	if len(actions) == 0 {
		return nil, validation("At least one default action must be specified")
	}
	if len(actions) > 1 {
		return nil, invalidAction("Actions must be exactly one forward, redirect or fixed-response action; authenticate actions are not emulated")
	}
	a := actions[0]
	if lb.typ == types.LoadBalancerTypeEnumNetwork && a.Type != types.ActionTypeEnumForward {
		return nil, invalidAction("Action type '%s' is not supported by Network Load Balancers", a.Type)
	}
	switch a.Type {
	case types.ActionTypeEnumForward:
		return r.checkForward(lb, l, a)
	case types.ActionTypeEnumRedirect:
		return checkRedirect(a)
	case types.ActionTypeEnumFixedResponse:
		return checkFixedResponse(a)
	case types.ActionTypeEnumAuthenticateOidc, types.ActionTypeEnumAuthenticateCognito, types.ActionTypeEnumJwtValidation:
		return nil, invalidAction("The emulator does not emulate '%s' actions", a.Type)
	}
	return nil, validation("Action type '%s' must be one of 'forward, redirect, fixed-response, authenticate-oidc, authenticate-cognito, jwt-validation'", a.Type)
}

// checkForward checks a forward action: its target groups must exist, suit the listener's
// protocol, be in the load balancer's VPC and not be used by another load balancer.
func (r *region) checkForward(lb *loadBalancer, l *listener, a types.Action) ([]types.Action, error) {
	var tuples []types.TargetGroupTuple
	if a.ForwardConfig != nil {
		tuples = slices.Clone(a.ForwardConfig.TargetGroups)
	}
	switch {
	case a.TargetGroupArn != nil && len(tuples) == 0:
		tuples = []types.TargetGroupTuple{{TargetGroupArn: a.TargetGroupArn}}
	case a.TargetGroupArn != nil && (len(tuples) != 1 || aws.ToString(tuples[0].TargetGroupArn) != *a.TargetGroupArn):
		return nil, invalidAction("You cannot specify both a target group ARN and a forward configuration with other target groups")
	case len(tuples) == 0:
		return nil, validation("A target group ARN must be specified for forward actions")
	case len(tuples) > 5 || (len(tuples) > 1 && lb.typ == types.LoadBalancerTypeEnumNetwork):
		return nil, invalidAction("Too many target groups in the forward action")
	}
	for i, t := range tuples {
		tg, err := r.targetGroup(t.TargetGroupArn)
		if err != nil {
			return nil, err
		}
		if err := r.checkTarget(lb, l, tg); err != nil {
			return nil, err
		}
		if err := inRange("weight", t.Weight, 0, 999); err != nil {
			return nil, err
		}
		if t.Weight == nil {
			tuples[i].Weight = aws.Int32(1)
		}
	}
	stickiness := &types.TargetGroupStickinessConfig{Enabled: aws.Bool(false)}
	if a.ForwardConfig != nil && a.ForwardConfig.TargetGroupStickinessConfig != nil {
		stickiness = a.ForwardConfig.TargetGroupStickinessConfig
		if err := inRange("durationSeconds", stickiness.DurationSeconds, 1, 604800); err != nil {
			return nil, err
		}
	}
	out := types.Action{Type: a.Type, Order: a.Order, ForwardConfig: &types.ForwardActionConfig{TargetGroups: tuples, TargetGroupStickinessConfig: stickiness}}
	if len(tuples) == 1 {
		out.TargetGroupArn = tuples[0].TargetGroupArn
	}
	return []types.Action{out}, nil
}

// checkTarget checks that a listener may forward to a target group.
func (r *region) checkTarget(lb *loadBalancer, l *listener, tg *targetGroup) error {
	compatible := tg.isHTTP() || tg.isLambda()
	if lb.typ == types.LoadBalancerTypeEnumNetwork {
		compatible = !tg.isLambda() && slices.Contains(targetProtocols[l.protocol], tg.protocol) &&
			(tg.targetType != types.TargetTypeEnumAlb || l.protocol == types.ProtocolEnumTcp)
	}
	if !compatible {
		return core.Errorf("IncompatibleProtocols", "Listener protocol '%s' is not compatible with target group protocol '%s'", l.protocol, tg.protocol)
	}
	if !tg.isLambda() && tg.vpc != lb.vpc {
		return invalidConfig("Target group '%s' is in VPC '%s', not in the load balancer's VPC '%s'", tg.arn, tg.vpc, lb.vpc)
	}
	for _, other := range r.usersOf(tg.arn) {
		if other != lb.arn {
			return core.Errorf("TargetGroupAssociationLimit", "The following target groups cannot be associated with more than one load balancer: %s", tg.arn)
		}
	}
	return nil
}

func checkRedirect(a types.Action) ([]types.Action, error) {
	c := a.RedirectConfig
	if c == nil {
		return nil, validation("A redirect configuration must be specified for redirect actions")
	}
	if _, err := oneOf("statusCode", c.StatusCode, "", types.RedirectActionStatusCodeEnumHttp301, types.RedirectActionStatusCodeEnumHttp302); err != nil || c.StatusCode == "" {
		return nil, validation("Redirect status code must be one of 'HTTP_301, HTTP_302'")
	}
	out := *c
	for _, f := range []struct {
		v   **string
		def string
	}{{&out.Host, "#{host}"}, {&out.Path, "/#{path}"}, {&out.Port, "#{port}"}, {&out.Protocol, "#{protocol}"}, {&out.Query, "#{query}"}} {
		if *f.v == nil {
			*f.v = aws.String(f.def)
		}
	}
	if !slices.Contains([]string{"HTTP", "HTTPS", "#{protocol}"}, *out.Protocol) {
		return nil, validation("Redirect protocol must be one of 'HTTP, HTTPS, #{protocol}'")
	}
	return []types.Action{{Type: a.Type, Order: a.Order, RedirectConfig: &out}}, nil
}

func checkFixedResponse(a types.Action) ([]types.Action, error) {
	c := a.FixedResponseConfig
	switch {
	case c == nil:
		return nil, validation("A fixed response configuration must be specified for fixed-response actions")
	case !fixedStatus.MatchString(aws.ToString(c.StatusCode)):
		return nil, validation("Fixed response status code '%s' must be a 2XX, 4XX or 5XX code", aws.ToString(c.StatusCode))
	case c.ContentType != nil && !slices.Contains([]string{"text/plain", "text/css", "text/html", "application/javascript", "application/json"}, *c.ContentType):
		return nil, validation("Fixed response content type must be one of 'text/plain, text/css, text/html, application/javascript, application/json'")
	case len(aws.ToString(c.MessageBody)) > 1024:
		return nil, validation("Fixed response message body must be at most 1024 characters")
	}
	out := *c
	return []types.Action{{Type: a.Type, Order: a.Order, FixedResponseConfig: &out}}, nil
}
