package rdsdbparametergroup

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdstags"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the group of the spec's family with req.Tags (ownership included) and records
// its name; its parameters are set by the next pass, as changes that complete the creation. A
// name taken in the meantime is no error: the next Observe claims the group or refuses it by its
// tags.
func (d *driver) Create(ctx context.Context, g *v1alpha1.RDSDBParameterGroup, req managed.Request) error {
	name := groupName(g)
	_, err := d.api.CreateDBParameterGroup(ctx, &rds.CreateDBParameterGroupInput{DBParameterGroupName: aws.String(name),
		DBParameterGroupFamily: aws.String(g.Spec.Family), Description: aws.String(g.Spec.Description), Tags: rdstags.List(req.Tags)})
	if err != nil && awserr.Code(err) != "DBParameterGroupAlreadyExists" {
		return managed.Wrap(err, "create DB parameter group %s", name)
	}
	if err == nil {
		managed.SetExternalName(g, name)
	}
	return nil
}
