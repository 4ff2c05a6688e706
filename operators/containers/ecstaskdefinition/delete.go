package ecstaskdefinition

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deregisters every revision the object registered that is still ACTIVE: services that
// run one keep running it (ECS keeps INACTIVE revisions for them), but no new service can use
// it.
func (d *driver) Delete(ctx context.Context, t *v1alpha1.ECSTaskDefinition, obs managed.Observation[State]) error {
	arns := slices.Clone(t.Status.PreviousRevisions)
	for _, arn := range []string{t.Status.TaskDefinitionARN, aws.ToString(obs.State.TaskDefinition.TaskDefinitionArn)} {
		if arn != "" && !slices.Contains(arns, arn) {
			arns = append(arns, arn)
		}
	}
	return d.deregister(ctx, t, arns)
}

// ReleaseOwnership removes the ownership tags from the family's latest revision.
func (d *driver) ReleaseOwnership(ctx context.Context, t *v1alpha1.ECSTaskDefinition, obs managed.Observation[State]) error {
	arn := obs.State.TaskDefinition.TaskDefinitionArn
	_, err := d.api.UntagResource(ctx, &ecs.UntagResourceInput{ResourceArn: arn, TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "untag task definition %s", aws.ToString(arn))
}
