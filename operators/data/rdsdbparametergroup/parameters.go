package rdsdbparametergroup

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// batch is how many parameters one ModifyDBParameterGroup or ResetDBParameterGroup (or their
// cluster counterparts) takes.
const batch = 20

// planParameters plans what makes the group's user-set parameters the spec's (see
// managed.PlanParameters): a parameter of the spec's value is set again when the spec names
// another apply method than AWS reports.
func (d *driver) planParameters(changes *managed.Plan, g *v1alpha1.RDSDBParameterGroup, name string, user map[string]types.Parameter) {
	current := make(map[string]string, len(user))
	for n, p := range user {
		current[n] = aws.ToString(p.ParameterValue)
	}
	managed.PlanParameters(changes, managed.ParameterSet[v1alpha1.DBParameter]{Desired: g.Spec.Parameters, Current: current,
		Name: func(p v1alpha1.DBParameter) string { return p.Name }, Value: func(p v1alpha1.DBParameter) string { return p.Value },
		InSync: func(p v1alpha1.DBParameter) bool {
			cur, ok := user[p.Name]
			return ok && aws.ToString(cur.ParameterValue) == p.Value && (p.ApplyMethod == "" || string(cur.ApplyMethod) == p.ApplyMethod)
		}}, func(ctx context.Context, set []v1alpha1.DBParameter, reset []string) error {
		if err := d.setParameters(ctx, name, set); err != nil {
			return err
		}
		return d.resetParameters(ctx, name, reset)
	})
}

// setParameters sets parameters in batches of 20, each with the spec's apply method, or, when
// the spec gives none, the one its apply type allows (immediate for a dynamic parameter,
// pending-reboot for a static one), read with one listing of the group's parameters.
func (d *driver) setParameters(ctx context.Context, name string, params []v1alpha1.DBParameter) error {
	var all map[string]types.Parameter
	out := make([]types.Parameter, 0, len(params))
	for _, p := range params {
		method := types.ApplyMethod(p.ApplyMethod)
		if method == "" {
			if all == nil {
				var err error
				if all, err = d.parameters(ctx, name, nil); err != nil {
					return err
				}
			}
			method = types.ApplyMethodImmediate
			if aws.ToString(all[p.Name].ApplyType) == "static" {
				method = types.ApplyMethodPendingReboot
			}
		}
		out = append(out, types.Parameter{ParameterName: aws.String(p.Name), ParameterValue: aws.String(p.Value), ApplyMethod: method})
	}
	return managed.InBatches(out, batch, func(chunk []types.Parameter) error {
		return managed.Wrap(d.groups.modify(ctx, name, chunk), "set parameters of %s %s", d.groups.what(), name)
	})
}

// resetParameters returns parameters to the engine's defaults in batches of 20, applied at the
// instances' next reboot (the method every parameter takes).
func (d *driver) resetParameters(ctx context.Context, name string, names []string) error {
	return managed.InBatches(names, batch, func(chunk []string) error {
		params := make([]types.Parameter, 0, len(chunk))
		for _, n := range chunk {
			params = append(params, types.Parameter{ParameterName: aws.String(n), ApplyMethod: types.ApplyMethodPendingReboot})
		}
		return managed.Wrap(d.groups.reset(ctx, name, params), "reset parameters of %s %s", d.groups.what(), name)
	})
}
