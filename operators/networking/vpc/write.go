package vpc

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

// Create creates the VPC with its ownership tags and records its id. The DNS attributes are
// set by the next reconcile, once the VPC is available.
func (d *driver) Create(ctx context.Context, v *v1alpha1.VPC) error {
	in := &ec2.CreateVpcInput{
		CidrBlock:         aws.String(v.Spec.CIDRBlock),
		TagSpecifications: ec2util.TagSpecifications(types.ResourceTypeVpc, managed.DesiredTags(v, d.defaultTags)),
	}
	if v.Spec.InstanceTenancy != "" {
		in.InstanceTenancy = types.Tenancy(v.Spec.InstanceTenancy)
	}
	out, err := d.api.CreateVpc(ctx, in)
	if err != nil {
		return fmt.Errorf("create VPC %s: %w", v.Spec.CIDRBlock, err)
	}
	managed.SetExternalName(v, aws.ToString(out.Vpc.VpcId))
	return nil
}

// Update sets the DNS attributes that differ (one call each, as the API takes them) and the
// tags.
func (d *driver) Update(ctx context.Context, v *v1alpha1.VPC, obs managed.Observation[State]) error {
	st := obs.State
	id := aws.ToString(st.VPC.VpcId)
	// DNS hostnames need DNS support: turn support on first and off last.
	if want := aws.ToBool(v.Spec.EnableDNSSupport); want && !st.DNSSupport {
		if err := d.modify(ctx, &ec2.ModifyVpcAttributeInput{VpcId: aws.String(id), EnableDnsSupport: &types.AttributeBooleanValue{Value: aws.Bool(true)}}); err != nil {
			return err
		}
	}
	if want := aws.ToBool(v.Spec.EnableDNSHostnames); want != st.DNSHostnames {
		if err := d.modify(ctx, &ec2.ModifyVpcAttributeInput{VpcId: aws.String(id), EnableDnsHostnames: &types.AttributeBooleanValue{Value: aws.Bool(want)}}); err != nil {
			return err
		}
	}
	if want := aws.ToBool(v.Spec.EnableDNSSupport); !want && st.DNSSupport {
		if err := d.modify(ctx, &ec2.ModifyVpcAttributeInput{VpcId: aws.String(id), EnableDnsSupport: &types.AttributeBooleanValue{Value: aws.Bool(false)}}); err != nil {
			return err
		}
	}
	return ec2util.UpdateTags(ctx, d.api, id, managed.DesiredTags(v, d.defaultTags), ec2util.Tags(st.VPC.Tags))
}

func (d *driver) modify(ctx context.Context, in *ec2.ModifyVpcAttributeInput) error {
	if _, err := d.api.ModifyVpcAttribute(ctx, in); err != nil {
		return fmt.Errorf("modify the attributes of VPC %s: %w", aws.ToString(in.VpcId), err)
	}
	return nil
}

// Delete deletes the VPC. While subnets, gateways or other resources still use it, AWS answers
// DependencyViolation, which the reconciler reports and retries with backoff.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.VPC, obs managed.Observation[State]) error {
	id := aws.ToString(obs.State.VPC.VpcId)
	if _, err := d.api.DeleteVpc(ctx, &ec2.DeleteVpcInput{VpcId: aws.String(id)}); err != nil && !awserr.IsNotFound(err) {
		return fmt.Errorf("delete VPC %s: %w", id, err)
	}
	return nil
}

// ReleaseOwnership removes the ownership tags, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.VPC, obs managed.Observation[State]) error {
	return ec2util.ReleaseOwnership(ctx, d.api, aws.ToString(obs.State.VPC.VpcId))
}
