package subnet

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a subnet.
type State struct {
	// Subnet is DescribeSubnets' answer.
	Subnet types.Subnet
}

// Observe reads the subnet (from the provider's listing at periodic syncs, directly otherwise),
// fills the status and compares it with the spec. A subnet without a recorded id is looked up
// by its ownership tag.
func (d *driver) Observe(ctx context.Context, s *v1alpha1.Subnet) (managed.Observation[State], error) {
	sn, found, err := d.subnets.Find(ctx, d.listing, s)
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	id := aws.ToString(sn.SubnetId)
	s.Status.SubnetID, s.Status.VPCID, s.Status.State = id, aws.ToString(sn.VpcId), string(sn.State)
	s.Status.AvailabilityZone, s.Status.AvailableIPAddressCount = aws.ToString(sn.AvailabilityZone), aws.ToInt32(sn.AvailableIpAddressCount)
	obs := managed.Observation[State]{Exists: true, State: &State{Subnet: sn}, Ready: sn.State == types.SubnetStateAvailable,
		Tags: ec2util.Tags(sn.Tags), Conflict: createdAsSpecified(s, sn)}
	if !obs.Ready {
		obs.Busy, obs.Message = true, "subnet is "+string(sn.State)
		return obs, nil
	}
	var diff managed.Diff
	diff.Check("mapPublicIpOnLaunch", aws.ToBool(sn.MapPublicIpOnLaunch) != s.Spec.MapPublicIPOnLaunch)
	set, remove := managed.TagChanges(managed.DesiredTags(s, d.defaultTags), ec2util.Tags(sn.Tags))
	diff.Check("tags", len(set)+len(remove) > 0)
	obs.UpToDate, obs.Diff = len(diff) == 0, diff.String()
	return obs, nil
}

// createdAsSpecified refuses a subnet whose immutable settings are not the spec's (an adopted
// subnet, or a spec that names another VPC than the one the subnet was made in).
func createdAsSpecified(s *v1alpha1.Subnet, sn types.Subnet) error {
	id := aws.ToString(sn.SubnetId)
	switch {
	case aws.ToString(sn.CidrBlock) != s.Spec.CIDRBlock:
		return managed.Terminal(managed.ReasonInvalidSpec, "subnet %s has the CIDR block %s, not the spec's %s; a subnet's CIDR block cannot change",
			id, aws.ToString(sn.CidrBlock), s.Spec.CIDRBlock)
	case s.Spec.VPCID != "" && aws.ToString(sn.VpcId) != s.Spec.VPCID:
		return managed.Terminal(managed.ReasonInvalidSpec, "subnet %s is in VPC %s, not the spec's %s; a subnet cannot move",
			id, aws.ToString(sn.VpcId), s.Spec.VPCID)
	case s.Spec.AvailabilityZone != "" && aws.ToString(sn.AvailabilityZone) != s.Spec.AvailabilityZone:
		return managed.Terminal(managed.ReasonInvalidSpec, "subnet %s is in %s, not the spec's %s; a subnet cannot move",
			id, aws.ToString(sn.AvailabilityZone), s.Spec.AvailabilityZone)
	}
	return nil
}
