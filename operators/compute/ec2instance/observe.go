package ec2instance

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
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

// planGroups plans replacing the instance's security groups by the spec's, when it names any.
func (d *driver) planGroups(plan *managed.Plan, o *v1alpha1.EC2Instance, i ec2util.Instance) {
	if len(o.Spec.SecurityGroupIDs) == 0 {
		return
	}
	observed := make([]string, 0, len(i.SecurityGroups))
	for _, g := range i.SecurityGroups {
		observed = append(observed, aws.ToString(g.GroupId))
	}
	desired := slices.Clone(o.Spec.SecurityGroupIDs)
	slices.Sort(observed)
	slices.Sort(desired)
	if slices.Equal(slices.Compact(desired), observed) {
		return
	}
	id := aws.ToString(i.InstanceId)
	plan.Add("securityGroupIDs", func(ctx context.Context) error {
		_, err := d.api.ModifyInstanceAttribute(ctx, &ec2.ModifyInstanceAttributeInput{InstanceId: aws.String(id), Groups: desired})
		return managed.Wrap(err, "set the security groups of instance %s", id)
	})
}

// planMonitoring plans turning detailed monitoring on or off.
func (d *driver) planMonitoring(plan *managed.Plan, o *v1alpha1.EC2Instance, i ec2util.Instance) {
	on := i.Monitoring != nil && (i.Monitoring.State == types.MonitoringStateEnabled || i.Monitoring.State == types.MonitoringStatePending)
	if on == o.Spec.Monitoring {
		return
	}
	ids := []string{aws.ToString(i.InstanceId)}
	plan.Add("monitoring", func(ctx context.Context) error {
		var err error
		if o.Spec.Monitoring {
			_, err = d.api.MonitorInstances(ctx, &ec2.MonitorInstancesInput{InstanceIds: ids})
		} else {
			_, err = d.api.UnmonitorInstances(ctx, &ec2.UnmonitorInstancesInput{InstanceIds: ids})
		}
		return managed.Wrap(err, "set detailed monitoring of instance %s to %t", ids[0], o.Spec.Monitoring)
	})
}

// planMetadata plans setting the metadata service options the spec asks for (IMDSv2 required,
// the endpoint on, a hop limit of 2 and no tags in the metadata, unless it says otherwise).
func (d *driver) planMetadata(plan *managed.Plan, o *v1alpha1.EC2Instance, i ec2util.Instance) {
	want := metadataOptions(o)
	got := i.MetadataOptions
	if got != nil && got.HttpTokens == want.HttpTokens && got.HttpEndpoint == want.HttpEndpoint &&
		aws.ToInt32(got.HttpPutResponseHopLimit) == aws.ToInt32(want.HttpPutResponseHopLimit) && got.InstanceMetadataTags == want.InstanceMetadataTags {
		return
	}
	id := aws.ToString(i.InstanceId)
	plan.Add("metadataOptions", func(ctx context.Context) error {
		_, err := d.api.ModifyInstanceMetadataOptions(ctx, &ec2.ModifyInstanceMetadataOptionsInput{InstanceId: aws.String(id),
			HttpTokens: want.HttpTokens, HttpEndpoint: want.HttpEndpoint, HttpPutResponseHopLimit: want.HttpPutResponseHopLimit,
			InstanceMetadataTags: want.InstanceMetadataTags})
		return managed.Wrap(err, "set the metadata options of instance %s", id)
	})
}

// planProtection plans termination and stop protection, for those the spec sets: each is read
// with DescribeInstanceAttribute, which DescribeInstances does not answer.
func (d *driver) planProtection(ctx context.Context, plan *managed.Plan, o *v1alpha1.EC2Instance, id string) error {
	for _, p := range []struct {
		field string
		want  *bool
		name  types.InstanceAttributeName
	}{
		{"disableApiTermination", o.Spec.DisableAPITermination, types.InstanceAttributeNameDisableApiTermination},
		{"disableApiStop", o.Spec.DisableAPIStop, types.InstanceAttributeNameDisableApiStop},
	} {
		if p.want == nil {
			continue
		}
		got, err := d.protection(ctx, id, p.name)
		if err != nil {
			return err
		}
		if got == *p.want {
			continue
		}
		want, name := *p.want, p.name
		plan.Add(p.field, func(ctx context.Context) error {
			in := &ec2.ModifyInstanceAttributeInput{InstanceId: aws.String(id)}
			if name == types.InstanceAttributeNameDisableApiTermination {
				in.DisableApiTermination = &types.AttributeBooleanValue{Value: aws.Bool(want)}
			} else {
				in.DisableApiStop = &types.AttributeBooleanValue{Value: aws.Bool(want)}
			}
			_, err := d.api.ModifyInstanceAttribute(ctx, in)
			return managed.Wrap(err, "set %s of instance %s to %t", name, id, want)
		})
	}
	return nil
}

