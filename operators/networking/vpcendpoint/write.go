package vpcendpoint

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the endpoint with its ownership tags and the object's UID as the idempotency
// token (a create repeated after a crash answers the same endpoint), and records its id. Route
// tables and subnets named by id rather than by reference must be the namespace's own: a
// gateway endpoint writes a route into each route table.
func (d *driver) Create(ctx context.Context, e *v1alpha1.VPCEndpoint, req managed.Request) error {
	if err := d.checkForeign(ctx, e); err != nil {
		return err
	}
	in := &ec2.CreateVpcEndpointInput{
		VpcId: aws.String(e.Spec.VPCID), ServiceName: aws.String(e.Spec.ServiceName), VpcEndpointType: types.VpcEndpointType(e.Spec.Type),
		ClientToken: aws.String(string(e.UID)), TagSpecifications: ec2util.TagSpecifications(types.ResourceTypeVpcEndpoint, req.Tags),
	}
	if e.Spec.PolicyDocument != "" {
		in.PolicyDocument = aws.String(e.Spec.PolicyDocument)
	}
	if gateway(e) {
		in.RouteTableIds = e.Spec.RouteTableIDs
	} else {
		in.SubnetIds, in.SecurityGroupIds, in.PrivateDnsEnabled = e.Spec.SubnetIDs, e.Spec.SecurityGroupIDs, aws.Bool(privateDNS(e))
	}
	out, err := d.api.CreateVpcEndpoint(ctx, in)
	if err != nil {
		return managed.Wrap(err, "create VPC endpoint for %s in VPC %s", e.Spec.ServiceName, e.Spec.VPCID)
	}
	managed.SetExternalName(e, aws.ToString(out.VpcEndpoint.VpcEndpointId))
	fillStatus(e, *out.VpcEndpoint)
	return nil
}

// checkForeign refuses, before anything is written, a route table or subnet named by id that
// no object of the namespace made (managed.CheckForeignWrite, operator flag
// --foreign-write-namespaces); references name the namespace's own. Their tags are read with
// one Describe call each kind.
func (d *driver) checkForeign(ctx context.Context, e *v1alpha1.VPCEndpoint) error {
	if len(e.Spec.RouteTableRefs) == 0 && len(e.Spec.RouteTableIDs) > 0 {
		out, err := d.api.DescribeRouteTables(ctx, &ec2.DescribeRouteTablesInput{RouteTableIds: e.Spec.RouteTableIDs})
		if err != nil {
			return managed.Wrap(err, "read the tags of route tables %v", e.Spec.RouteTableIDs)
		}
		for _, t := range out.RouteTables {
			if err := managed.CheckForeignWrite(ctx, e, "route table", aws.ToString(t.RouteTableId), ec2util.Tags(t.Tags)); err != nil {
				return err
			}
		}
	}
	if len(e.Spec.SubnetRefs) == 0 && len(e.Spec.SubnetIDs) > 0 {
		out, err := d.api.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{SubnetIds: e.Spec.SubnetIDs})
		if err != nil {
			return managed.Wrap(err, "read the tags of subnets %v", e.Spec.SubnetIDs)
		}
		for _, s := range out.Subnets {
			if err := managed.CheckForeignWrite(ctx, e, "subnet", aws.ToString(s.SubnetId), ec2util.Tags(s.Tags)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Delete starts deleting the endpoint; one deleting or already gone is left to finish.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.VPCEndpoint, obs managed.Observation[State]) error {
	ep := obs.State.Endpoint
	if gone(ep) {
		return nil
	}
	id := aws.ToString(ep.VpcEndpointId)
	out, err := d.api.DeleteVpcEndpoints(ctx, &ec2.DeleteVpcEndpointsInput{VpcEndpointIds: []string{id}})
	if err != nil {
		return ec2util.Deleted(err, "VPC endpoint", id)
	}
	for _, u := range out.Unsuccessful {
		if u.Error != nil && aws.ToString(u.Error.Code) != "InvalidVpcEndpointId.NotFound" {
			return managed.Wrap(&unsuccessful{code: aws.ToString(u.Error.Code), message: aws.ToString(u.Error.Message)}, "delete VPC endpoint %s", id)
		}
	}
	return nil
}

// unsuccessful is an item DeleteVpcEndpoints could not delete.
type unsuccessful struct{ code, message string }

// Error returns the item's error as EC2 gave it.
func (u *unsuccessful) Error() string { return u.code + ": " + u.message }

// ReleaseOwnership removes the ownership tags from the endpoint.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.VPCEndpoint, obs managed.Observation[State]) error {
	return ec2util.ReleaseOwnership(ctx, d.api, aws.ToString(obs.State.Endpoint.VpcEndpointId))
}
