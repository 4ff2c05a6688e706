package rdsdbparametergroup

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the group. RDS refuses to delete a group an instance or cluster uses
// (InvalidDBParameterGroupState): a retryable error, so that the object goes once the databases
// use another group or are gone.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.RDSDBParameterGroup, obs managed.Observation[State]) error {
	name := obs.State.Group.Name
	err := d.groups.delete(ctx, name)
	if err == nil || awserr.IsNotFound(err) || awserr.Code(err) == "DBParameterGroupNotFound" {
		return nil
	}
	return managed.Wrap(err, "delete %s %s", d.groups.what(), name)
}

// ReleaseOwnership removes the ownership tags from the group, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.RDSDBParameterGroup, obs managed.Observation[State]) error {
	arn := obs.State.Group.ARN
	_, err := d.api.RemoveTagsFromResource(ctx, &rds.RemoveTagsFromResourceInput{ResourceName: aws.String(arn), TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "remove the ownership tags of %s %s", d.groups.what(), arn)
}
