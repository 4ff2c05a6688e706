package ec2

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// igw is one internet gateway; vpc is the VPC it is attached to, if any.
type igw struct {
	core.Readable // hidden from reads for a while after creation, under the ReadAfterCreateDelay fault
	id, vpc       string
}

func (r *region) describeIgw(g *igw, owner string) types.InternetGateway {
	d := types.InternetGateway{InternetGatewayId: aws.String(g.id), OwnerId: aws.String(owner), Attachments: []types.InternetGatewayAttachment{}, Tags: r.tagList(g.id)}
	if g.vpc != "" {
		// AWS reports an attached internet gateway's attachment as "available".
		d.Attachments = []types.InternetGatewayAttachment{{VpcId: aws.String(g.vpc), State: types.AttachmentStatus("available")}}
	}
	return d
}

func (b *Backend) createInternetGateway(call *core.Call, in *ec2.CreateInternetGatewayInput) (*ec2.CreateInternetGatewayOutput, error) {
	tags, err := specTags(in.TagSpecifications, types.ResourceTypeInternetGateway)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*ec2.CreateInternetGatewayOutput, error) {
		g := &igw{Readable: core.ReadableAfter(call), id: newID("igw")}
		if err := r.tags.Merge(tags, g.id); err != nil {
			return nil, err
		}
		r.igws[g.id] = g
		d := r.describeIgw(g, call.Account)
		return &ec2.CreateInternetGatewayOutput{InternetGateway: &d}, nil
	})
}

func (b *Backend) describeInternetGateways(call *core.Call, in *ec2.DescribeInternetGatewaysInput) (*ec2.DescribeInternetGatewaysOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.DescribeInternetGatewaysOutput, error) {
		igws, next, err := describe(call, r.igws, igwKind, in.InternetGatewayIds, in.Filters, paging{in.MaxResults, in.NextToken, 5, 1000}, func(id string, g *igw) view[types.InternetGateway] {
			d := r.describeIgw(g, call.Account)
			f := fields{"internet-gateway-id": {id}, "owner-id": {call.Account}, "attachment.vpc-id": nil, "attachment.state": nil}
			if g.vpc != "" {
				f["attachment.vpc-id"], f["attachment.state"] = []string{g.vpc}, []string{"available"}
			}
			return view[types.InternetGateway]{d, d.Tags, f}
		})
		return &ec2.DescribeInternetGatewaysOutput{InternetGateways: igws, NextToken: next}, err
	})
}

// gatewayAndVpc returns the internet gateway and VPC an attach or detach request names.
func (r *region) gatewayAndVpc(call *core.Call, igwID, vpcID *string) (*igw, *vpc, error) {
	g, err := get(call, r.igws, igwKind, aws.ToString(igwID))
	if err != nil {
		return nil, nil, err
	}
	v, err := get(call, r.vpcs, vpcKind, aws.ToString(vpcID))
	return g, v, err
}

// attachInternetGateway attaches a gateway to a VPC: a VPC has at most one internet gateway,
// and a gateway serves one VPC.
func (b *Backend) attachInternetGateway(call *core.Call, in *ec2.AttachInternetGatewayInput) (*ec2.AttachInternetGatewayOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.AttachInternetGatewayOutput, error) {
		g, v, err := r.gatewayAndVpc(call, in.InternetGatewayId, in.VpcId)
		if err != nil {
			return nil, err
		}
		if g.vpc != "" {
			return nil, core.Errorf("Resource.AlreadyAssociated", "resource %s is already attached to network %s", g.id, g.vpc)
		}
		for _, other := range r.igws {
			if other.vpc == v.id {
				return nil, core.Errorf("Resource.AlreadyAssociated", "Network %s already has an internet gateway attached", v.id)
			}
		}
		g.vpc = v.id
		return &ec2.AttachInternetGatewayOutput{}, nil
	})
}

// detachInternetGateway detaches a gateway from its VPC; AWS refuses while the VPC has public
// addresses mapped through it (a public NAT gateway's Elastic IP).
func (b *Backend) detachInternetGateway(call *core.Call, in *ec2.DetachInternetGatewayInput) (*ec2.DetachInternetGatewayOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.DetachInternetGatewayOutput, error) {
		g, v, err := r.gatewayAndVpc(call, in.InternetGatewayId, in.VpcId)
		if err != nil {
			return nil, err
		}
		vpcID := v.id
		if g.vpc != vpcID {
			return nil, core.Errorf("Gateway.NotAttached", "resource %s is not attached to network %s", g.id, vpcID)
		}
		for _, n := range r.nats {
			if n.vpc == vpcID && n.allocation != "" && n.holdsAddress(call.Now) {
				return nil, core.Errorf("DependencyViolation", "Network %s has some mapped public address(es). Please unmap those public address(es) before detaching the gateway.", vpcID)
			}
		}
		g.vpc = ""
		return &ec2.DetachInternetGatewayOutput{}, nil
	})
}

func (b *Backend) deleteInternetGateway(call *core.Call, in *ec2.DeleteInternetGatewayInput) (*ec2.DeleteInternetGatewayOutput, error) {
	return withGot(b, call, func(r *region) map[string]*igw { return r.igws }, igwKind, in.InternetGatewayId, func(r *region, g *igw) (*ec2.DeleteInternetGatewayOutput, error) {
		if g.vpc != "" {
			return nil, dependencyViolation("internetGateway", g.id)
		}
		delete(r.igws, g.id)
		r.tags.Delete(g.id)
		return &ec2.DeleteInternetGatewayOutput{}, nil
	})
}
