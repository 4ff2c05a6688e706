package loadbalancer

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
)

// action is a listener's default action or a rule's action in a comparable form, with AWS's
// defaults filled in (a redirect keeps every part of the request it does not name, a weight
// left out is 1).
type action struct {
	typ    types.ActionTypeEnum
	target string
	// weighted is a forward to several target groups, or to one with stickiness, as the
	// sorted "arn=weight" pairs joined by commas; sticky is the stickiness duration (0: off).
	weighted                                                   string
	sticky                                                     int32
	redirectProtocol, redirectPort, redirectHost, redirectPath string
	redirectQuery, redirectStatus                              string
	fixedStatus, fixedContentType, fixedBody                   string
}

// Redirect defaults: the part of the request each component keeps when the spec leaves it out.
const (
	keepProtocol = "#{protocol}"
	keepPort     = "#{port}"
	keepHost     = "#{host}"
	keepPath     = "/#{path}"
	keepQuery    = "#{query}"
)

// wantedAction returns the spec's action; ok is false while a forward action's target group
// does not exist yet.
func wantedAction(a v1alpha1.Action, groups map[string]types.TargetGroup) (want action, ok bool) {
	switch {
	case a.Forward != nil && len(a.Forward.TargetGroups) > 0:
		tuples := make([]types.TargetGroupTuple, 0, len(a.Forward.TargetGroups))
		for _, w := range a.Forward.TargetGroups {
			arn := w.ARN
			if w.Name != "" {
				g, found := groups[w.Name]
				if !found {
					return action{}, false
				}
				arn = aws.ToString(g.TargetGroupArn)
			}
			tuples = append(tuples, types.TargetGroupTuple{TargetGroupArn: aws.String(arn), Weight: w.Weight})
		}
		var sticky *types.TargetGroupStickinessConfig
		if st := a.Forward.Stickiness; st != nil {
			sticky = &types.TargetGroupStickinessConfig{Enabled: aws.Bool(st.Enabled), DurationSeconds: st.DurationSeconds}
		}
		return forward(tuples, sticky), true
	case a.Forward != nil:
		want.typ, want.target = types.ActionTypeEnumForward, a.Forward.TargetGroupARN
		if a.Forward.TargetGroup != "" {
			g, found := groups[a.Forward.TargetGroup]
			if !found {
				return action{}, false
			}
			want.target = aws.ToString(g.TargetGroupArn)
		}
	case a.Redirect != nil:
		r := a.Redirect
		want.typ, want.redirectStatus = types.ActionTypeEnumRedirect, r.StatusCode
		want.redirectProtocol, want.redirectPort = cmp.Or(r.Protocol, keepProtocol), cmp.Or(r.Port, keepPort)
		want.redirectHost, want.redirectPath, want.redirectQuery = cmp.Or(r.Host, keepHost), cmp.Or(r.Path, keepPath), cmp.Or(r.Query, keepQuery)
	case a.FixedResponse != nil:
		f := a.FixedResponse
		want.typ, want.fixedStatus, want.fixedContentType, want.fixedBody = types.ActionTypeEnumFixedResponse, f.StatusCode, f.ContentType, f.MessageBody
	}
	return want, true
}

// observedAction returns AWS's default action of a listener (the first, as the operator
// sets one).
func observedAction(actions []types.Action) action {
	if len(actions) == 0 {
		return action{}
	}
	a := actions[0]
	if a.Type == types.ActionTypeEnumForward && a.ForwardConfig != nil && len(a.ForwardConfig.TargetGroups) > 0 {
		return forward(a.ForwardConfig.TargetGroups, a.ForwardConfig.TargetGroupStickinessConfig)
	}
	got := action{typ: a.Type, target: aws.ToString(a.TargetGroupArn)}
	if r := a.RedirectConfig; r != nil {
		got.redirectStatus = string(r.StatusCode)
		got.redirectProtocol, got.redirectPort = cmp.Or(aws.ToString(r.Protocol), keepProtocol), cmp.Or(aws.ToString(r.Port), keepPort)
		got.redirectHost, got.redirectPath, got.redirectQuery = cmp.Or(aws.ToString(r.Host), keepHost), cmp.Or(aws.ToString(r.Path), keepPath), cmp.Or(aws.ToString(r.Query), keepQuery)
	}
	if f := a.FixedResponseConfig; f != nil {
		got.fixedStatus, got.fixedContentType, got.fixedBody = aws.ToString(f.StatusCode), aws.ToString(f.ContentType), aws.ToString(f.MessageBody)
	}
	return got
}

// sdk returns the action as ELBv2 takes it.
func (a action) sdk() []types.Action {
	out := types.Action{Type: a.typ}
	switch a.typ {
	case types.ActionTypeEnumForward:
		if a.weighted == "" {
			out.TargetGroupArn = aws.String(a.target)
			break
		}
		cfg := &types.ForwardActionConfig{TargetGroupStickinessConfig: &types.TargetGroupStickinessConfig{Enabled: aws.Bool(a.sticky > 0)}}
		if a.sticky > 0 {
			cfg.TargetGroupStickinessConfig.DurationSeconds = aws.Int32(a.sticky)
		}
		for pair := range strings.SplitSeq(a.weighted, ",") {
			arn, weight, _ := strings.Cut(pair, "=")
			w, _ := strconv.Atoi(weight)
			cfg.TargetGroups = append(cfg.TargetGroups, types.TargetGroupTuple{TargetGroupArn: aws.String(arn), Weight: aws.Int32(int32(w))})
		}
		out.ForwardConfig = cfg
	case types.ActionTypeEnumRedirect:
		out.RedirectConfig = &types.RedirectActionConfig{StatusCode: types.RedirectActionStatusCodeEnum(a.redirectStatus),
			Protocol: aws.String(a.redirectProtocol), Port: aws.String(a.redirectPort), Host: aws.String(a.redirectHost),
			Path: aws.String(a.redirectPath), Query: aws.String(a.redirectQuery)}
	case types.ActionTypeEnumFixedResponse:
		out.FixedResponseConfig = &types.FixedResponseActionConfig{StatusCode: aws.String(a.fixedStatus),
			ContentType: optional(a.fixedContentType), MessageBody: optional(a.fixedBody)}
	}
	return []types.Action{out}
}

// optional returns nil for an empty string, a pointer to s otherwise.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}

// forward returns a forward to the target groups of tuples (a weight left out is 1) with
// stickiness: a forward to one group without stickiness, however described, is the plain
// forward to that group.
func forward(tuples []types.TargetGroupTuple, sticky *types.TargetGroupStickinessConfig) action {
	duration := int32(0)
	if sticky != nil && aws.ToBool(sticky.Enabled) {
		duration = max(aws.ToInt32(sticky.DurationSeconds), 1)
	}
	if len(tuples) == 1 && duration == 0 {
		return action{typ: types.ActionTypeEnumForward, target: aws.ToString(tuples[0].TargetGroupArn)}
	}
	pairs := make([]string, len(tuples))
	for i, t := range tuples {
		weight := int32(1)
		if t.Weight != nil {
			weight = *t.Weight
		}
		pairs[i] = fmt.Sprintf("%s=%d", aws.ToString(t.TargetGroupArn), weight)
	}
	slices.Sort(pairs)
	return action{typ: types.ActionTypeEnumForward, weighted: strings.Join(pairs, ","), sticky: duration}
}
