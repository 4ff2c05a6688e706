package rdsdbparametergroup

import (
	"context"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdstags"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the group of the spec's scope and family with req.Tags (ownership included)
// and records its name; its parameters are set by the next pass, as changes that complete the
// creation. A name taken in the meantime is no error: the next Observe claims the group or
// refuses it by its tags.
func (d *driver) Create(ctx context.Context, g *v1alpha1.RDSDBParameterGroup, req managed.Request) error {
	name := groupName(g)
	err := d.groups.create(ctx, name, g.Spec.Family, g.Spec.Description, rdstags.List(req.Tags))
	if err != nil && awserr.Code(err) != "DBParameterGroupAlreadyExists" {
		return managed.Wrap(err, "create %s %s", d.groups.what(), name)
	}
	if err == nil {
		managed.SetExternalName(g, name)
	}
	return nil
}
