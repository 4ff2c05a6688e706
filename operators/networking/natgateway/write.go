package natgateway

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the gateway with its ownership tags and an idempotency token, and records its
// id. A public gateway needs an internet gateway attached to its VPC (AWS would accept the
// request and fail the gateway), so Create waits for one first; then it uses the spec's Elastic
// IP or the one the operator allocated for the gateway, allocating it now if need be.
func (d *driver) Create(ctx context.Context, g *v1alpha1.NATGateway, req managed.Request) error {
	in := &ec2.CreateNatGatewayInput{
		SubnetId:          aws.String(g.Spec.SubnetID),
		ConnectivityType:  types.ConnectivityType(connectivity(g)),
		ClientToken:       aws.String(ClientToken(g)),
		TagSpecifications: ec2util.TagSpecifications(types.ResourceTypeNatgateway, req.Tags),
	}
	allocated := false
	if in.ConnectivityType == types.ConnectivityTypePublic {
		if err := d.checkInternetGateway(ctx, g.Spec.SubnetID); err != nil {
			return err
		}
		alloc := g.Spec.AllocationID
		if alloc == "" {
			var err error
			if alloc, err = d.ensureAddress(ctx, g, req.Tags); err != nil {
				return err
			}
			allocated = true
		}
		in.AllocationId = aws.String(alloc)
	}
	out, err := d.api.CreateNatGateway(ctx, in)
	if err != nil {
		err = fmt.Errorf("create NAT gateway in subnet %s: %w", g.Spec.SubnetID, err)
		if allocated {
			return d.releaseAfterFailedCreate(ctx, aws.ToString(in.AllocationId), err)
		}
		return err
	}
	managed.SetExternalName(g, aws.ToString(out.NatGateway.NatGatewayId))
	return nil
}

// ClientToken is the idempotency token of g's next CreateNatGateway: g's UID for its first
// gateway, and the UID with the id of the gateway it replaces (one that failed or was deleted)
// after that. A create repeated after a crash gets the gateway the first call made; a
// replacement gets a new gateway, not the deleted one the UID alone would answer with.
func ClientToken(g *v1alpha1.NATGateway) string {
	if replaced := managed.ExternalName(g); replaced != "" {
		return string(g.UID) + "-" + replaced
	}
	return string(g.UID)
}

// checkInternetGateway waits while the VPC of subnet id has no internet gateway attached.
func (d *driver) checkInternetGateway(ctx context.Context, id string) error {
	subnets, err := d.api.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{SubnetIds: []string{id}})
	if err != nil {
		return fmt.Errorf("describe subnet %s: %w", id, err)
	}
	if len(subnets.Subnets) == 0 {
		return fmt.Errorf("describe subnet %s: not in the answer", id)
	}
	vpcID := aws.ToString(subnets.Subnets[0].VpcId)
	igws, err := d.api.DescribeInternetGateways(ctx, &ec2.DescribeInternetGatewaysInput{
		Filters: []types.Filter{{Name: aws.String("attachment.vpc-id"), Values: []string{vpcID}}}})
	if err != nil {
		return fmt.Errorf("look up the internet gateway of VPC %s: %w", vpcID, err)
	}
	if len(igws.InternetGateways) == 0 {
		return managed.Waiting(condition.ReasonNoInternetGateway,
			"VPC %s of subnet %s has no internet gateway attached, which a public NAT gateway needs", vpcID, id)
	}
	return nil
}

// Delete starts deleting the gateway and, once it is deleted, releases the Elastic IP the
// operator allocated for it (AWS frees the address only then). An Elastic IP of the spec is
// left alone.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.NATGateway, obs managed.Observation[State]) error {
	st := obs.State
	switch {
	case st.Address != nil:
		return ec2util.ReleaseAddress(ctx, d.api, aws.ToString(st.Address.AllocationId))
	case st.Gateway.State == types.NatGatewayStateDeleting:
		return nil
	}
	return d.deleteGateway(ctx, aws.ToString(st.Gateway.NatGatewayId))
}

// deleteGateway starts deleting gateway id; one already gone is success.
func (d *driver) deleteGateway(ctx context.Context, id string) error {
	_, err := d.api.DeleteNatGateway(ctx, &ec2.DeleteNatGatewayInput{NatGatewayId: aws.String(id)})
	return ec2util.Deleted(err, "NAT gateway", id)
}

// ReleaseOwnership removes the ownership tags from the gateway and from the Elastic IP the
// operator allocated for it, for deletionPolicy Orphan: both are kept, and the address is no
// longer released by the operator.
func (d *driver) ReleaseOwnership(ctx context.Context, g *v1alpha1.NATGateway, obs managed.Observation[State]) error {
	if gw := obs.State.Gateway; gw != nil {
		if err := ec2util.ReleaseOwnership(ctx, d.api, aws.ToString(gw.NatGatewayId)); err != nil {
			return err
		}
	}
	return d.releaseAddressOwnership(ctx, g)
}
