package apigateway

import (
	"regexp"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// vpcLink is one VPC link to Network Load Balancers: PENDING until readyAt, then AVAILABLE.
type vpcLink struct {
	cfg     types.VpcLink // as GetVpcLink shows it, but for status and tags
	arn     string
	readyAt time.Time
}

// networkLoadBalancer is the form of a VPC link's target: a Network Load Balancer ARN.
var networkLoadBalancer = regexp.MustCompile(`^arn:aws[a-z-]*:elasticloadbalancing:[a-z0-9-]+:\d{12}:loadbalancer/net/[^/]+/[0-9a-f]+$`)

// vpcLinkView returns the VPC link as it is at now, with its tags.
func (r *region) vpcLinkView(l *vpcLink, now time.Time) *types.VpcLink {
	out := l.cfg
	out.Tags = r.tags.Map(l.arn)
	out.Status, out.StatusMessage = types.VpcLinkStatusPending, aws.String("VPC link is provisioning")
	if !now.Before(l.readyAt) {
		out.Status, out.StatusMessage = types.VpcLinkStatusAvailable, aws.String("Your vpc link is ready for use")
	}
	return &out
}

func (b *Backend) createVpcLink(call *core.Call, in *apigateway.CreateVpcLinkInput) (*apigateway.CreateVpcLinkOutput, error) {
	if aws.ToString(in.Name) == "" {
		return nil, BadRequest("Name must be specified")
	}
	if len(in.TargetArns) != 1 {
		return nil, BadRequest("A VPC link must target exactly one Network Load Balancer")
	}
	if !networkLoadBalancer.MatchString(in.TargetArns[0]) {
		return nil, BadRequest("Invalid target ARN specified: %s. It must be a Network Load Balancer ARN", in.TargetArns[0])
	}
	return core.Locked(b.state, call, func(r *region) (*apigateway.CreateVpcLinkOutput, error) {
		id := core.LowerAlnumID(6)
		l := &vpcLink{arn: ARN(r.scope, "/vpclinks/"+id), readyAt: call.Now.Add(call.Transition)}
		l.cfg = types.VpcLink{Id: aws.String(id), Name: in.Name, Description: in.Description, TargetArns: slices.Clone(in.TargetArns)}
		return Created[apigateway.CreateVpcLinkOutput](r.tags, in.Tags, l.arn, r.vpcLinks, id, l, func(l *vpcLink) *types.VpcLink { return r.vpcLinkView(l, call.Now) })
	})
}

// vpcLink returns the VPC link a request names, or NotFoundException.
func (r *region) vpcLink(call *core.Call, id *string) (*vpcLink, error) {
	l, ok := r.vpcLinks[aws.ToString(id)]
	if !ok {
		return nil, NotFound(call, "VPC link", aws.ToString(id))
	}
	return l, nil
}

// getVpcLink answers GetVpcLink with the VPC link a request names.
func (b *Backend) getVpcLink(call *core.Call, in *apigateway.GetVpcLinkInput) (*apigateway.GetVpcLinkOutput, error) {
	return Read[apigateway.GetVpcLinkOutput](b.state, call, func(r *region) (*types.VpcLink, error) {
		l, err := r.vpcLink(call, in.VpcLinkId)
		return View(l, err, func(l *vpcLink) *types.VpcLink { return r.vpcLinkView(l, call.Now) })
	})
}

// getVpcLinks answers GetVpcLinks with a page of the region's VPC links, by id.
func (b *Backend) getVpcLinks(call *core.Call, in *apigateway.GetVpcLinksInput) (*apigateway.GetVpcLinksOutput, error) {
	return List[apigateway.GetVpcLinksOutput](b.state, call, func(r *region) ([]types.VpcLink, error) {
		return Views(r.vpcLinks, func(l *vpcLink) *types.VpcLink { return r.vpcLinkView(l, call.Now) }), nil
	}, page, in.Position, in.Limit)
}

func (b *Backend) deleteVpcLink(call *core.Call, in *apigateway.DeleteVpcLinkInput) (*apigateway.DeleteVpcLinkOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.DeleteVpcLinkOutput, error) {
		l, err := r.vpcLink(call, in.VpcLinkId)
		if err != nil {
			return nil, err
		}
		id := aws.ToString(l.cfg.Id)
		for _, a := range r.apis {
			for _, res := range a.resources {
				for _, m := range res.methods {
					if it := m.MethodIntegration; it != nil && aws.ToString(it.ConnectionId) == id {
						return nil, BadRequest("Cannot delete vpc link. Vpc link '%s', is referenced in [%s %s] in format of [Method Resource].",
							id, aws.ToString(m.HttpMethod), aws.ToString(res.cfg.Path))
					}
				}
			}
		}
		r.tags.Delete(l.arn)
		delete(r.vpcLinks, id)
		return &apigateway.DeleteVpcLinkOutput{}, nil
	})
}
