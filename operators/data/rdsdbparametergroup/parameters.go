package rdsdbparametergroup

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// batch is how many parameters one ModifyDBParameterGroup or ResetDBParameterGroup takes.
const batch = 20

// planParameters plans what makes the group's user-set parameters the spec's: the parameters
// to set (added, of another value, or of another apply method than the spec names) and those to
// reset to the engine's defaults (set in AWS, not in the spec), shown with AWS's and the spec's
// values, in one plan entry.
func (d *driver) planParameters(changes *managed.Plan, g *v1alpha1.RDSDBParameterGroup, name string, user map[string]types.Parameter) {
	var set []v1alpha1.DBParameter
	var reset, fields []string
	values := map[string]managed.Values{}
	for _, p := range g.Spec.Parameters {
		cur, ok := user[p.Name]
		if ok && aws.ToString(cur.ParameterValue) == p.Value && (p.ApplyMethod == "" || string(cur.ApplyMethod) == p.ApplyMethod) {
			continue
		}
		set = append(set, p)
		field := "parameters[" + p.Name + "]"
		fields, values[field] = append(fields, field), managed.ValuesOf(aws.ToString(cur.ParameterValue), p.Value)
	}
	for n, cur := range user {
		if !slices.ContainsFunc(g.Spec.Parameters, func(p v1alpha1.DBParameter) bool { return p.Name == n }) {
			reset = append(reset, n)
			field := "parameters[" + n + "]"
			fields, values[field] = append(fields, field), managed.ValuesOf(aws.ToString(cur.ParameterValue), "(engine default)")
		}
	}
	slices.Sort(reset)
	slices.Sort(fields)
	changes.AddFieldValues(fields, values, func(ctx context.Context) error {
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
	for chunk := range slices.Chunk(out, batch) {
		if _, err := d.api.ModifyDBParameterGroup(ctx, &rds.ModifyDBParameterGroupInput{DBParameterGroupName: aws.String(name), Parameters: chunk}); err != nil {
			return managed.Wrap(err, "set parameters of DB parameter group %s", name)
		}
	}
	return nil
}

// resetParameters returns parameters to the engine's defaults in batches of 20, applied at the
// instances' next reboot (the method every parameter takes).
func (d *driver) resetParameters(ctx context.Context, name string, names []string) error {
	for chunk := range slices.Chunk(names, batch) {
		params := make([]types.Parameter, 0, len(chunk))
		for _, n := range chunk {
			params = append(params, types.Parameter{ParameterName: aws.String(n), ApplyMethod: types.ApplyMethodPendingReboot})
		}
		if _, err := d.api.ResetDBParameterGroup(ctx, &rds.ResetDBParameterGroupInput{DBParameterGroupName: aws.String(name), Parameters: params}); err != nil {
			return managed.Wrap(err, "reset parameters of DB parameter group %s", name)
		}
	}
	return nil
}
