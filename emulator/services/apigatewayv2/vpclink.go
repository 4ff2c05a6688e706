package apigatewayv2

import (
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/services/apigateway"
)

// vpcLink is one VPC link: PENDING until readyAt, then AVAILABLE.
type vpcLink struct {
	cfg     types.VpcLink // as GetVpcLink shows it, but for status and tags
	arn     string
	readyAt time.Time
}

// vpcLinkView returns the VPC link as it is at now, with its tags.
func (r *region) vpcLinkView(l *vpcLink, now time.Time) *types.VpcLink {
	out := l.cfg
	out.Tags = r.tags.Map(l.arn)
	out.VpcLinkStatus, out.VpcLinkStatusMessage = types.VpcLinkStatusPending, aws.String("VPC link is provisioning ENIs")
	if !now.Before(l.readyAt) {
		out.VpcLinkStatus, out.VpcLinkStatusMessage = types.VpcLinkStatusAvailable, aws.String("VPC link is ready to route traffic")
	}
	return &out
}

// checkNetwork checks a VPC link's subnets and security groups against EC2: every one must
// exist, and all of them must be in one VPC.
func (b *Backend) checkNetwork(scope core.Scope, subnets, groups []string) error {
	if len(subnets) == 0 {
		return badRequest("SubnetIds must contain at least one subnet")
	}
	vpcs := map[string]bool{}
	for _, id := range subnets {
		vpc, _, ok := b.network.Subnet(scope, id)
		if !ok {
			return badRequest("Subnet %s does not exist", id)
		}
		vpcs[vpc] = true
	}
	for _, id := range groups {
		vpc, ok := b.network.SecurityGroup(scope, id)
		if !ok {
			return badRequest("Security group %s does not exist", id)
		}
		vpcs[vpc] = true
	}
	if len(vpcs) > 1 {
		return badRequest("Subnets and security groups must belong to the same VPC")
	}
	return nil
}

func (b *Backend) createVpcLink(call *core.Call, in *apigatewayv2.CreateVpcLinkInput) (*apigatewayv2.CreateVpcLinkOutput, error) {
	name := aws.ToString(in.Name)
	if name == "" || len(name) > 128 {
		return nil, badRequest("Name must be between 1 and 128 characters")
	}
	scope := call.Scope()
	if err := b.checkNetwork(scope, in.SubnetIds, in.SecurityGroupIds); err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.CreateVpcLinkOutput, error) {
		id := core.LowerAlnumID(6)
		l := &vpcLink{arn: apigateway.ARN(r.scope, "/vpclinks/"+id), readyAt: call.Now.Add(call.Transition)}
		l.cfg = types.VpcLink{
			VpcLinkId: aws.String(id), Name: in.Name, SubnetIds: slices.Clone(in.SubnetIds),
			SecurityGroupIds: slices.Clone(in.SecurityGroupIds), CreatedDate: aws.Time(call.Now), VpcLinkVersion: types.VpcLinkVersionV2,
		}
		if l.cfg.SecurityGroupIds == nil {
			l.cfg.SecurityGroupIds = []string{}
		}
		return apigateway.Created[apigatewayv2.CreateVpcLinkOutput](r.tags, in.Tags, l.arn, r.vpcLinks, id, l, func(l *vpcLink) *types.VpcLink { return r.vpcLinkView(l, call.Now) })
	})
}

// vpcLink returns the VPC link id names, or NotFoundException.
func (r *region) vpcLink(call *core.Call, id *string) (*vpcLink, error) {
	l, ok := r.vpcLinks[aws.ToString(id)]
	if !ok {
		return nil, notFound(call, "VpcLink", aws.ToString(id))
	}
	return l, nil
}

// getVpcLink answers GetVpcLink with the VPC link a request names.
func (b *Backend) getVpcLink(call *core.Call, in *apigatewayv2.GetVpcLinkInput) (*apigatewayv2.GetVpcLinkOutput, error) {
	return apigateway.Read[apigatewayv2.GetVpcLinkOutput](b.state, call, func(r *region) (*types.VpcLink, error) {
		l, err := r.vpcLink(call, in.VpcLinkId)
		return apigateway.View(l, err, func(l *vpcLink) *types.VpcLink { return r.vpcLinkView(l, call.Now) })
	})
}

// getVpcLinks answers GetVpcLinks with a page of the region's VPC links, by id.
func (b *Backend) getVpcLinks(call *core.Call, in *apigatewayv2.GetVpcLinksInput) (*apigatewayv2.GetVpcLinksOutput, error) {
	return apigateway.List[apigatewayv2.GetVpcLinksOutput](b.state, call, func(r *region) ([]types.VpcLink, error) {
		return apigateway.Views(r.vpcLinks, func(l *vpcLink) *types.VpcLink { return r.vpcLinkView(l, call.Now) }), nil
	}, page, in.NextToken, in.MaxResults)
}

func (b *Backend) deleteVpcLink(call *core.Call, in *apigatewayv2.DeleteVpcLinkInput) (*apigatewayv2.DeleteVpcLinkOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.DeleteVpcLinkOutput, error) {
		l, err := r.vpcLink(call, in.VpcLinkId)
		if err != nil {
			return nil, err
		}
		id := aws.ToString(l.cfg.VpcLinkId)
		for _, a := range r.apis {
			for _, it := range a.integrations {
				if aws.ToString(it.ConnectionId) == id {
					return nil, conflict("VPC link %s is used by integration %s of API %s", id, aws.ToString(it.IntegrationId), aws.ToString(a.cfg.ApiId))
				}
			}
		}
		r.tags.Delete(l.arn)
		delete(r.vpcLinks, id)
		return &apigatewayv2.DeleteVpcLinkOutput{}, nil
	})
}
