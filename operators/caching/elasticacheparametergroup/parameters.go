package elasticacheparametergroup

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// batch is how many parameters one ModifyCacheParameterGroup or ResetCacheParameterGroup takes.
const batch = 20

// planParameters plans what makes the group's user-set parameters the spec's (see
// managed.PlanParameters): the parameters to set, then those to reset to the family's defaults.
func (d *driver) planParameters(changes *managed.Plan, g *v1alpha1.ElastiCacheParameterGroup, name string, user map[string]string) {
	managed.PlanParameters(changes, managed.ParameterSet[v1alpha1.CacheParameter]{Desired: g.Spec.Parameters, Current: user,
		Name: func(p v1alpha1.CacheParameter) string { return p.Name }, Value: func(p v1alpha1.CacheParameter) string { return p.Value }},
		func(ctx context.Context, set []v1alpha1.CacheParameter, reset []string) error {
			if err := d.setParameters(ctx, name, set); err != nil {
				return err
			}
			return d.resetParameters(ctx, name, reset)
		})
}

// setParameters sets parameters in batches of 20 (ModifyCacheParameterGroup).
func (d *driver) setParameters(ctx context.Context, name string, params []v1alpha1.CacheParameter) error {
	return managed.InBatches(params, batch, func(chunk []v1alpha1.CacheParameter) error {
		values := make([]types.ParameterNameValue, 0, len(chunk))
		for _, p := range chunk {
			values = append(values, types.ParameterNameValue{ParameterName: aws.String(p.Name), ParameterValue: aws.String(p.Value)})
		}
		_, err := d.api.ModifyCacheParameterGroup(ctx, &elasticache.ModifyCacheParameterGroupInput{CacheParameterGroupName: aws.String(name), ParameterNameValues: values})
		return managed.Wrap(err, "set parameters of cache parameter group %s", name)
	})
}

// resetParameters returns parameters to the family's defaults in batches of 20
// (ResetCacheParameterGroup with their names).
func (d *driver) resetParameters(ctx context.Context, name string, names []string) error {
	return managed.InBatches(names, batch, func(chunk []string) error {
		values := make([]types.ParameterNameValue, 0, len(chunk))
		for _, n := range chunk {
			values = append(values, types.ParameterNameValue{ParameterName: aws.String(n)})
		}
		_, err := d.api.ResetCacheParameterGroup(ctx, &elasticache.ResetCacheParameterGroupInput{CacheParameterGroupName: aws.String(name),
			ParameterNameValues: values, ResetAllParameters: aws.Bool(false)})
		return managed.Wrap(err, "reset parameters of cache parameter group %s", name)
	})
}
