package rdsinstance

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the instance, after a final snapshot unless spec.finalSnapshot.skip. A
// protected instance is not deleted: the object waits with a terminal condition until
// deletionProtection is turned off (or the policy changes). Protection turned on outside the
// operator is turned off first only when the spec says deletionProtection: false; left unset,
// it protects the instance. Once the instance is gone, it deletes the DB subnet group the
// operator made for it.
func (d *driver) Delete(ctx context.Context, i *v1alpha1.RDSInstance, obs managed.Observation[State]) error {
	inst := obs.State.Instance
	if inst == nil {
		return d.deleteSubnetGroup(ctx, i)
	}
	id := aws.ToString(inst.DBInstanceIdentifier)
	if aws.ToString(inst.DBInstanceStatus) == statusDeleting {
		return nil
	}
	protected := aws.ToBool(inst.DeletionProtection)
	if aws.ToBool(i.Spec.DeletionProtection) || protected && i.Spec.DeletionProtection == nil {
		return managed.Terminal(condition.ReasonDeletionProtected, "DB instance %s has deletion protection: set spec.deletionProtection to false to delete the instance, "+
			"or set deletionPolicy to Retain or Orphan to keep it", id)
	}
	if protected {
		if _, err := d.api.ModifyDBInstance(ctx, &rds.ModifyDBInstanceInput{DBInstanceIdentifier: aws.String(id),
			DeletionProtection: aws.Bool(false), ApplyImmediately: aws.Bool(true)}); err != nil {
			return fmt.Errorf("turn off deletion protection of DB instance %s: %w", id, err)
		}
	}
	in := &rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String(id)}
	if fs := i.Spec.FinalSnapshot; fs != nil && fs.Skip {
		in.SkipFinalSnapshot = aws.Bool(true)
	} else {
		in.FinalDBSnapshotIdentifier = aws.String(finalSnapshot(i, id))
	}
	_, err := d.api.DeleteDBInstance(ctx, in)
	switch {
	case err == nil, awserr.IsNotFound(err):
		return nil
	case awserr.Code(err) == "DBSnapshotAlreadyExists":
		return managed.Terminal(condition.ReasonFinalSnapshotExists, "a DB snapshot named %s already exists, so DB instance %s cannot take its final snapshot under that name; "+
			"set spec.finalSnapshot.identifier to another name, or spec.finalSnapshot.skip to true", aws.ToString(in.FinalDBSnapshotIdentifier), id)
	}
	return fmt.Errorf("delete DB instance %s: %w", id, err)
}

// finalSnapshot returns the name of the final snapshot: the spec's, or
// "<identifier>-final-<the first eight characters of the object's UID>".
func finalSnapshot(i *v1alpha1.RDSInstance, id string) string {
	if fs := i.Spec.FinalSnapshot; fs != nil && fs.Identifier != "" {
		return fs.Identifier
	}
	uid := string(i.UID)
	return id + "-final-" + uid[:min(8, len(uid))]
}

// ReleaseOwnership removes the ownership tags of the instance and of the DB subnet group the
// operator made for it, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, i *v1alpha1.RDSInstance, obs managed.Observation[State]) error {
	if inst := obs.State.Instance; inst != nil {
		if err := d.releaseTags(ctx, "DB instance", aws.ToString(inst.DBInstanceArn)); err != nil {
			return err
		}
	}
	group, tags, err := d.ownedSubnetGroup(ctx, i)
	if err != nil || group == nil || !managed.OwnedBy(i, tags) {
		return err
	}
	return d.releaseTags(ctx, "DB subnet group", aws.ToString(group.DBSubnetGroupArn))
}

// releaseTags removes the ownership tags of the RDS resource arn (what names its kind in
// messages).
func (d *driver) releaseTags(ctx context.Context, what, arn string) error {
	_, err := d.api.RemoveTagsFromResource(ctx, &rds.RemoveTagsFromResourceInput{ResourceName: aws.String(arn), TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "remove ownership tags of %s %s", what, arn)
}
