package internetgateway

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

// State is what AWS said about an internet gateway.
type State struct {
	// Gateway is DescribeInternetGateways' answer.
	Gateway types.InternetGateway
}

// attachedVPC returns the VPC the gateway is attached to (or attaching to), or "".
func attachedVPC(g types.InternetGateway) string {
	for _, a := range g.Attachments {
		if a.State != types.AttachmentStatusDetached && a.State != types.AttachmentStatusDetaching {
			return aws.ToString(a.VpcId)
		}
	}
	return ""
}

// Observe reads the gateway, fills the status and compares its attachment and tags with the
// spec. The gateway is Ready when it is attached to the spec's VPC (or, with no VPC in the
// spec, when it exists).
func (d *driver) Observe(ctx context.Context, g *v1alpha1.InternetGateway) (managed.Observation[State], error) {
	gw, found, err := d.gateways.Find(ctx, d.listing, g)
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	attached := attachedVPC(gw)
	g.Status.InternetGatewayID, g.Status.VPCID = aws.ToString(gw.InternetGatewayId), attached
	g.Status.State = "available"
	if attached != "" {
		g.Status.State = "attached"
	}
	var diff managed.Diff
	diff.Check("vpcID", attached != g.Spec.VPCID)
	set, remove := managed.TagChanges(managed.DesiredTags(g, d.defaultTags), ec2util.Tags(gw.Tags))
	diff.Check("tags", len(set)+len(remove) > 0)
	return managed.Observation[State]{Exists: true, State: &State{Gateway: gw}, Ready: attached == g.Spec.VPCID,
		UpToDate: len(diff) == 0, Diff: diff.String(), Tags: ec2util.Tags(gw.Tags)}, nil
}

// Create creates the gateway with its ownership tags and records its id; the next reconcile
// attaches it.
func (d *driver) Create(ctx context.Context, g *v1alpha1.InternetGateway) error {
	out, err := d.api.CreateInternetGateway(ctx, &ec2.CreateInternetGatewayInput{
		TagSpecifications: ec2util.TagSpecifications(types.ResourceTypeInternetGateway, managed.DesiredTags(g, d.defaultTags)),
	})
	if err != nil {
		return fmt.Errorf("create internet gateway: %w", err)
	}
	managed.SetExternalName(g, aws.ToString(out.InternetGateway.InternetGatewayId))
	return nil
}

// Update moves the attachment to the spec's VPC (detaching from another first) and sets the
// tags.
func (d *driver) Update(ctx context.Context, g *v1alpha1.InternetGateway, obs managed.Observation[State]) error {
	gw := obs.State.Gateway
	id := aws.ToString(gw.InternetGatewayId)
	if attached := attachedVPC(gw); attached != g.Spec.VPCID {
		if attached != "" {
			if err := d.detach(ctx, id, attached); err != nil {
				return err
			}
		}
		if g.Spec.VPCID != "" {
			if _, err := d.api.AttachInternetGateway(ctx, &ec2.AttachInternetGatewayInput{InternetGatewayId: aws.String(id), VpcId: aws.String(g.Spec.VPCID)}); err != nil {
				return fmt.Errorf("attach internet gateway %s to VPC %s: %w", id, g.Spec.VPCID, err)
			}
		}
	}
	return ec2util.UpdateTags(ctx, d.api, id, managed.DesiredTags(g, d.defaultTags), ec2util.Tags(gw.Tags))
}

// Delete detaches the gateway from its VPC and deletes it.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.InternetGateway, obs managed.Observation[State]) error {
	gw := obs.State.Gateway
	id := aws.ToString(gw.InternetGatewayId)
	if attached := attachedVPC(gw); attached != "" {
		if err := d.detach(ctx, id, attached); err != nil {
			return err
		}
	}
	if _, err := d.api.DeleteInternetGateway(ctx, &ec2.DeleteInternetGatewayInput{InternetGatewayId: aws.String(id)}); err != nil && !awserr.IsNotFound(err) {
		return fmt.Errorf("delete internet gateway %s: %w", id, err)
	}
	return nil
}

// detach detaches gateway id from VPC vpcID; a gateway already detached is success.
func (d *driver) detach(ctx context.Context, id, vpcID string) error {
	_, err := d.api.DetachInternetGateway(ctx, &ec2.DetachInternetGatewayInput{InternetGatewayId: aws.String(id), VpcId: aws.String(vpcID)})
	if err != nil && awserr.Code(err) != "Gateway.NotAttached" && !awserr.IsNotFound(err) {
		return fmt.Errorf("detach internet gateway %s from VPC %s: %w", id, vpcID, err)
	}
	return nil
}

// ReleaseOwnership removes the ownership tags, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.InternetGateway, obs managed.Observation[State]) error {
	return ec2util.ReleaseOwnership(ctx, d.api, aws.ToString(obs.State.Gateway.InternetGatewayId))
}
