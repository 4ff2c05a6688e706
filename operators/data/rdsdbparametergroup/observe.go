package rdsdbparametergroup

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
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
	// Group is DescribeDBParameterGroups' answer.
	Group *types.DBParameterGroup
}

// Observe reads the group by its name (DescribeDBParameterGroups), its tags
// (ListTagsForResource) and the parameters users set in it (DescribeDBParameters with Source
// user, 100 a page), fills the status, and plans the tags and the parameters that differ from
// the spec. A group of the name that another object made is refused by managed.Claim; one of
// another family is a terminal condition.
func (d *driver) Observe(ctx context.Context, g *v1alpha1.RDSDBParameterGroup, req managed.Request) (managed.Observation[State], error) {
	name := groupName(g)
	out, err := d.api.DescribeDBParameterGroups(ctx, &rds.DescribeDBParameterGroupsInput{DBParameterGroupName: aws.String(name)})
	if awserr.IsNotFound(err) || awserr.Code(err) == "DBParameterGroupNotFound" {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("describe DB parameter group %s: %w", name, err)
	}
	if len(out.DBParameterGroups) == 0 {
		return managed.Observation[State]{}, nil
	}
	group := &out.DBParameterGroups[0]
	arn := aws.ToString(group.DBParameterGroupArn)
	tags, err := rdstags.Read(ctx, d.api, "DB parameter group", arn)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if err := managed.Claim(g, "DB parameter group", name, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	g.Status.Name, g.Status.ARN = name, arn
	obs := managed.Observation[State]{Exists: true, Ready: true, State: &State{Group: group}, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	if family := aws.ToString(group.DBParameterGroupFamily); family != g.Spec.Family {
		obs.Conflict = managed.Terminal(condition.ReasonInvalidSpec, "DB parameter group %s is of family %s, not %s: a group's family cannot change; "+
			"give this object another name (spec.name) for a group of %s", name, family, g.Spec.Family, g.Spec.Family)
		return obs, nil
	}
	user, err := d.userParameters(ctx, name)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	rdstags.Plan(&obs.Changes, d.api, "DB parameter group", arn, req.Tags, tags)
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
	in := &rds.DescribeDBParametersInput{DBParameterGroupName: aws.String(name), Source: source, MaxRecords: aws.Int32(100)}
	for {
		page, err := d.api.DescribeDBParameters(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("describe the parameters of DB parameter group %s: %w", name, err)
		}
		for _, p := range page.Parameters {
			out[aws.ToString(p.ParameterName)] = p
		}
		if aws.ToString(page.Marker) == "" {
			return out, nil
		}
		in.Marker = page.Marker
	}
}
