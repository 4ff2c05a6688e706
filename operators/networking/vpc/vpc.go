package vpc

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

// State is what AWS said about a VPC.
type State struct {
	// VPC is DescribeVpcs' answer.
	VPC types.Vpc
}

// Observe finds the VPC (see ec2util.Source.Find) and, once it is available, reads its two
// DNS attributes; it fills the status and plans the changes that bring the VPC in line with
// the spec.
func (d *driver) Observe(ctx context.Context, v *v1alpha1.VPC, req managed.Request) (managed.Observation[State], error) {
	vpc, found, err := d.vpcs.Find(ctx, v)
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	id, cidr, tags := aws.ToString(vpc.VpcId), aws.ToString(vpc.CidrBlock), ec2util.Tags(vpc.Tags)
	v.Status.VPCID, v.Status.CIDRBlock, v.Status.State = id, cidr, string(vpc.State)
	obs := managed.Observation[State]{Exists: true, State: &State{VPC: vpc}, Ready: vpc.State == types.VpcStateAvailable, Tags: tags}
	if cidr != v.Spec.CIDRBlock {
		obs.Conflict = managed.Terminal(condition.ReasonInvalidSpec,
			"VPC %s has the CIDR block %s, not the spec's %s; a VPC's CIDR block cannot change", id, cidr, v.Spec.CIDRBlock)
	}
	if !obs.Ready {
		obs.Busy, obs.Message = true, "VPC is "+string(vpc.State)
		obs.Uncompared = []string{"enableDnsSupport", "enableDnsHostnames", "tags"}
		return obs, nil
	}
	support, err := d.attribute(ctx, id, types.VpcAttributeNameEnableDnsSupport)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	hostnames, err := d.attribute(ctx, id, types.VpcAttributeNameEnableDnsHostnames)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	d.planDNS(&obs.Changes, id, v, support, hostnames)
	ec2util.PlanTags(&obs.Changes, d.api, id, req.Tags, tags)
	return obs, nil
}

// attribute reads one boolean DNS attribute of VPC id.
func (d *driver) attribute(ctx context.Context, id string, name types.VpcAttributeName) (bool, error) {
	out, err := d.api.DescribeVpcAttribute(ctx, &ec2.DescribeVpcAttributeInput{VpcId: aws.String(id), Attribute: name})
	if err != nil {
		return false, managed.Wrap(err, "describe attribute %s of VPC %s", name, id)
	}
	if name == types.VpcAttributeNameEnableDnsSupport {
		return out.EnableDnsSupport != nil && aws.ToBool(out.EnableDnsSupport.Value), nil
	}
	return out.EnableDnsHostnames != nil && aws.ToBool(out.EnableDnsHostnames.Value), nil
}

// planDNS plans setting the DNS attributes that differ from the spec (support and hostnames
// are what VPC id has), one ModifyVpcAttribute each, as the API takes them, and shows their
// values. DNS hostnames need DNS support: support is turned on first and off last.
func (d *driver) planDNS(plan *managed.Plan, id string, v *v1alpha1.VPC, support, hostnames bool) {
	var fields []string
	values := map[string]managed.Values{}
	var calls []*ec2.ModifyVpcAttributeInput
	if want := aws.ToBool(v.Spec.EnableDNSSupport); want != support {
		fields = append(fields, "enableDnsSupport")
		values["enableDnsSupport"] = managed.ValuesOf(support, want)
		calls = append(calls, &ec2.ModifyVpcAttributeInput{VpcId: aws.String(id), EnableDnsSupport: &types.AttributeBooleanValue{Value: aws.Bool(want)}})
	}
	if want := aws.ToBool(v.Spec.EnableDNSHostnames); want != hostnames {
		fields = append(fields, "enableDnsHostnames")
		values["enableDnsHostnames"] = managed.ValuesOf(hostnames, want)
		calls = append(calls, &ec2.ModifyVpcAttributeInput{VpcId: aws.String(id), EnableDnsHostnames: &types.AttributeBooleanValue{Value: aws.Bool(want)}})
	}
	if len(calls) == 2 && !aws.ToBool(v.Spec.EnableDNSSupport) {
		calls[0], calls[1] = calls[1], calls[0] // support off after hostnames
	}
	plan.AddFieldValues(fields, values, func(ctx context.Context) error {
		for _, in := range calls {
			if _, err := d.api.ModifyVpcAttribute(ctx, in); err != nil {
				return managed.Wrap(err, "modify the attributes of VPC %s", id)
			}
		}
		return nil
	})
}

// Create creates the VPC with its ownership tags and records its id. The DNS attributes are
// set once the VPC is available, by the observation the engine makes right after (in the same
// pass) or a later one.
func (d *driver) Create(ctx context.Context, v *v1alpha1.VPC, req managed.Request) error {
	out, err := d.api.CreateVpc(ctx, &ec2.CreateVpcInput{
		CidrBlock:         aws.String(v.Spec.CIDRBlock),
		InstanceTenancy:   types.Tenancy(v.Spec.InstanceTenancy), // "" leaves AWS's default
		TagSpecifications: ec2util.TagSpecifications(types.ResourceTypeVpc, req.Tags),
	})
	if err != nil {
		return managed.Wrap(err, "create VPC %s", v.Spec.CIDRBlock)
	}
	managed.SetExternalName(v, aws.ToString(out.Vpc.VpcId))
	return nil
}

// Delete deletes the VPC. While subnets, gateways or other resources still use it, AWS answers
// DependencyViolation, which the engine reports and retries with backoff.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.VPC, obs managed.Observation[State]) error {
	id := aws.ToString(obs.State.VPC.VpcId)
	_, err := d.api.DeleteVpc(ctx, &ec2.DeleteVpcInput{VpcId: aws.String(id)})
	return ec2util.Deleted(err, "VPC", id)
}

// ReleaseOwnership removes the ownership tags, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.VPC, obs managed.Observation[State]) error {
	return ec2util.ReleaseOwnership(ctx, d.api, aws.ToString(obs.State.VPC.VpcId))
}
