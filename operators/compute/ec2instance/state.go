package ec2instance

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// stoppedChange is a difference EC2 fixes only on a stopped instance.
type stoppedChange struct {
	field string
	in    *ec2.ModifyInstanceAttributeInput
	// values are the field's values as the plan shows them; nil for user data, which may hold
	// secrets.
	values *managed.Values
}

// stoppedChanges returns the differences that need the instance stopped: its type, and its
// user data when the spec has some (read with DescribeInstanceAttribute).
func (d *driver) stoppedChanges(ctx context.Context, o *v1alpha1.EC2Instance, i ec2util.Instance) ([]stoppedChange, error) {
	id := aws.ToString(i.InstanceId)
	var out []stoppedChange
	if string(i.InstanceType) != o.Spec.InstanceType {
		shown := managed.ValuesOf(i.InstanceType, o.Spec.InstanceType)
		out = append(out, stoppedChange{field: "instanceType", in: &ec2.ModifyInstanceAttributeInput{InstanceId: aws.String(id),
			InstanceType: &types.AttributeValue{Value: aws.String(o.Spec.InstanceType)}}, values: &shown})
	}
	if o.Spec.UserData == "" {
		return out, nil
	}
	attr, err := d.api.DescribeInstanceAttribute(ctx, &ec2.DescribeInstanceAttributeInput{InstanceId: aws.String(id), Attribute: types.InstanceAttributeNameUserData})
	if err != nil {
		return nil, fmt.Errorf("describe the user data of instance %s: %w", id, err)
	}
	if attr.UserData == nil || aws.ToString(attr.UserData.Value) != base64.StdEncoding.EncodeToString([]byte(o.Spec.UserData)) {
		out = append(out, stoppedChange{field: "userData", in: &ec2.ModifyInstanceAttributeInput{InstanceId: aws.String(id),
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
	values := map[string]managed.Values{}
	for _, c := range changes {
		fields = append(fields, c.field)
		if c.values != nil {
			values[c.field] = *c.values
		}
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
			obs.Changes.AddFieldValues([]string{plan.field}, values, func(ctx context.Context) error {
				_, err := d.api.ModifyInstanceAttribute(ctx, plan.in)
				return managed.Wrap(err, "set %s of instance %s", plan.field, id)
			})
		}
		if want == string(types.InstanceStateNameRunning) {
			obs.Changes.AddValue("state", stateName(i), want, start)
		}
	case want == string(types.InstanceStateNameStopped):
		obs.Changes.AddValue("state", stateName(i), want, stop)
	case len(changes) > 0 && o.Spec.AllowRestart:
		obs.Changes.AddFieldValues(fields, values, stop)
	case len(changes) > 0:
		return managed.Terminal(condition.ReasonRestartRequired, "instance %s must be stopped to change %s: set spec.allowRestart to true to let the operator "+
			"stop and start it, or stop it (spec.state: stopped) and the change is made then", id, strings.Join(fields, " and "))
	}
	return nil
}
