package rdsdbparametergroup

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdstags"
)

// group is what the driver needs of a parameter group of either scope.
type group struct {
	Name, ARN, Family string
}

// groups is the parameter-group API of one scope: RDS has the same calls for DB parameter
// groups (DB instances) and DB cluster parameter groups (Aurora clusters), under other names
// and types. Everything else (claiming, planning the parameters as a set, batches, apply
// methods) is the driver's, whichever the scope.
type groups interface {
	// what names the group's kind in messages.
	what() string
	// describe returns the group, nil when RDS does not have it.
	describe(ctx context.Context, name string) (*group, error)
	// create makes the group of family with tags.
	create(ctx context.Context, name, family, description string, tags []types.Tag) error
	// delete deletes the group.
	delete(ctx context.Context, name string) error
	// parameters returns one page of the group's parameters of source (every one when nil)
	// from marker, and the marker of the next page ("" after the last).
	parameters(ctx context.Context, name string, source, marker *string) ([]types.Parameter, string, error)
	// modify sets params, at most 20.
	modify(ctx context.Context, name string, params []types.Parameter) error
	// reset returns params, at most 20, to the engine's defaults.
	reset(ctx context.Context, name string, params []types.Parameter) error
}

// api is the part of the RDS API the kind calls, for either scope.
type api interface {
	rdstags.API
	DescribeDBParameterGroups(ctx context.Context, in *rds.DescribeDBParameterGroupsInput, opts ...func(*rds.Options)) (*rds.DescribeDBParameterGroupsOutput, error)
	CreateDBParameterGroup(ctx context.Context, in *rds.CreateDBParameterGroupInput, opts ...func(*rds.Options)) (*rds.CreateDBParameterGroupOutput, error)
	DeleteDBParameterGroup(ctx context.Context, in *rds.DeleteDBParameterGroupInput, opts ...func(*rds.Options)) (*rds.DeleteDBParameterGroupOutput, error)
	DescribeDBParameters(ctx context.Context, in *rds.DescribeDBParametersInput, opts ...func(*rds.Options)) (*rds.DescribeDBParametersOutput, error)
	ModifyDBParameterGroup(ctx context.Context, in *rds.ModifyDBParameterGroupInput, opts ...func(*rds.Options)) (*rds.ModifyDBParameterGroupOutput, error)
	ResetDBParameterGroup(ctx context.Context, in *rds.ResetDBParameterGroupInput, opts ...func(*rds.Options)) (*rds.ResetDBParameterGroupOutput, error)
	DescribeDBClusterParameterGroups(ctx context.Context, in *rds.DescribeDBClusterParameterGroupsInput, opts ...func(*rds.Options)) (*rds.DescribeDBClusterParameterGroupsOutput, error)
	CreateDBClusterParameterGroup(ctx context.Context, in *rds.CreateDBClusterParameterGroupInput, opts ...func(*rds.Options)) (*rds.CreateDBClusterParameterGroupOutput, error)
	DeleteDBClusterParameterGroup(ctx context.Context, in *rds.DeleteDBClusterParameterGroupInput, opts ...func(*rds.Options)) (*rds.DeleteDBClusterParameterGroupOutput, error)
	DescribeDBClusterParameters(ctx context.Context, in *rds.DescribeDBClusterParametersInput, opts ...func(*rds.Options)) (*rds.DescribeDBClusterParametersOutput, error)
	ModifyDBClusterParameterGroup(ctx context.Context, in *rds.ModifyDBClusterParameterGroupInput, opts ...func(*rds.Options)) (*rds.ModifyDBClusterParameterGroupOutput, error)
	ResetDBClusterParameterGroup(ctx context.Context, in *rds.ResetDBClusterParameterGroupInput, opts ...func(*rds.Options)) (*rds.ResetDBClusterParameterGroupOutput, error)
}

var _ api = (*rds.Client)(nil)

// groupsOf returns the parameter-group API of scope.
func groupsOf(c api, scope string) groups {
	if scope == v1alpha1.ParameterGroupScopeCluster {
		return clusterGroups{c}
	}
	return instanceGroups{c}
}

// instanceGroups are DB parameter groups.
type instanceGroups struct{ api api }

// what names a DB parameter group in messages.
func (instanceGroups) what() string { return "DB parameter group" }

// describe reads the group with DescribeDBParameterGroups.
func (g instanceGroups) describe(ctx context.Context, name string) (*group, error) {
	out, err := g.api.DescribeDBParameterGroups(ctx, &rds.DescribeDBParameterGroupsInput{DBParameterGroupName: aws.String(name)})
	if err != nil || len(out.DBParameterGroups) == 0 {
		return nil, err
	}
	p := out.DBParameterGroups[0]
	return &group{Name: aws.ToString(p.DBParameterGroupName), ARN: aws.ToString(p.DBParameterGroupArn), Family: aws.ToString(p.DBParameterGroupFamily)}, nil
}