// protection reads one of the instance's protection attributes.
func (d *driver) protection(ctx context.Context, id string, name types.InstanceAttributeName) (bool, error) {
	out, err := d.api.DescribeInstanceAttribute(ctx, &ec2.DescribeInstanceAttributeInput{InstanceId: aws.String(id), Attribute: name})
	if err != nil {
		return false, fmt.Errorf("describe %s of instance %s: %w", name, id, err)
	}
	v := out.DisableApiTermination
	if name == types.InstanceAttributeNameDisableApiStop {
		v = out.DisableApiStop
	}
	return v != nil && aws.ToBool(v.Value), nil
}

// stoppedChange is a difference EC2 fixes only on a stopped instance.
type stoppedChange struct {
	field string
	in    *ec2.ModifyInstanceAttributeInput
}

// stoppedChanges returns the differences that need the instance stopped: its type, and its
// user data when the spec has some (read with DescribeInstanceAttribute).
func (d *driver) stoppedChanges(ctx context.Context, o *v1alpha1.EC2Instance, i ec2util.Instance) ([]stoppedChange, error) {
	id := aws.ToString(i.InstanceId)
	var out []stoppedChange
	if string(i.InstanceType) != o.Spec.InstanceType {
		out = append(out, stoppedChange{"instanceType", &ec2.ModifyInstanceAttributeInput{InstanceId: aws.String(id),
			InstanceType: &types.AttributeValue{Value: aws.String(o.Spec.InstanceType)}}})
	}
	if o.Spec.UserData == "" {
		return out, nil
	}
	attr, err := d.api.DescribeInstanceAttribute(ctx, &ec2.DescribeInstanceAttributeInput{InstanceId: aws.String(id), Attribute: types.InstanceAttributeNameUserData})
	if err != nil {
		return nil, fmt.Errorf("describe the user data of instance %s: %w", id, err)
	}
	if attr.UserData == nil || aws.ToString(attr.UserData.Value) != base64.StdEncoding.EncodeToString([]byte(o.Spec.UserData)) {
		out = append(out, stoppedChange{"userData", &ec2.ModifyInstanceAttributeInput{InstanceId: aws.String(id),
			UserData: &types.SecureBlobAttributeValue{Value: []byte(o.Spec.UserData)}}})
	}
	return out, nil
}

// planState plans the changes that need the instance stopped and the spec's state. A stopped
// instance gets the changes, then is started if the spec wants it running. A running one is
// stopped when the spec wants it stopped, or, when spec.allowRestart, for the changes (it is
// started again once they are made); otherwise planState returns a RestartRequired error.
func (d *driver) planState(obs *managed.Observation[State], o *v1alpha1.EC2Instance, i ec2util.Instance, changes []stoppedChange) error {
	id, want := aws.ToString(i.InstanceId), desiredState(o)
	ids := []string{id}
	fields := make([]string, 0, len(changes))
	for _, c := range changes {
		fields = append(fields, c.field)
	}
	start := func(ctx context.Context) error {
		_, err := d.api.StartInstances(ctx, &ec2.StartInstancesInput{InstanceIds: ids})
		return managed.Wrap(err, "start instance %s", id)
	}
	stop := func(ctx context.Context) error {
		_, err := d.api.StopInstances(ctx, &ec2.StopInstancesInput{InstanceIds: ids})
		return managed.Wrap(err, "stop instance %s", id)
	}
	switch {
	case stateName(i) == types.InstanceStateNameStopped:
		for _, c := range changes {
			plan := c
			obs.Changes.Add(plan.field, func(ctx context.Context) error {
				_, err := d.api.ModifyInstanceAttribute(ctx, plan.in)
				return managed.Wrap(err, "set %s of instance %s", plan.field, id)
			})
		}
		if want == string(types.InstanceStateNameRunning) {
			obs.Changes.Add("state", start)
		}
	case want == string(types.InstanceStateNameStopped):
		obs.Changes.Add("state", stop)
	case len(changes) > 0 && o.Spec.AllowRestart:
		obs.Changes.AddFields(fields, stop)
	case len(changes) > 0:
		return managed.Terminal(condition.ReasonRestartRequired, "instance %s must be stopped to change %s: set spec.allowRestart to true to let the operator "+
			"stop and start it, or stop it (spec.state: stopped) and the change is made then", id, strings.Join(fields, " and "))
	}
	return nil
}
