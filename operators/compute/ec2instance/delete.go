package ec2instance

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete terminates the instance (its volumes go with it unless deleteOnTermination is false).
// A protected instance is not terminated: the object waits with a terminal condition until
// disableApiTermination is false (or the policy changes). Protection turned on outside the
// operator is turned off first only when the spec says disableApiTermination: false; left
// unset, it protects the instance.
func (d *driver) Delete(ctx context.Context, o *v1alpha1.EC2Instance, obs managed.Observation[State]) error {
	id := aws.ToString(obs.State.Instance.InstanceId)
	if gone(*obs.State.Instance) {
		return nil
	}
	protected := func() error {
		return managed.Terminal(condition.ReasonDeletionProtected, "instance %s has termination protection: set spec.disableApiTermination to false "+
			"to terminate it, or set deletionPolicy to Retain or Orphan to keep it", id)
	}
	if aws.ToBool(o.Spec.DisableAPITermination) {
		return protected()
	}
	err := d.terminate(ctx, id)
	if awserr.Code(err) != "OperationNotPermitted" {
		return err
	}
	if o.Spec.DisableAPITermination == nil {
		return protected()
	}
	if _, err := d.api.ModifyInstanceAttribute(ctx, &ec2.ModifyInstanceAttributeInput{InstanceId: aws.String(id),
		DisableApiTermination: &types.AttributeBooleanValue{Value: aws.Bool(false)}}); err != nil {
		return fmt.Errorf("turn off termination protection of instance %s: %w", id, err)
	}
	return d.terminate(ctx, id)
}

// terminate terminates instance id; one already gone is success.
func (d *driver) terminate(ctx context.Context, id string) error {
	_, err := d.api.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: []string{id}})
	return ec2util.Deleted(err, "instance", id)
}

// ReleaseOwnership removes the ownership tags from the instance, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.EC2Instance, obs managed.Observation[State]) error {
	return ec2util.ReleaseOwnership(ctx, d.api, aws.ToString(obs.State.Instance.InstanceId))
}
