package rdsinstance

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdstags"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// owned reports whether the operator makes the instance's DB subnet group: the spec gives
// subnets (subnetIDs or subnetRefs) and no dbSubnetGroupName.
func owned(s *v1alpha1.RDSInstanceSpec) bool {
	return s.DBSubnetGroupName == "" && (len(s.SubnetIDs) > 0 || len(s.SubnetRefs) > 0)
}

// subnetGroupName returns the DB subnet group the instance is placed in: the spec's, the one
// the operator makes (named after the instance), or "" for the default VPC.
func subnetGroupName(i *v1alpha1.RDSInstance) string {
	if owned(&i.Spec) {
		return identifier(i)
	}
	return i.Spec.DBSubnetGroupName
}

// applied returns i's spec as the requests and comparisons apply it: with dbSubnetGroupName
// set to the subnet group the instance is placed in (see subnetGroupName).
func applied(i *v1alpha1.RDSInstance) *v1alpha1.RDSInstanceSpec {
	s := i.Spec
	s.DBSubnetGroupName = subnetGroupName(i)
	return &s
}

// subnetGroup returns DB subnet group name, nil when it does not exist.
func (d *driver) subnetGroup(ctx context.Context, name string) (*types.DBSubnetGroup, error) {
	out, err := d.api.DescribeDBSubnetGroups(ctx, &rds.DescribeDBSubnetGroupsInput{DBSubnetGroupName: aws.String(name)})
	if awserr.IsNotFound(err) || (err == nil && len(out.DBSubnetGroups) == 0) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("describe DB subnet group %s: %w", name, err)
	}
	return &out.DBSubnetGroups[0], nil
}

// ownedSubnetGroup returns the DB subnet group the operator makes for i, with its tags; nil
// when the spec names a group (or none), or when AWS does not have it.
func (d *driver) ownedSubnetGroup(ctx context.Context, i *v1alpha1.RDSInstance) (*types.DBSubnetGroup, map[string]string, error) {
	if !owned(&i.Spec) {
		return nil, nil, nil
	}
	g, err := d.subnetGroup(ctx, identifier(i))
	if err != nil || g == nil {
		return nil, nil, err
	}
	tags, err := rdstags.Read(ctx, d.api, "DB subnet group", aws.ToString(g.DBSubnetGroupArn))
	if err != nil {
		return nil, nil, err
	}
	return g, tags, nil
}

// subnetGroupCompanion returns the DB subnet group the operator owns for i, made with i's
// subnets and tagged with tags (ownership included).
func (d *driver) subnetGroupCompanion(i *v1alpha1.RDSInstance, tags map[string]string) managed.Companion {
	name := identifier(i)
	return managed.Companion{Kind: "DB subnet group", Name: name, Instead: "spec.dbSubnetGroupName", Taken: "DBSubnetGroupAlreadyExists",
		Create: func(ctx context.Context) error {
			_, err := d.api.CreateDBSubnetGroup(ctx, &rds.CreateDBSubnetGroupInput{DBSubnetGroupName: aws.String(name),
				DBSubnetGroupDescription: aws.String(fmt.Sprintf("Subnets of DB instance %s (infra-operator RDSInstance %s/%s)", name, i.Namespace, i.Name)),
				SubnetIds:                i.Spec.SubnetIDs, Tags: rdstags.List(tags)})
			return err
		},
		Tags: func(ctx context.Context) (map[string]string, error) {
			g, err := d.subnetGroup(ctx, name)
			if err != nil || g == nil {
				return nil, err
			}
			return rdstags.Read(ctx, d.api, "DB subnet group", aws.ToString(g.DBSubnetGroupArn))
		},
	}
}

// ensureSubnetGroup makes the DB subnet group the operator owns for the instance, tagged with
// tags (ownership included), when the spec asks for one (see managed.Companion.Ensure).
func (d *driver) ensureSubnetGroup(ctx context.Context, i *v1alpha1.RDSInstance, tags map[string]string) error {
	if !owned(&i.Spec) {
		return nil
	}
	return d.subnetGroupCompanion(i, tags).Ensure(ctx, i)
}

// planSubnetGroup plans the changes that bring the DB subnet group the operator owns for the
// instance in line with the spec: made again when it is missing, its subnets changed to
// spec.subnetIDs and its tags to desired (the instance's, ownership included). It returns a
// terminal error, and plans nothing, when a group of its name is not this object's.
func (d *driver) planSubnetGroup(changes *managed.Plan, i *v1alpha1.RDSInstance, g *types.DBSubnetGroup, tags, desired map[string]string) error {
	if !owned(&i.Spec) {
		return nil
	}
	c := d.subnetGroupCompanion(i, desired)
	if g == nil {
		changes.Add("subnetIDs", func(ctx context.Context) error { return c.Ensure(ctx, i) })
		return nil
	}
	if err := c.Check(i, tags); err != nil {
		return err
	}
	var have []string
	for _, s := range g.Subnets {
		have = append(have, aws.ToString(s.SubnetIdentifier))
	}
	c.PlanMembers(changes, "subnetIDs", have, i.Spec.SubnetIDs, func(ctx context.Context) error {
		_, err := d.api.ModifyDBSubnetGroup(ctx, &rds.ModifyDBSubnetGroupInput{DBSubnetGroupName: aws.String(c.Name), SubnetIds: i.Spec.SubnetIDs})
		return err
	})
	rdstags.Plan(changes, d.api, "DB subnet group", aws.ToString(g.DBSubnetGroupArn), desired, tags)
	return nil
}

// deleteSubnetGroup deletes the DB subnet group the operator made for the instance; RDS
// refuses while an instance is still in it.
func (d *driver) deleteSubnetGroup(ctx context.Context, i *v1alpha1.RDSInstance) error {
	c := d.subnetGroupCompanion(i, nil)
	return c.Delete(ctx, func(ctx context.Context) error {
		_, err := d.api.DeleteDBSubnetGroup(ctx, &rds.DeleteDBSubnetGroupInput{DBSubnetGroupName: aws.String(c.Name)})
		return err
	})
}
