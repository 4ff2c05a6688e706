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

// Create creates the group of the spec's family with req.Tags (ownership included) and records
// its name; its parameters are set by the next pass, as changes that complete the creation.
// ElastiCache has no idempotency token: a name taken in the meantime is no error, and the next
// Observe claims the group or refuses it by its tags.
func (d *driver) Create(ctx context.Context, g *v1alpha1.ElastiCacheParameterGroup, req managed.Request) error {
	name := groupName(g)
	_, err := d.api.CreateCacheParameterGroup(ctx, &elasticache.CreateCacheParameterGroupInput{CacheParameterGroupName: aws.String(name),
		CacheParameterGroupFamily: aws.String(g.Spec.Family), Description: aws.String(g.Spec.Description), Tags: ectags.List(req.Tags)})
	if err != nil && awserr.Code(err) != "CacheParameterGroupAlreadyExists" {
		return managed.Wrap(err, "create cache parameter group %s", name)
	}
	if err == nil {
		managed.SetExternalName(g, name)
	}
	return nil
}
