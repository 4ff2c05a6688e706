package internetgateway

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/ec2util"
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

// Observe reads the gateway, fills the status and plans moving its attachment to the spec's
// VPC and setting its tags. The gateway is Ready when it is attached to the spec's VPC (or,
// with no VPC in the spec, when it exists).
func (d *driver) Observe(ctx context.Context, g *v1alpha1.InternetGateway, req managed.Request) (managed.Observation[State], error) {
	gw, found, err := d.gateways.Find(ctx, g)
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	id, attached, tags := aws.ToString(gw.InternetGatewayId), attachedVPC(gw), ec2util.Tags(gw.Tags)
	g.Status.InternetGatewayID, g.Status.VPCID, g.Status.State = id, attached, "available"
	if attached != "" {
		g.Status.State = "attached"
	}
	obs := managed.Observation[State]{Exists: true, State: &State{Gateway: gw}, Ready: attached == g.Spec.VPCID, Tags: tags}
	if want := g.Spec.VPCID; attached != want {
		obs.Changes.AddValue("vpcID", attached, want, func(ctx context.Context) error {
			if err := d.detach(ctx, id, attached); err != nil || want == "" {
				return err
			}
			_, err := d.api.AttachInternetGateway(ctx, &ec2.AttachInternetGatewayInput{InternetGatewayId: aws.String(id), VpcId: aws.String(want)})
			return managed.Wrap(err, "attach internet gateway %s to VPC %s", id, want)
		})
	}
	ec2util.PlanTags(&obs.Changes, d.api, id, req.Tags, tags)
	return obs, nil
}

// Create creates the gateway with its ownership tags and records its id; the observation the
// engine makes right after, in the same pass, plans its attachment.
func (d *driver) Create(ctx context.Context, g *v1alpha1.InternetGateway, req managed.Request) error {
	out, err := d.api.CreateInternetGateway(ctx, &ec2.CreateInternetGatewayInput{
		TagSpecifications: ec2util.TagSpecifications(types.ResourceTypeInternetGateway, req.Tags),
	})
	if err != nil {
		return fmt.Errorf("create internet gateway: %w", err)
	}
	managed.SetExternalName(g, aws.ToString(out.InternetGateway.InternetGatewayId))
	return nil
}

// Delete detaches the gateway from its VPC and deletes it.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.InternetGateway, obs managed.Observation[State]) error {
	id := aws.ToString(obs.State.Gateway.InternetGatewayId)
	if err := d.detach(ctx, id, attachedVPC(obs.State.Gateway)); err != nil {
		return err
	}
	_, err := d.api.DeleteInternetGateway(ctx, &ec2.DeleteInternetGatewayInput{InternetGatewayId: aws.String(id)})
	return ec2util.Deleted(err, "internet gateway", id)
}

// detach detaches gateway id from VPC vpcID, when it is attached to one ("" is none); a
// gateway already detached is success.
func (d *driver) detach(ctx context.Context, id, vpcID string) error {
	if vpcID == "" {
		return nil
	}
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
