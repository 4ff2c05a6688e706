package rdsdbparametergroup

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdstags"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what RDS said about a parameter group, handed from Observe to Delete and
// ReleaseOwnership.
type State struct {
	// Group is the group as DescribeDBParameterGroups or DescribeDBClusterParameterGroups
	// answered.
	Group *group
}

// Observe reads the group of the spec's scope by its name (DescribeDBParameterGroups or
// DescribeDBClusterParameterGroups), its tags (ListTagsForResource) and the parameters users
// set in it (DescribeDBParameters or DescribeDBClusterParameters with Source user, 100 a page),
// fills the status, and plans the tags and the parameters that differ from the spec. A group of
// the name that another object made is refused by managed.Claim; one of another family is a
// terminal condition.
func (d *driver) Observe(ctx context.Context, g *v1alpha1.RDSDBParameterGroup, req managed.Request) (managed.Observation[State], error) {
	name, what := groupName(g), d.groups.what()
	found, err := d.groups.describe(ctx, name)
	if awserr.IsNotFound(err) || awserr.Code(err) == "DBParameterGroupNotFound" || (err == nil && found == nil) {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("describe %s %s: %w", what, name, err)
	}
	tags, err := rdstags.Read(ctx, d.api, what, found.ARN)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if err := managed.Claim(g, what, name, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	g.Status.Name, g.Status.ARN = name, found.ARN
	obs := managed.Observation[State]{Exists: true, Ready: true, State: &State{Group: found}, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	if found.Family != g.Spec.Family {
		obs.Conflict = managed.Terminal(condition.ReasonInvalidSpec, "%s %s is of family %s, not %s: a group's family cannot change; "+
			"give this object another name (spec.name) for a group of %s", what, name, found.Family, g.Spec.Family, g.Spec.Family)
		return obs, nil
	}
	user, err := d.userParameters(ctx, name)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	rdstags.Plan(&obs.Changes, d.api, what, found.ARN, req.Tags, tags)
	d.planParameters(&obs.Changes, g, name, user)
	return obs, nil
}

// userParameters returns the parameters users set in the group, by name.
func (d *driver) userParameters(ctx context.Context, name string) (map[string]types.Parameter, error) {
	return d.parameters(ctx, name, aws.String("user"))
}

// parameters returns the group's parameters of source (every one when nil), by name, reading
// every page.
func (d *driver) parameters(ctx context.Context, name string, source *string) (map[string]types.Parameter, error) {
	out := map[string]types.Parameter{}
	var marker *string
	for {
		page, next, err := d.groups.parameters(ctx, name, source, marker)
		if err != nil {
			return nil, fmt.Errorf("describe the parameters of %s %s: %w", d.groups.what(), name, err)
		}
		for _, p := range page {
			out[aws.ToString(p.ParameterName)] = p
		}
		if next == "" {
			return out, nil
		}
		marker = aws.String(next)
	}
}