// create makes the group with CreateDBParameterGroup.
func (g instanceGroups) create(ctx context.Context, name, family, description string, tags []types.Tag) error {
	_, err := g.api.CreateDBParameterGroup(ctx, &rds.CreateDBParameterGroupInput{DBParameterGroupName: aws.String(name),
		DBParameterGroupFamily: aws.String(family), Description: aws.String(description), Tags: tags})
	return err
}

// delete deletes the group with DeleteDBParameterGroup.
func (g instanceGroups) delete(ctx context.Context, name string) error {
	_, err := g.api.DeleteDBParameterGroup(ctx, &rds.DeleteDBParameterGroupInput{DBParameterGroupName: aws.String(name)})
	return err
}

// parameters reads one page of the group's parameters with DescribeDBParameters.
func (g instanceGroups) parameters(ctx context.Context, name string, source, marker *string) ([]types.Parameter, string, error) {
	out, err := g.api.DescribeDBParameters(ctx, &rds.DescribeDBParametersInput{DBParameterGroupName: aws.String(name), Source: source,
		MaxRecords: aws.Int32(100), Marker: marker})
	if err != nil {
		return nil, "", err
	}
	return out.Parameters, aws.ToString(out.Marker), nil
}

// modify sets parameters of the group with ModifyDBParameterGroup.
func (g instanceGroups) modify(ctx context.Context, name string, params []types.Parameter) error {
	_, err := g.api.ModifyDBParameterGroup(ctx, &rds.ModifyDBParameterGroupInput{DBParameterGroupName: aws.String(name), Parameters: params})
	return err
}

// reset returns parameters of the group to their defaults with ResetDBParameterGroup.
func (g instanceGroups) reset(ctx context.Context, name string, params []types.Parameter) error {
	_, err := g.api.ResetDBParameterGroup(ctx, &rds.ResetDBParameterGroupInput{DBParameterGroupName: aws.String(name), Parameters: params})
	return err
}

// clusterGroups are DB cluster parameter groups.
type clusterGroups struct{ api api }

// what names a DB cluster parameter group in messages.
func (clusterGroups) what() string { return "DB cluster parameter group" }

// describe reads the group with DescribeDBClusterParameterGroups.
func (g clusterGroups) describe(ctx context.Context, name string) (*group, error) {
	out, err := g.api.DescribeDBClusterParameterGroups(ctx, &rds.DescribeDBClusterParameterGroupsInput{DBClusterParameterGroupName: aws.String(name)})
	if err != nil || len(out.DBClusterParameterGroups) == 0 {
		return nil, err
	}
	p := out.DBClusterParameterGroups[0]
	return &group{Name: aws.ToString(p.DBClusterParameterGroupName), ARN: aws.ToString(p.DBClusterParameterGroupArn), Family: aws.ToString(p.DBParameterGroupFamily)}, nil
}

// create makes the group with CreateDBClusterParameterGroup.
func (g clusterGroups) create(ctx context.Context, name, family, description string, tags []types.Tag) error {
	_, err := g.api.CreateDBClusterParameterGroup(ctx, &rds.CreateDBClusterParameterGroupInput{DBClusterParameterGroupName: aws.String(name),
		DBParameterGroupFamily: aws.String(family), Description: aws.String(description), Tags: tags})
	return err
}

// delete deletes the group with DeleteDBClusterParameterGroup.
func (g clusterGroups) delete(ctx context.Context, name string) error {
	_, err := g.api.DeleteDBClusterParameterGroup(ctx, &rds.DeleteDBClusterParameterGroupInput{DBClusterParameterGroupName: aws.String(name)})
	return err
}

// parameters reads one page of the group's parameters with DescribeDBClusterParameters.
func (g clusterGroups) parameters(ctx context.Context, name string, source, marker *string) ([]types.Parameter, string, error) {
	out, err := g.api.DescribeDBClusterParameters(ctx, &rds.DescribeDBClusterParametersInput{DBClusterParameterGroupName: aws.String(name), Source: source,
		MaxRecords: aws.Int32(100), Marker: marker})
	if err != nil {
		return nil, "", err
	}
	return out.Parameters, aws.ToString(out.Marker), nil
}

// modify sets parameters of the group with ModifyDBClusterParameterGroup.
func (g clusterGroups) modify(ctx context.Context, name string, params []types.Parameter) error {
	_, err := g.api.ModifyDBClusterParameterGroup(ctx, &rds.ModifyDBClusterParameterGroupInput{DBClusterParameterGroupName: aws.String(name), Parameters: params})
	return err
}

// reset returns parameters of the group to their defaults with ResetDBClusterParameterGroup.
func (g clusterGroups) reset(ctx context.Context, name string, params []types.Parameter) error {
	_, err := g.api.ResetDBClusterParameterGroup(ctx, &rds.ResetDBClusterParameterGroupInput{DBClusterParameterGroupName: aws.String(name), Parameters: params})
	return err
}
