package ec2instance

import (
	"context"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

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
	// Compact shortens the slice it returns and clears the tail of the one it is given: a group
	// named twice in the spec is sent once, never as an empty id.
	desired = slices.Compact(desired)
	if slices.Equal(desired, observed) {
		return
	}
	id := aws.ToString(i.InstanceId)
	plan.AddValue("securityGroupIDs", observed, desired, func(ctx context.Context) error {
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
	plan.AddValue("monitoring", on, o.Spec.Monitoring, func(ctx context.Context) error {
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
	current := shownMetadata{}
	if got != nil {
		current = shownMetadata{HTTPTokens: got.HttpTokens, HTTPEndpoint: got.HttpEndpoint, HTTPPutResponseHopLimit: aws.ToInt32(got.HttpPutResponseHopLimit),
			InstanceMetadataTags: got.InstanceMetadataTags}
	}
	desired := shownMetadata{HTTPTokens: want.HttpTokens, HTTPEndpoint: want.HttpEndpoint, HTTPPutResponseHopLimit: aws.ToInt32(want.HttpPutResponseHopLimit),
		InstanceMetadataTags: want.InstanceMetadataTags}
	plan.AddValue("metadataOptions", current, desired, func(ctx context.Context) error {
		_, err := d.api.ModifyInstanceMetadataOptions(ctx, &ec2.ModifyInstanceMetadataOptionsInput{InstanceId: aws.String(id),
			HttpTokens: want.HttpTokens, HttpEndpoint: want.HttpEndpoint, HttpPutResponseHopLimit: want.HttpPutResponseHopLimit,
			InstanceMetadataTags: want.InstanceMetadataTags})
		return managed.Wrap(err, "set the metadata options of instance %s", id)
	})
}

// shownMetadata is how a plan shows an instance's metadata service options, in the spec's
// field names.
type shownMetadata struct {
	HTTPTokens              types.HttpTokensState               `json:"httpTokens"`
	HTTPEndpoint            types.InstanceMetadataEndpointState `json:"httpEndpoint"`
	HTTPPutResponseHopLimit int32                               `json:"httpPutResponseHopLimit"`
	InstanceMetadataTags    types.InstanceMetadataTagsState     `json:"instanceMetadataTags"`
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
		plan.AddValue(p.field, got, want, func(ctx context.Context) error {
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
