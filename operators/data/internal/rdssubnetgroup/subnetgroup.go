// Package rdssubnetgroup manages the DB subnet group the operator makes for an RDS database (a
// DB instance, an Aurora DB cluster) when its spec gives subnets rather than a group: named after
// the database, tagged and owned with its object, its subnets kept as the spec lists them, and
// deleted after the database.
package rdssubnetgroup

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/internal/rdstags"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// API is the part of the RDS API that manages DB subnet groups and their tags.
type API interface {
	rdstags.API
	DescribeDBSubnetGroups(ctx context.Context, in *rds.DescribeDBSubnetGroupsInput, opts ...func(*rds.Options)) (*rds.DescribeDBSubnetGroupsOutput, error)
	CreateDBSubnetGroup(ctx context.Context, in *rds.CreateDBSubnetGroupInput, opts ...func(*rds.Options)) (*rds.CreateDBSubnetGroupOutput, error)
	ModifyDBSubnetGroup(ctx context.Context, in *rds.ModifyDBSubnetGroupInput, opts ...func(*rds.Options)) (*rds.ModifyDBSubnetGroupOutput, error)
	DeleteDBSubnetGroup(ctx context.Context, in *rds.DeleteDBSubnetGroupInput, opts ...func(*rds.Options)) (*rds.DeleteDBSubnetGroupOutput, error)
}

var _ API = (*rds.Client)(nil)

// Group is the DB subnet group the operator makes for one object's database.
type Group struct {
	// API is the provider's RDS client.
	API API
	// Object is the object that owns the group.
	Object shared.Managed
	// Name is the group's name: the database's identifier.
	Name string
	// Description describes the group when it is made.
	Description string
	// SubnetIDs are the subnets the spec gives (references resolved).
	SubnetIDs []string
}

// Describe returns DB subnet group name, nil when it does not exist.
func Describe(ctx context.Context, api API, name string) (*types.DBSubnetGroup, error) {
	out, err := api.DescribeDBSubnetGroups(ctx, &rds.DescribeDBSubnetGroupsInput{DBSubnetGroupName: aws.String(name)})
	if awserr.IsNotFound(err) || (err == nil && len(out.DBSubnetGroups) == 0) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("describe DB subnet group %s: %w", name, err)
	}
	return &out.DBSubnetGroups[0], nil
}

// Observe returns the group with its tags; nil when AWS does not have it.
func (g Group) Observe(ctx context.Context) (*types.DBSubnetGroup, map[string]string, error) {
	group, err := Describe(ctx, g.API, g.Name)
	if err != nil || group == nil {
		return nil, nil, err
	}
	tags, err := rdstags.Read(ctx, g.API, "DB subnet group", aws.ToString(group.DBSubnetGroupArn))
	if err != nil {
		return nil, nil, err
	}
	return group, tags, nil
}

// companion returns the group as a managed.Companion, made with tags (ownership included).
func (g Group) companion(tags map[string]string) managed.Companion {
	return managed.Companion{Kind: "DB subnet group", Name: g.Name, Instead: "spec.dbSubnetGroupName", Taken: "DBSubnetGroupAlreadyExists",
		Create: func(ctx context.Context) error {
			_, err := g.API.CreateDBSubnetGroup(ctx, &rds.CreateDBSubnetGroupInput{DBSubnetGroupName: aws.String(g.Name),
				DBSubnetGroupDescription: aws.String(g.Description), SubnetIds: g.SubnetIDs, Tags: rdstags.List(tags)})
			return err
		},
		Tags: func(ctx context.Context) (map[string]string, error) {
			group, err := Describe(ctx, g.API, g.Name)
			if err != nil || group == nil {
				return nil, err
			}
			return rdstags.Read(ctx, g.API, "DB subnet group", aws.ToString(group.DBSubnetGroupArn))
		},
	}
}

// Ensure makes the group, tagged with tags (ownership included); one of its name that the
// object made is used (see managed.Companion.Ensure).
func (g Group) Ensure(ctx context.Context, tags map[string]string) error {
	return g.companion(tags).Ensure(ctx, g.Object)
}

// Plan plans the changes that bring the group in line with the spec: made again when it is
// missing (group nil), its subnets changed to SubnetIDs and its tags (tags in AWS) to desired
// (the object's, ownership included). It returns a terminal error, and plans nothing, when a
// group of its name is not the object's.
func (g Group) Plan(changes *managed.Plan, group *types.DBSubnetGroup, tags, desired map[string]string) error {
	c := g.companion(desired)
	if group == nil {
		changes.Add("subnetIDs", func(ctx context.Context) error { return c.Ensure(ctx, g.Object) })
		return nil
	}
	if err := c.Check(g.Object, tags); err != nil {
		return err
	}
	var have []string
	for _, s := range group.Subnets {
		have = append(have, aws.ToString(s.SubnetIdentifier))
	}
	c.PlanMembers(changes, "subnetIDs", have, g.SubnetIDs, func(ctx context.Context) error {
		_, err := g.API.ModifyDBSubnetGroup(ctx, &rds.ModifyDBSubnetGroupInput{DBSubnetGroupName: aws.String(g.Name), SubnetIds: g.SubnetIDs})
		return err
	})
	rdstags.Plan(changes, g.API, "DB subnet group", aws.ToString(group.DBSubnetGroupArn), desired, tags)
	return nil
}

// Delete deletes the group; RDS refuses while a database is still in it. One already gone is
// success.
func (g Group) Delete(ctx context.Context) error {
	c := g.companion(nil)
	return c.Delete(ctx, func(ctx context.Context) error {
		_, err := g.API.DeleteDBSubnetGroup(ctx, &rds.DeleteDBSubnetGroupInput{DBSubnetGroupName: aws.String(g.Name)})
		return err
	})
}

// Release removes the ownership tags of the group when the object owns it, for
// deletionPolicy Orphan.
func (g Group) Release(ctx context.Context) error {
	group, tags, err := g.Observe(ctx)
	if err != nil || group == nil || !managed.OwnedBy(g.Object, tags) {
		return err
	}
	return rdstags.Release(ctx, g.API, "DB subnet group", aws.ToString(group.DBSubnetGroupArn))
}
