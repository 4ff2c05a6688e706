package elasticacheparametergroup

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/caching/internal/ectags"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the group. ElastiCache refuses to delete a group a cluster uses
// (InvalidCacheParameterGroupState): a retryable dependency error, so that the object goes once
// the clusters use another group or are gone.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.ElastiCacheParameterGroup, obs managed.Observation[State]) error {
	name := aws.ToString(obs.State.Group.CacheParameterGroupName)
	_, err := d.api.DeleteCacheParameterGroup(ctx, &elasticache.DeleteCacheParameterGroupInput{CacheParameterGroupName: aws.String(name)})
	if err == nil || awserr.IsNotFound(err) {
		return nil
	}
	return managed.Wrap(err, "delete cache parameter group %s", name)
}

// ReleaseOwnership removes the ownership tags from the group, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.ElastiCacheParameterGroup, obs managed.Observation[State]) error {
	return ectags.Release(ctx, d.api, aws.ToString(obs.State.Group.ARN), obs.Tags)
}
