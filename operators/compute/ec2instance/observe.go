package ec2instance

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about an instance.
type State struct {
	// Instance is DescribeInstances' answer.
	Instance *ec2util.Instance
}

// Observe finds the instance (see ec2util.Source.Find), fills the status and plans the changes
// that bring it in line with the spec.
//
// A terminated instance does not exist: a new one is launched (an instance terminated outside
// the operator is replaced). A pending, stopping or shutting-down instance is busy. Changes
// that need the instance stopped are made while it is stopped: the operator stops it for them
// only when spec.allowRestart says so, and otherwise reports RestartRequired.
func (d *driver) Observe(ctx context.Context, o *v1alpha1.EC2Instance, req managed.Request) (managed.Observation[State], error) {
	inst, found, err := d.instances.Find(ctx, o)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if found {
		d.fillStatus(o, inst)
	}
	if !found || stateName(inst) == types.InstanceStateNameTerminated {
		return managed.Observation[State]{}, nil
	}
	id, state := aws.ToString(inst.InstanceId), stateName(inst)
	obs := managed.Observation[State]{Exists: true, State: &State{Instance: &inst}, Tags: ec2util.Tags(inst.Tags)}
	switch {
	case req.Deleting:
		return obs, nil
	case state != types.InstanceStateNameRunning && state != types.InstanceStateNameStopped:
		obs.Busy, obs.Message, obs.Uncompared = true, "instance "+id+" is "+string(state), []string{"state (" + string(state) + ")"}
		return obs, nil
	}
	obs.Conflict = launchedAsSpecified(o, inst)
	obs.Ready = string(state) == desiredState(o)
	if !obs.Ready {
		obs.Message = "instance " + id + " is " + string(state)
	}
	ec2util.PlanTags(&obs.Changes, d.api, id, desiredTags(o, req.Tags), obs.Tags)
	d.planGroups(&obs.Changes, o, inst)
	d.planMonitoring(&obs.Changes, o, inst)
	d.planMetadata(&obs.Changes, o, inst)
	if err := d.planProtection(ctx, &obs.Changes, o, id); err != nil {
		return managed.Observation[State]{}, err
	}
	stopped, err := d.stoppedChanges(ctx, o, inst)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if err := d.planState(&obs, o, inst, stopped); err != nil && obs.Conflict == nil {
		obs.Conflict = err
	}
	return obs, nil
}

// fillStatus copies what AWS said about the instance into the status.
func (d *driver) fillStatus(o *v1alpha1.EC2Instance, i ec2util.Instance) {
	s := &o.Status
	s.InstanceID, s.InstanceARN, s.State = aws.ToString(i.InstanceId), i.ARN(d.partition, d.region), string(stateName(i))
	s.InstanceName, s.InstanceType = ec2util.Tags(i.Tags)["Name"], string(i.InstanceType)
	s.PublicIP, s.PrivateIP, s.SubnetID = aws.ToString(i.PublicIpAddress), aws.ToString(i.PrivateIpAddress), aws.ToString(i.SubnetId)
	s.AvailabilityZone = ""
	if i.Placement != nil {
		s.AvailabilityZone = aws.ToString(i.Placement.AvailabilityZone)
	}
}

// desiredTags are the tags the instance should carry: the engine's, and instanceName as the
// Name tag.
func desiredTags(o *v1alpha1.EC2Instance, tags map[string]string) map[string]string {
	if o.Spec.InstanceName == "" {
		return tags
	}
	out := make(map[string]string, len(tags)+1)
	for k, v := range tags {
		out[k] = v
	}
	out["Name"] = o.Spec.InstanceName
	return out
}

// desiredState returns the state the spec asks for, running when unset.
func desiredState(o *v1alpha1.EC2Instance) string {
	if o.Spec.State == "" {
		return string(types.InstanceStateNameRunning)
	}
	return o.Spec.State
}

// launchedAsSpecified refuses an instance whose launch settings are not the spec's (an adopted
// instance, or a spec changed before the instance's id was recorded): EC2 cannot change them.
func launchedAsSpecified(o *v1alpha1.EC2Instance, i ec2util.Instance) error {
	id := aws.ToString(i.InstanceId)
	switch {
	case aws.ToString(i.ImageId) != o.Spec.ImageID:
		return managed.Terminal(condition.ReasonInvalidSpec, "instance %s runs image %s, not the spec's %s; an instance cannot change its image: create a new EC2Instance",
			id, aws.ToString(i.ImageId), o.Spec.ImageID)
	case o.Spec.SubnetID != "" && aws.ToString(i.SubnetId) != o.Spec.SubnetID:
		return managed.Terminal(condition.ReasonInvalidSpec, "instance %s is in subnet %s, not the spec's %s; an instance cannot move: create a new EC2Instance",
			id, aws.ToString(i.SubnetId), o.Spec.SubnetID)
	case aws.ToString(i.KeyName) != o.Spec.KeyName:
		return managed.Terminal(condition.ReasonInvalidSpec, "instance %s has the key pair %q, not the spec's %q; the key pair is set at launch: create a new EC2Instance",
			id, aws.ToString(i.KeyName), o.Spec.KeyName)
	}
	return nil
}
