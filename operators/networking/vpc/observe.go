package vpc

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a VPC.
type State struct {
	// VPC is DescribeVpcs' answer.
	VPC types.Vpc
	// DNSSupport and DNSHostnames are the VPC's DNS attributes.
	DNSSupport, DNSHostnames bool
}

// Observe reads the VPC (from the provider's listing at periodic syncs, directly otherwise)
// and its two DNS attributes, fills the status and compares the VPC with the spec. A VPC
// without a recorded id is looked up by its ownership tag.
func (d *driver) Observe(ctx context.Context, v *v1alpha1.VPC) (managed.Observation[State], error) {
	vpc, found, err := d.vpcs.Find(ctx, d.listing, v)
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	id := aws.ToString(vpc.VpcId)
	v.Status.VPCID, v.Status.CIDRBlock, v.Status.State = id, aws.ToString(vpc.CidrBlock), string(vpc.State)
	st := &State{VPC: vpc}
	obs := managed.Observation[State]{Exists: true, State: st, Ready: vpc.State == types.VpcStateAvailable, Tags: ec2util.Tags(vpc.Tags)}
	if aws.ToString(vpc.CidrBlock) != v.Spec.CIDRBlock {
		obs.Conflict = managed.Terminal(managed.ReasonInvalidSpec,
			"VPC %s has the CIDR block %s, not the spec's %s; a VPC's CIDR block cannot change", id, aws.ToString(vpc.CidrBlock), v.Spec.CIDRBlock)
	}
	if !obs.Ready {
		obs.Busy, obs.Message = true, "VPC is "+string(vpc.State)
		return obs, nil
	}
	if st.DNSSupport, err = d.attribute(ctx, id, types.VpcAttributeNameEnableDnsSupport); err != nil {
		return managed.Observation[State]{}, err
	}
	if st.DNSHostnames, err = d.attribute(ctx, id, types.VpcAttributeNameEnableDnsHostnames); err != nil {
		return managed.Observation[State]{}, err
	}
	var diff managed.Diff
	diff.Check("enableDnsSupport", st.DNSSupport != aws.ToBool(v.Spec.EnableDNSSupport))
	diff.Check("enableDnsHostnames", st.DNSHostnames != aws.ToBool(v.Spec.EnableDNSHostnames))
	set, remove := managed.TagChanges(managed.DesiredTags(v, d.defaultTags), ec2util.Tags(vpc.Tags))
	diff.Check("tags", len(set)+len(remove) > 0)
	obs.UpToDate, obs.Diff = len(diff) == 0, diff.String()
	return obs, nil
}

// attribute reads one boolean DNS attribute of VPC id.
func (d *driver) attribute(ctx context.Context, id string, name types.VpcAttributeName) (bool, error) {
	out, err := d.api.DescribeVpcAttribute(ctx, &ec2.DescribeVpcAttributeInput{VpcId: aws.String(id), Attribute: name})
	if err != nil {
		return false, fmt.Errorf("describe attribute %s of VPC %s: %w", name, id, err)
	}
	if name == types.VpcAttributeNameEnableDnsSupport {
		return out.EnableDnsSupport != nil && aws.ToBool(out.EnableDnsSupport.Value), nil
	}
	return out.EnableDnsHostnames != nil && aws.ToBool(out.EnableDnsHostnames.Value), nil
}
