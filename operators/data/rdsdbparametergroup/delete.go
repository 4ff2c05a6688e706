package rdsdbparametergroup

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the group. RDS refuses to delete a group an instance uses
// (InvalidDBParameterGroupState): a retryable error, so that the object goes once the
// instances use another group or are gone.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.RDSDBParameterGroup, obs managed.Observation[State]) error {
	name := aws.ToString(obs.State.Group.DBParameterGroupName)
	_, err := d.api.DeleteDBParameterGroup(ctx, &rds.DeleteDBParameterGroupInput{DBParameterGroupName: aws.String(name)})
	if err == nil || awserr.IsNotFound(err) || awserr.Code(err) == "DBParameterGroupNotFound" {
		return nil
	}
	return managed.Wrap(err, "delete DB parameter group %s", name)
}

// ReleaseOwnership removes the ownership tags from the group, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.RDSDBParameterGroup, obs managed.Observation[State]) error {
	arn := aws.ToString(obs.State.Group.DBParameterGroupArn)
	_, err := d.api.RemoveTagsFromResource(ctx, &rds.RemoveTagsFromResourceInput{ResourceName: aws.String(arn), TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "remove the ownership tags of DB parameter group %s", arn)
}
