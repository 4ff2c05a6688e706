package ec2

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// modifyInstanceMetadataOptions changes an instance's metadata options; they are pending, then
// applied on the clock. A shutting-down or terminated instance refuses.
func (b *Backend) modifyInstanceMetadataOptions(call *core.Call, in *ec2.ModifyInstanceMetadataOptionsInput) (*ec2.ModifyInstanceMetadataOptionsOutput, error) {
	return withInstance(b, call, aws.ToString(in.InstanceId), func(r *region, i *instance) (*ec2.ModifyInstanceMetadataOptionsOutput, error) {
		if i.ending(call.Now) {
			return nil, incorrectState(i.id, "modified")
		}
		options, err := metadataOptions(i.metadata, types.InstanceMetadataOptionsRequest{HttpTokens: in.HttpTokens, HttpEndpoint: in.HttpEndpoint,
			HttpPutResponseHopLimit: in.HttpPutResponseHopLimit, HttpProtocolIpv6: in.HttpProtocolIpv6, InstanceMetadataTags: in.InstanceMetadataTags})
		if err != nil {
			return nil, err
		}
		if err := dryRun(in.DryRun); err != nil {
			return nil, err
		}
		i.metadata, i.metadataApplied = options, call.Now.Add(call.Transition)
		return &ec2.ModifyInstanceMetadataOptionsOutput{InstanceId: aws.String(i.id), InstanceMetadataOptions: i.metadataOptions(call.Now)}, nil
	})
}

// setMonitoring turns detailed monitoring on or off for instances: pending or disabling, then
// enabled or disabled on the clock. Instances already so are left as they are.
func (b *Backend) setMonitoring(call *core.Call, ids []string, dry *bool, on bool) ([]types.InstanceMonitoring, error) {
	return withInstances(b, call, ids, func(r *region, list []*instance) ([]types.InstanceMonitoring, error) {
		if err := dryRun(dry); err != nil {
			return nil, err
		}
		out := []types.InstanceMonitoring{}
		for _, i := range list {
			if i.monitoring != on {
				i.monitoring, i.monitoringSettled = on, call.Now.Add(call.Transition)
			}
			out = append(out, types.InstanceMonitoring{InstanceId: aws.String(i.id), Monitoring: &types.Monitoring{State: i.monitoringState(call.Now)}})
		}
		return out, nil
	})
}

// monitorInstances turns detailed monitoring on.
func (b *Backend) monitorInstances(call *core.Call, in *ec2.MonitorInstancesInput) (*ec2.MonitorInstancesOutput, error) {
	list, err := b.setMonitoring(call, in.InstanceIds, in.DryRun, true)
	if err != nil {
		return nil, err
	}
	return &ec2.MonitorInstancesOutput{InstanceMonitorings: list}, nil
}

// unmonitorInstances turns detailed monitoring off.
func (b *Backend) unmonitorInstances(call *core.Call, in *ec2.UnmonitorInstancesInput) (*ec2.UnmonitorInstancesOutput, error) {
	list, err := b.setMonitoring(call, in.InstanceIds, in.DryRun, false)
	if err != nil {
		return nil, err
	}
	return &ec2.UnmonitorInstancesOutput{InstanceMonitorings: list}, nil
}
