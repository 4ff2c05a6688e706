package vpcpeeringconnection

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create requests the connection, tagged with its ownership tags, and records its id at once:
// the API has no idempotency token, so a create whose answer was lost is found again by those
// tags (Observe) rather than made twice. A peer VPC of the provider's own account named by id
// is checked first, since the operator will accept the connection into it.
func (d *driver) Create(ctx context.Context, o *v1alpha1.VPCPeeringConnection, req managed.Request) error {
	if o.Spec.PeerVPCRef == nil && o.Spec.PeerOwnerID == "" {
		if err := checkForeignVPC(ctx, d.api, o, o.Spec.PeerVPCID); err != nil {
			return err
		}
	}
	in := &ec2.CreateVpcPeeringConnectionInput{VpcId: aws.String(o.Spec.VPCID), PeerVpcId: aws.String(o.Spec.PeerVPCID),
		TagSpecifications: ec2util.TagSpecifications(types.ResourceTypeVpcPeeringConnection, req.Tags)}
	if o.Spec.PeerOwnerID != "" {
		in.PeerOwnerId = aws.String(o.Spec.PeerOwnerID)
	}
	out, err := d.api.CreateVpcPeeringConnection(ctx, in)
	if err != nil {
		return managed.Wrap(err, "request a VPC peering connection from VPC %s to VPC %s", o.Spec.VPCID, o.Spec.PeerVPCID)
	}
	managed.SetExternalName(o, aws.ToString(out.VpcPeeringConnection.VpcPeeringConnectionId))
	fillStatus(o, *out.VpcPeeringConnection)
	return nil
}

// checkForeignVPC refuses, before anything is written, a peer VPC (read through api, the
// account that accepts) that no object of the namespace made (managed.CheckForeignWrite,
// operator flag --foreign-write-namespaces): the connection joins its routing domain. A peer
// VPC that does not exist is terminal: AWS would answer a failed connection.
func checkForeignVPC(ctx context.Context, api *ec2.Client, o *v1alpha1.VPCPeeringConnection, id string) error {
	out, err := api.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{VpcIds: []string{id}})
	if awserr.IsNotFound(err) || (err == nil && len(out.Vpcs) == 0) {
		return managed.Terminal(condition.ReasonInvalidSpec, "the peer VPC %s does not exist in its account and region", id)
	}
	if err != nil {
		return managed.Wrap(err, "read the tags of the peer VPC %s", id)
	}
	return managed.CheckForeignWrite(ctx, o, "VPC", id, ec2util.Tags(out.Vpcs[0].Tags))
}

// Delete deletes the connection (either side may, the requester also while it waits for
// acceptance); one that ended is left alone.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.VPCPeeringConnection, obs managed.Observation[State]) error {
	c := obs.State.Connection
	if ended(c) {
		return nil
	}
	id := aws.ToString(c.VpcPeeringConnectionId)
	_, err := d.api.DeleteVpcPeeringConnection(ctx, &ec2.DeleteVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(id)})
	return ec2util.Deleted(err, "VPC peering connection", id)
}

// ReleaseOwnership removes the ownership tags from the requester's side of the connection.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.VPCPeeringConnection, obs managed.Observation[State]) error {
	return ec2util.ReleaseOwnership(ctx, d.api, aws.ToString(obs.State.Connection.VpcPeeringConnectionId))
}
