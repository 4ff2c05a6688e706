package rdsdbcluster

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdstags"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the cluster's instances, then the cluster (RDS refuses a cluster with
// instances not being deleted), after a final DB cluster snapshot unless
// spec.finalSnapshot.skip; a snapshot that has the final snapshot's name is a terminal
// condition before anything is deleted. A protected cluster is not deleted: the object waits with a terminal
// condition until deletionProtection is turned off (or the policy changes). Protection turned on
// outside the operator is turned off first only when the spec says deletionProtection: false.
// An instance of the cluster that this object did not make holds the deletion, named in the
// error. Once the cluster is gone, it deletes the DB subnet group the operator made for it.
func (d *driver) Delete(ctx context.Context, c *v1alpha1.RDSDBCluster, obs managed.Observation[State]) error {
	cl := obs.State.Cluster
	if cl == nil {
		return d.subnetGroup(c).Delete(ctx)
	}
	id := aws.ToString(cl.DBClusterIdentifier)
	if aws.ToString(cl.Status) == statusDeleting {
		return nil
	}
	protected := aws.ToBool(cl.DeletionProtection)
	if aws.ToBool(c.Spec.DeletionProtection) || protected && c.Spec.DeletionProtection == nil {
		return managed.Terminal(condition.ReasonDeletionProtected, "DB cluster %s has deletion protection: set spec.deletionProtection to false to delete the cluster, "+
			"or set deletionPolicy to Retain or Orphan to keep it", id)
	}
	in := &rds.DeleteDBClusterInput{DBClusterIdentifier: aws.String(id)}
	if fs := c.Spec.FinalSnapshot; fs != nil && fs.Skip {
		in.SkipFinalSnapshot = aws.Bool(true)
	} else {
		in.FinalDBSnapshotIdentifier = aws.String(finalSnapshot(c, id))
		if err := d.checkSnapshotFree(ctx, id, *in.FinalDBSnapshotIdentifier); err != nil {
			return err
		}
	}
	var remove []string
	for _, inst := range obs.State.Instances {
		name := aws.ToString(inst.DBInstanceIdentifier)
		switch {
		case aws.ToString(inst.DBInstanceStatus) == statusDeleting:
		case !managed.OwnedBy(c, rdstags.Map(inst.TagList)):
			return fmt.Errorf("DB cluster %s has DB instance %s, which this object did not make: delete it, and the cluster is deleted next", id, name)
		default:
			remove = append(remove, name)
		}
	}
	if err := d.deleteInstances(ctx, remove); err != nil {
		return err
	}
	if protected {
		if _, err := d.api.ModifyDBCluster(ctx, &rds.ModifyDBClusterInput{DBClusterIdentifier: aws.String(id),
			DeletionProtection: aws.Bool(false), ApplyImmediately: aws.Bool(true)}); err != nil {
			return fmt.Errorf("turn off deletion protection of DB cluster %s: %w", id, err)
		}
	}
	_, err := d.api.DeleteDBCluster(ctx, in)
	switch {
	case err == nil, awserr.IsNotFound(err), awserr.Code(err) == "DBClusterNotFoundFault":
		return nil
	case awserr.Code(err) == "DBClusterSnapshotAlreadyExistsFault":
		return snapshotTaken(id, aws.ToString(in.FinalDBSnapshotIdentifier))
	}
	return fmt.Errorf("delete DB cluster %s: %w", id, err)
}

// checkSnapshotFree returns a terminal error when a DB cluster snapshot named name exists, so
// that the cluster's final snapshot could not take the name: checked before the instances are
// deleted, so that a deletion RDS would refuse deletes nothing.
func (d *driver) checkSnapshotFree(ctx context.Context, id, name string) error {
	out, err := d.api.DescribeDBClusterSnapshots(ctx, &rds.DescribeDBClusterSnapshotsInput{DBClusterSnapshotIdentifier: aws.String(name)})
	switch {
	case awserr.IsNotFound(err) || awserr.Code(err) == "DBClusterSnapshotNotFoundFault" || (err == nil && len(out.DBClusterSnapshots) == 0):
		return nil
	case err != nil:
		return fmt.Errorf("describe DB cluster snapshot %s: %w", name, err)
	}
	return snapshotTaken(id, name)
}

// snapshotTaken is the terminal error of a final snapshot whose name a snapshot has.
func snapshotTaken(id, name string) error {
	return managed.Terminal(condition.ReasonFinalSnapshotExists, "a DB cluster snapshot named %s already exists, so DB cluster %s cannot take its final snapshot under that name; "+
		"set spec.finalSnapshot.identifier to another name, or spec.finalSnapshot.skip to true", name, id)
}

// finalSnapshot returns the name of the final snapshot: the spec's, or
// "<identifier>-final-<the first eight characters of the object's UID>".
func finalSnapshot(c *v1alpha1.RDSDBCluster, id string) string {
	if fs := c.Spec.FinalSnapshot; fs != nil && fs.Identifier != "" {
		return fs.Identifier
	}
	uid := string(c.UID)
	return id + "-final-" + uid[:min(8, len(uid))]
}

// ReleaseOwnership removes the ownership tags of the cluster, of its instances and of the DB
// subnet group the operator made for it, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, c *v1alpha1.RDSDBCluster, obs managed.Observation[State]) error {
	if cl := obs.State.Cluster; cl != nil {
		if err := rdstags.Release(ctx, d.api, "DB cluster", aws.ToString(cl.DBClusterArn)); err != nil {
			return err
		}
	}
	for _, inst := range obs.State.Instances {
		if managed.OwnedBy(c, rdstags.Map(inst.TagList)) {
			if err := rdstags.Release(ctx, d.api, "DB instance", aws.ToString(inst.DBInstanceArn)); err != nil {
				return err
			}
		}
	}
	if !ownsSubnetGroup(&c.Spec) {
		return nil
	}
	return d.subnetGroup(c).Release(ctx)
}
