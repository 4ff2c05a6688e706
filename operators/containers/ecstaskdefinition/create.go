package ecstaskdefinition

import (
	"context"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create registers the family's first revision (for this object) with its tags and records it
// at once. RegisterTaskDefinition has no idempotency token: a revision whose answer was lost is
// found by the next Observe, as the family's latest revision tagged with this object's UID.
func (d *driver) Create(ctx context.Context, t *v1alpha1.ECSTaskDefinition, req managed.Request) error {
	if err := d.register(ctx, t, registration(t, req.Tags)); err != nil {
		return err
	}
	managed.SetExternalName(t, family(t))
	return nil
}
