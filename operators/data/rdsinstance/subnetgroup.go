package rdsinstance

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdssubnetgroup"
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

// subnetGroup returns the DB subnet group the operator owns for i (see rdssubnetgroup).
func (d *driver) subnetGroup(i *v1alpha1.RDSInstance) rdssubnetgroup.Group {
	name := identifier(i)
	return rdssubnetgroup.Group{API: d.api, Object: i, Name: name, SubnetIDs: i.Spec.SubnetIDs,
		Description: fmt.Sprintf("Subnets of DB instance %s (infra-operator RDSInstance %s/%s)", name, i.Namespace, i.Name)}
}

// ownedSubnetGroup returns the DB subnet group the operator makes for i, with its tags; nil
// when the spec names a group (or none), or when AWS does not have it.
func (d *driver) ownedSubnetGroup(ctx context.Context, i *v1alpha1.RDSInstance) (*types.DBSubnetGroup, map[string]string, error) {
	if !owned(&i.Spec) {
		return nil, nil, nil
	}
	return d.subnetGroup(i).Observe(ctx)
}

// ensureSubnetGroup makes the DB subnet group the operator owns for the instance, tagged with
// tags (ownership included), when the spec asks for one (see managed.Companion.Ensure).
func (d *driver) ensureSubnetGroup(ctx context.Context, i *v1alpha1.RDSInstance, tags map[string]string) error {
	if !owned(&i.Spec) {
		return nil
	}
	return d.subnetGroup(i).Ensure(ctx, tags)
}

// planSubnetGroup plans the changes that bring the DB subnet group the operator owns for the
// instance in line with the spec (see rdssubnetgroup.Group.Plan); nothing when the spec names a
// group.
func (d *driver) planSubnetGroup(changes *managed.Plan, i *v1alpha1.RDSInstance, g *types.DBSubnetGroup, tags, desired map[string]string) error {
	if !owned(&i.Spec) {
		return nil
	}
	return d.subnetGroup(i).Plan(changes, g, tags, desired)
}

// deleteSubnetGroup deletes the DB subnet group the operator made for the instance; RDS
// refuses while an instance is still in it.
func (d *driver) deleteSubnetGroup(ctx context.Context, i *v1alpha1.RDSInstance) error {
	return d.subnetGroup(i).Delete(ctx)
}
