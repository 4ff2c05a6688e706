package elasticacheparametergroup

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/caching/internal/ectags"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what ElastiCache said about a parameter group, handed from Observe to Delete and
// ReleaseOwnership.
type State struct {
	// Group is DescribeCacheParameterGroups' answer.
	Group *types.CacheParameterGroup
}

// Observe reads the group by its name (DescribeCacheParameterGroups), its tags
// (ListTagsForResource) and the parameters users set in it (DescribeCacheParameters with Source
// user, 100 a page), fills the status, and plans the tags and the parameters that differ from
// the spec. A group of the name that another object made is refused by managed.Claim; one of
// another family is a terminal condition.
func (d *driver) Observe(ctx context.Context, g *v1alpha1.ElastiCacheParameterGroup, req managed.Request) (managed.Observation[State], error) {
	name := groupName(g)
	out, err := d.api.DescribeCacheParameterGroups(ctx, &elasticache.DescribeCacheParameterGroupsInput{CacheParameterGroupName: aws.String(name)})
	if awserr.IsNotFound(err) || (err == nil && len(out.CacheParameterGroups) == 0) {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("describe cache parameter group %s: %w", name, err)
	}
	group := &out.CacheParameterGroups[0]
	arn := aws.ToString(group.ARN)
	tags, err := ectags.Read(ctx, d.api, arn)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if err := managed.Claim(g, "cache parameter group", name, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	g.Status.Name, g.Status.ARN = name, arn
	obs := managed.Observation[State]{Exists: true, Ready: true, State: &State{Group: group}, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	if family := aws.ToString(group.CacheParameterGroupFamily); family != g.Spec.Family {
		obs.Conflict = managed.Terminal(condition.ReasonInvalidSpec, "cache parameter group %s is of family %s, not %s: a group's family cannot change; "+
			"give this object another name (spec.name) for a group of %s", name, family, g.Spec.Family, g.Spec.Family)
		return obs, nil
	}
	user, err := d.userParameters(ctx, name)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	ectags.Plan(&obs.Changes, d.api, arn, req.Tags, tags)
	d.planParameters(&obs.Changes, g, name, user)
	return obs, nil
}

// userParameters returns the values users set in the group, by parameter name, reading every
// page.
func (d *driver) userParameters(ctx context.Context, name string) (map[string]string, error) {
	out := map[string]string{}
	in := &elasticache.DescribeCacheParametersInput{CacheParameterGroupName: aws.String(name), Source: aws.String("user"), MaxRecords: aws.Int32(100)}
	for {
		page, err := d.api.DescribeCacheParameters(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("describe the parameters of cache parameter group %s: %w", name, err)
		}
		for _, p := range page.Parameters {
			out[aws.ToString(p.ParameterName)] = aws.ToString(p.ParameterValue)
		}
		if aws.ToString(page.Marker) == "" {
			return out, nil
		}
		in.Marker = page.Marker
	}
}
