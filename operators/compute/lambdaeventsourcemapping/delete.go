package lambdaeventsourcemapping

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete starts the mapping's deletion; one already gone, or already Deleting, is success. A
// mapping in another transition refuses (ResourceInUseException), which the engine retries.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.LambdaEventSourceMapping, obs managed.Observation[State]) error {
	cfg := obs.State.Mapping
	if aws.ToString(cfg.State) == stateDeleting {
		return nil
	}
	_, err := d.api.DeleteEventSourceMapping(ctx, &lambda.DeleteEventSourceMappingInput{UUID: cfg.UUID})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "delete event source mapping %s", aws.ToString(cfg.UUID))
	}
	return nil
}

// ReleaseOwnership removes the ownership tags from the mapping, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.LambdaEventSourceMapping, obs managed.Observation[State]) error {
	arn := obs.State.Mapping.EventSourceMappingArn
	_, err := d.api.UntagResource(ctx, &lambda.UntagResourceInput{Resource: arn, TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "remove the ownership tags of event source mapping %s", aws.ToString(arn))
}
