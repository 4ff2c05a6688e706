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
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create launches the instance with its ownership tags (on the instance and its volumes) and
// an idempotency token, and records its id. An instance the spec wants stopped is stopped once
// it runs (EC2 launches instances running).
func (d *driver) Create(ctx context.Context, o *v1alpha1.EC2Instance, req managed.Request) error {
	tags := desiredTags(o, req.Tags)
	in := &ec2.RunInstancesInput{
		ImageId:               aws.String(o.Spec.ImageID),
		InstanceType:          types.InstanceType(o.Spec.InstanceType),
		MinCount:              aws.Int32(1),
		MaxCount:              aws.Int32(1),
		ClientToken:           aws.String(ClientToken(o)),
		Monitoring:            &types.RunInstancesMonitoringEnabled{Enabled: aws.Bool(o.Spec.Monitoring)},
		MetadataOptions:       metadataOptions(o).request(),
		BlockDeviceMappings:   blockDevices(o.Spec.EBSVolumes),
		DisableApiTermination: o.Spec.DisableAPITermination,
		DisableApiStop:        o.Spec.DisableAPIStop,
		TagSpecifications: append(ec2util.TagSpecifications(types.ResourceTypeInstance, tags),
			ec2util.TagSpecifications(types.ResourceTypeVolume, tags)...),
	}
	if o.Spec.KeyName != "" {
		in.KeyName = aws.String(o.Spec.KeyName)
	}
	if o.Spec.UserData != "" {
		in.UserData = aws.String(base64.StdEncoding.EncodeToString([]byte(o.Spec.UserData)))
	}
	if p := o.Spec.IAMInstanceProfile; strings.HasPrefix(p, "arn:") {
		in.IamInstanceProfile = &types.IamInstanceProfileSpecification{Arn: aws.String(p)}
	} else if p != "" {
		in.IamInstanceProfile = &types.IamInstanceProfileSpecification{Name: aws.String(p)}
	}
	placeNetwork(in, o)
	out, err := d.api.RunInstances(ctx, in)
	if err != nil {
		return fmt.Errorf("run an instance of image %s: %w", o.Spec.ImageID, err)
	}
	if len(out.Instances) == 0 {
		return fmt.Errorf("run an instance of image %s: no instance in the answer", o.Spec.ImageID)
	}
	managed.SetExternalName(o, aws.ToString(out.Instances[0].InstanceId))
	return nil
}

// ClientToken is the idempotency token of o's next RunInstances: o's UID for its first
// instance, and the UID with the id of the instance it replaces (one terminated outside the
// operator) after that. A launch repeated after a crash gets the instance the first call made;
// a replacement gets a new instance, not the terminated one the UID alone would answer with.
func ClientToken(o *v1alpha1.EC2Instance) string {
	if replaced := managed.ExternalName(o); replaced != "" {
		return string(o.UID) + "-" + replaced
	}
	return string(o.UID)
}

// placeNetwork sets the instance's subnet and security groups; a spec that chooses whether the
// instance gets a public address needs them on a network interface.
func placeNetwork(in *ec2.RunInstancesInput, o *v1alpha1.EC2Instance) {
	var subnet *string
	if o.Spec.SubnetID != "" {
		subnet = aws.String(o.Spec.SubnetID)
	}
	if o.Spec.AssociatePublicIPAddress == nil {
		in.SubnetId, in.SecurityGroupIds = subnet, o.Spec.SecurityGroupIDs
		return
	}
	in.NetworkInterfaces = []types.InstanceNetworkInterfaceSpecification{{DeviceIndex: aws.Int32(0), SubnetId: subnet,
		Groups: o.Spec.SecurityGroupIDs, AssociatePublicIpAddress: o.Spec.AssociatePublicIPAddress, DeleteOnTermination: aws.Bool(true)}}
}

// blockDevices returns the block device mappings of the spec's EBS volumes.
func blockDevices(volumes []v1alpha1.EBSVolume) []types.BlockDeviceMapping {
	out := make([]types.BlockDeviceMapping, 0, len(volumes))
	for _, v := range volumes {
		ebs := &types.EbsBlockDevice{DeleteOnTermination: v.DeleteOnTermination, Encrypted: v.Encrypted}
		if v.VolumeSize > 0 {
			ebs.VolumeSize = aws.Int32(v.VolumeSize)
		}
		if v.VolumeType != "" {
			ebs.VolumeType = types.VolumeType(v.VolumeType)
		}
		if v.IOPS > 0 {
			ebs.Iops = aws.Int32(v.IOPS)
		}
		if v.Throughput > 0 {
			ebs.Throughput = aws.Int32(v.Throughput)
		}
		if v.KMSKeyID != "" {
			ebs.KmsKeyId = aws.String(v.KMSKeyID)
		}
		out = append(out, types.BlockDeviceMapping{DeviceName: aws.String(v.DeviceName), Ebs: ebs})
	}
	return out
}

// metadata is the metadata service configuration an instance should have.
type metadata struct {
	HttpTokens              types.HttpTokensState
	HttpEndpoint            types.InstanceMetadataEndpointState
	HttpPutResponseHopLimit *int32
	InstanceMetadataTags    types.InstanceMetadataTagsState
}

// metadataOptions returns the metadata service configuration the spec asks for: IMDSv2
// required, the endpoint on, a hop limit of 2 (so that containers on the instance reach it)
// and no tags in the metadata, unless it says otherwise.
func metadataOptions(o *v1alpha1.EC2Instance) metadata {
	m := metadata{HttpTokens: types.HttpTokensStateRequired, HttpEndpoint: types.InstanceMetadataEndpointStateEnabled,
		HttpPutResponseHopLimit: aws.Int32(2), InstanceMetadataTags: types.InstanceMetadataTagsStateDisabled}
	if s := o.Spec.MetadataOptions; s != nil {
		if s.HTTPTokens != "" {
			m.HttpTokens = types.HttpTokensState(s.HTTPTokens)
		}
		if s.HTTPEndpoint != "" {
			m.HttpEndpoint = types.InstanceMetadataEndpointState(s.HTTPEndpoint)
		}
		if s.HTTPPutResponseHopLimit > 0 {
			m.HttpPutResponseHopLimit = aws.Int32(s.HTTPPutResponseHopLimit)
		}
		if s.InstanceMetadataTags != "" {
			m.InstanceMetadataTags = types.InstanceMetadataTagsState(s.InstanceMetadataTags)
		}
	}
	return m
}

// request returns the configuration as RunInstances takes it.
func (m metadata) request() *types.InstanceMetadataOptionsRequest {
	return &types.InstanceMetadataOptionsRequest{HttpTokens: m.HttpTokens, HttpEndpoint: m.HttpEndpoint,
		HttpPutResponseHopLimit: m.HttpPutResponseHopLimit, InstanceMetadataTags: m.InstanceMetadataTags}
}
