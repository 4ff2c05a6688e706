package subnet

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a subnet.
type State struct {
	// Subnet is DescribeSubnets' answer.
	Subnet types.Subnet
}

// Observe finds the subnet (see ec2util.Source.Find), fills the status and, once it is
// available, plans the changes that bring it in line with the spec.
func (d *driver) Observe(ctx context.Context, s *v1alpha1.Subnet, req managed.Request) (managed.Observation[State], error) {
	sn, found, err := d.subnets.Find(ctx, s)
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	id, tags := aws.ToString(sn.SubnetId), ec2util.Tags(sn.Tags)
	s.Status.SubnetID, s.Status.VPCID, s.Status.State = id, aws.ToString(sn.VpcId), string(sn.State)
	s.Status.AvailabilityZone, s.Status.AvailableIPAddressCount = aws.ToString(sn.AvailabilityZone), aws.ToInt32(sn.AvailableIpAddressCount)
	obs := managed.Observation[State]{Exists: true, State: &State{Subnet: sn}, Ready: sn.State == types.SubnetStateAvailable,
		Tags: tags, Conflict: createdAsSpecified(s, sn)}
	if !obs.Ready {
		obs.Busy, obs.Message = true, "subnet is "+string(sn.State)
		obs.Uncompared = []string{"mapPublicIpOnLaunch", "tags"}
		return obs, nil
	}
	if want := s.Spec.MapPublicIPOnLaunch; aws.ToBool(sn.MapPublicIpOnLaunch) != want {
		obs.Changes.AddValue("mapPublicIpOnLaunch", aws.ToBool(sn.MapPublicIpOnLaunch), want, func(ctx context.Context) error {
			_, err := d.api.ModifySubnetAttribute(ctx, &ec2.ModifySubnetAttributeInput{SubnetId: aws.String(id),
				MapPublicIpOnLaunch: &types.AttributeBooleanValue{Value: aws.Bool(want)}})
			return managed.Wrap(err, "modify subnet %s", id)
		})
	}
	ec2util.PlanTags(&obs.Changes, d.api, id, req.Tags, tags)
	return obs, nil
}

// createdAsSpecified refuses a subnet whose immutable settings are not the spec's (an adopted
// subnet, or a spec that names another VPC than the one the subnet was made in).
func createdAsSpecified(s *v1alpha1.Subnet, sn types.Subnet) error {
	id := aws.ToString(sn.SubnetId)
	switch {
	case aws.ToString(sn.CidrBlock) != s.Spec.CIDRBlock:
		return managed.Terminal(condition.ReasonInvalidSpec, "subnet %s has the CIDR block %s, not the spec's %s; a subnet's CIDR block cannot change",
			id, aws.ToString(sn.CidrBlock), s.Spec.CIDRBlock)
	case s.Spec.VPCID != "" && aws.ToString(sn.VpcId) != s.Spec.VPCID:
		return managed.Terminal(condition.ReasonInvalidSpec, "subnet %s is in VPC %s, not the spec's %s; a subnet cannot move",
			id, aws.ToString(sn.VpcId), s.Spec.VPCID)
	case s.Spec.AvailabilityZone != "" && aws.ToString(sn.AvailabilityZone) != s.Spec.AvailabilityZone:
		return managed.Terminal(condition.ReasonInvalidSpec, "subnet %s is in %s, not the spec's %s; a subnet cannot move",
			id, aws.ToString(sn.AvailabilityZone), s.Spec.AvailabilityZone)
	}
	return nil
}

// Create creates the subnet with its ownership tags and records its id; mapPublicIpOnLaunch is
// set once it is available, by the observation the engine makes right after (in the same pass)
// or a later one. A subnet outside its VPC's range or its provider's region is refused first,
// without a write.
func (d *driver) Create(ctx context.Context, s *v1alpha1.Subnet, req managed.Request) error {
	if err := checkPlacement(ctx, d.api, d.region, s); err != nil {
		return err
	}
	in := &ec2.CreateSubnetInput{
		VpcId:             aws.String(s.Spec.VPCID),
		CidrBlock:         aws.String(s.Spec.CIDRBlock),
		TagSpecifications: ec2util.TagSpecifications(types.ResourceTypeSubnet, req.Tags),
	}
	if s.Spec.AvailabilityZone != "" {
		in.AvailabilityZone = aws.String(s.Spec.AvailabilityZone)
	}
	out, err := d.api.CreateSubnet(ctx, in)
	if err != nil {
		return managed.Wrap(err, "create subnet %s in VPC %s", s.Spec.CIDRBlock, s.Spec.VPCID)
	}
	managed.SetExternalName(s, aws.ToString(out.Subnet.SubnetId))
	return nil
}

// Delete deletes the subnet; while NAT gateways or interfaces use it AWS answers
// DependencyViolation, which the engine reports and retries with backoff.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.Subnet, obs managed.Observation[State]) error {
	id := aws.ToString(obs.State.Subnet.SubnetId)
	_, err := d.api.DeleteSubnet(ctx, &ec2.DeleteSubnetInput{SubnetId: aws.String(id)})
	return ec2util.Deleted(err, "subnet", id)
}

// ReleaseOwnership removes the ownership tags, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.Subnet, obs managed.Observation[State]) error {
	return ec2util.ReleaseOwnership(ctx, d.api, aws.ToString(obs.State.Subnet.SubnetId))
}
