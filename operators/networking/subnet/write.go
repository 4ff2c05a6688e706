package subnet

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the subnet with its ownership tags and records its id; the next reconcile
// sets mapPublicIpOnLaunch once it is available. A subnet outside its VPC's range or its
// provider's region is refused first, without a write.
func (d *driver) Create(ctx context.Context, s *v1alpha1.Subnet) error {
	if err := checkPlacement(ctx, d.api, d.region, s); err != nil {
		return err
	}
	in := &ec2.CreateSubnetInput{
		VpcId:             aws.String(s.Spec.VPCID),
		CidrBlock:         aws.String(s.Spec.CIDRBlock),
		TagSpecifications: ec2util.TagSpecifications(types.ResourceTypeSubnet, managed.DesiredTags(s, d.defaultTags)),
	}
	if s.Spec.AvailabilityZone != "" {
		in.AvailabilityZone = aws.String(s.Spec.AvailabilityZone)
	}
	out, err := d.api.CreateSubnet(ctx, in)
	if err != nil {
		return fmt.Errorf("create subnet %s in VPC %s: %w", s.Spec.CIDRBlock, s.Spec.VPCID, err)
	}
	managed.SetExternalName(s, aws.ToString(out.Subnet.SubnetId))
	return nil
}

// Update sets mapPublicIpOnLaunch when it differs, and the tags.
func (d *driver) Update(ctx context.Context, s *v1alpha1.Subnet, obs managed.Observation[State]) error {
	sn := obs.State.Subnet
	id := aws.ToString(sn.SubnetId)
	if aws.ToBool(sn.MapPublicIpOnLaunch) != s.Spec.MapPublicIPOnLaunch {
		if _, err := d.api.ModifySubnetAttribute(ctx, &ec2.ModifySubnetAttributeInput{SubnetId: aws.String(id),
			MapPublicIpOnLaunch: &types.AttributeBooleanValue{Value: aws.Bool(s.Spec.MapPublicIPOnLaunch)}}); err != nil {
			return fmt.Errorf("modify subnet %s: %w", id, err)
		}
	}
	return ec2util.UpdateTags(ctx, d.api, id, managed.DesiredTags(s, d.defaultTags), ec2util.Tags(sn.Tags))
}

// Delete deletes the subnet; while NAT gateways or interfaces use it AWS answers
// DependencyViolation, which the reconciler reports and retries with backoff.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.Subnet, obs managed.Observation[State]) error {
	id := aws.ToString(obs.State.Subnet.SubnetId)
	if _, err := d.api.DeleteSubnet(ctx, &ec2.DeleteSubnetInput{SubnetId: aws.String(id)}); err != nil && !awserr.IsNotFound(err) {
		return fmt.Errorf("delete subnet %s: %w", id, err)
	}
	return nil
}

// ReleaseOwnership removes the ownership tags, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.Subnet, obs managed.Observation[State]) error {
	return ec2util.ReleaseOwnership(ctx, d.api, aws.ToString(obs.State.Subnet.SubnetId))
}
