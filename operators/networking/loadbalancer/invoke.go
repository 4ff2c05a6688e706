package loadbalancer

import (
	"context"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/lambdagrant"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// invoker writes the statements that let Elastic Load Balancing invoke Lambda targets.
func (d *driver[O]) invoker() lambdagrant.Invoker {
	return lambdagrant.Invoker{API: d.lambda, Principal: "elasticloadbalancing.amazonaws.com", Name: "the target group"}
}

// statementID returns the Sid of the statement that lets target group arn invoke a function:
// one per target group, from the end of its ARN ("targetgroup/<name>/<id>").
func statementID(arn string) string {
	_, rest, _ := strings.Cut(arn, ":targetgroup/")
	return "infra-operator-elbv2-" + strings.ReplaceAll(rest, "/", "-")
}

// grant returns the statement that lets target group tg invoke function fn.
func grant(fn, tg string) lambdagrant.Grant {
	return lambdagrant.Grant{Function: fn, StatementID: statementID(tg), SourceARN: tg}
}

// recorded returns the statements status.invokeGrants records.
func recorded(v view) []lambdagrant.Grant {
	out := make([]lambdagrant.Grant, len(v.status.InvokeGrants))
	for i, g := range v.status.InvokeGrants {
		out[i] = grant(g.FunctionARN, g.TargetGroupARN)
	}
	return out
}

// planInvokeGrants plans the statements that let the spec's Lambda target groups (those that
// exist) invoke their functions, and the removal of those status.invokeGrants records that no
// target needs any more; status.invokeGrants follows what was done. A function named by ARN
// gets the statement only when an object of this namespace made it (lambdagrant), or the plan
// fails, before any write, with a terminal error.
func (d *driver[O]) planInvokeGrants(ctx context.Context, o shared.Managed, v view, st *State, plan *managed.Plan) error {
	var want []lambdagrant.Grant
	for _, g := range v.spec.TargetGroups {
		got, exists := st.Groups[g.Name]
		if !exists || g.TargetType != string(types.TargetTypeEnumLambda) {
			continue
		}
		for _, t := range g.Targets {
			if t.LambdaFunctionARN != "" {
				want = append(want, grant(t.LambdaFunctionARN, aws.ToString(got.TargetGroupArn)))
			}
		}
	}
	if len(want) == 0 && len(v.status.InvokeGrants) == 0 {
		return nil
	}
	now, err := d.invoker().Plan(ctx, o, want, recorded(v), plan, "invokeGrants", func(g lambdagrant.Grant, added bool) {
		v.status.InvokeGrants = slices.DeleteFunc(v.status.InvokeGrants, func(r v1alpha1.InvokeGrant) bool {
			return r.FunctionARN == g.Function && statementID(r.TargetGroupARN) == g.StatementID
		})
		if added {
			v.status.InvokeGrants = sortedGrants(append(v.status.InvokeGrants, v1alpha1.InvokeGrant{FunctionARN: g.Function, TargetGroupARN: g.SourceARN}))
		}
	})
	if err != nil {
		return err
	}
	// Every grant, wanted or recorded, has its target group as source (grant).
	granted := make([]v1alpha1.InvokeGrant, 0, len(now))
	for _, g := range now {
		granted = append(granted, v1alpha1.InvokeGrant{FunctionARN: g.Function, TargetGroupARN: g.SourceARN})
	}
	v.status.InvokeGrants = sortedGrants(granted)
	return nil
}

// sortedGrants sorts grants by function, then target group.
func sortedGrants(grants []v1alpha1.InvokeGrant) []v1alpha1.InvokeGrant {
	slices.SortFunc(grants, func(a, b v1alpha1.InvokeGrant) int {
		return strings.Compare(a.FunctionARN+" "+a.TargetGroupARN, b.FunctionARN+" "+b.TargetGroupARN)
	})
	return grants
}

// revokeInvokeGrants removes every statement status.invokeGrants records, when the load
// balancer is deleted.
func (d *driver[O]) revokeInvokeGrants(ctx context.Context, v view) error {
	if len(v.status.InvokeGrants) == 0 {
		return nil
	}
	if err := d.invoker().Revoke(ctx, recorded(v)); err != nil {
		return err
	}
	v.status.InvokeGrants = nil
	return nil
}
