package apigateway

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// vpcLinkRecheck is how soon an API whose VPC link is PENDING is looked at again.
const vpcLinkRecheck = time.Second

// Observe reads an HTTP or WebSocket API: the API with its tags (GetApi, or, before its id
// is recorded, GetApis to find it by its ownership tags), its routes, integrations and stages
// (GetRoutes, GetIntegrations, GetStages), the VPC links the object owns when the spec or the
// status has one (GetVpcLinks, and DescribeListeners once per load balancer of the routes),
// the custom domain name and its mappings when the spec or the status has one, and the resource
// policy of each Lambda function the routes invoke. It fills the status and plans every
// difference from the spec, in the order they can be made: the VPC link, the API's settings,
// the routes and integrations, the stages, the custom domain, the VPC links no integration
// uses any more, the invoke grants and the tags. The API is Ready when nothing differs, its
// VPC link is AVAILABLE and its domain name usable.
func (d *httpDriver) Observe(ctx context.Context, o *v1alpha1.APIGateway, req managed.Request) (managed.Observation[State], error) {
	api, err := d.readHTTP(ctx, o)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if api == nil {
		return d.leftoverHTTP(ctx, o, req)
	}
	id := aws.ToString(api.ApiId)
	executionARN, err := d.executionARN(ctx, id)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	o.Status.APIID, o.Status.APIEndpoint, o.Status.ExecutionARN = id, aws.ToString(api.ApiEndpoint), executionARN
	o.Status.ARN = fmt.Sprintf("arn:%s:apigateway:%s::/apis/%s", provider.Partition(d.region), d.region, id)
	st := &HTTPState{API: api}
	obs := managed.Observation[State]{Exists: true, State: &State{HTTP: st}, Tags: api.Tags}
	taken, err := d.readOwned(ctx, o, id, st)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if req.Deleting {
		return obs, nil
	}
	link := currentVPCLink(o, st.VPCLinks)
	d.planVPCLink(o, link, req.Tags, &obs.Changes)
	d.planAPI(o, api, &obs.Changes)
	routes, integrations, err := d.readHTTPRoutes(ctx, id)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	waiting, err := d.planHTTPRoutes(ctx, o, id, link, routes, integrations, &obs.Changes)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	stages, err := d.readHTTPStages(ctx, id)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	d.planHTTPStages(o, id, stages, &obs.Changes)
	var domainWait string
	if httpDomainName(o) != "" {
		domainWait = d.planHTTPDomain(o, id, st.Domain, taken, req.Tags, &obs)
	}
	d.planStaleVPCLinks(o, st.VPCLinks, link, integrations, &obs.Changes)
	if err := d.planInvokeGrants(ctx, o, id, o.Status.ExecutionARN, &obs.Changes); err != nil {
		return managed.Observation[State]{}, err
	}
	d.planHTTPTags(&obs.Changes, o.Status.ARN, req.Tags, api.Tags)
	obs.Message = cmp.Or(vpcLinkWait(o, link), waiting, domainWait)
	obs.Ready = obs.Message == ""
	if link != nil && link.VpcLinkStatus == types.VpcLinkStatusPending {
		obs.ReadyIn = vpcLinkRecheck
	}
	return obs, nil
}

// vpcLinkWait returns why the spec's VPC link is not usable, "" when it is or the spec has
// none.
func vpcLinkWait(o *v1alpha1.APIGateway, link *types.VpcLink) string {
	switch {
	case o.Spec.VPCLink == nil:
		return ""
	case link == nil:
		return "the VPC link is being created"
	case link.VpcLinkStatus != types.VpcLinkStatusAvailable:
		return fmt.Sprintf("VPC link %s is %s: %s", aws.ToString(link.VpcLinkId), link.VpcLinkStatus, aws.ToString(link.VpcLinkStatusMessage))
	}
	return ""
}

// readHTTP returns the API of o: the one its recorded id names, or, before an id is recorded,
// the one its ownership tags name (a create whose answer was lost), whose id it records; nil
// when there is none.
func (d *httpDriver) readHTTP(ctx context.Context, o *v1alpha1.APIGateway) (*types.Api, error) {
	id := managed.ExternalName(o)
	if id == "" {
		api, err := d.findHTTP(ctx, o)
		if api != nil {
			managed.SetExternalName(o, aws.ToString(api.ApiId))
		}
		return api, err
	}
	out, err := d.http.GetApi(ctx, &apigatewayv2.GetApiInput{ApiId: aws.String(id)})
	if awserr.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get API %s: %w", id, err)
	}
	return &types.Api{ApiId: out.ApiId, Name: out.Name, ProtocolType: out.ProtocolType, ApiEndpoint: out.ApiEndpoint, Description: out.Description,
		CorsConfiguration: out.CorsConfiguration, DisableExecuteApiEndpoint: out.DisableExecuteApiEndpoint,
		RouteSelectionExpression: out.RouteSelectionExpression, Tags: out.Tags}, nil
}

// readOwned reads into st what the object owns beside the API: its VPC links, when the spec or
// the status names one, and its custom domain name, when the spec or the status names one. It
// reports whether that domain name exists and is another's (st.Domain is nil then).
func (d *httpDriver) readOwned(ctx context.Context, o *v1alpha1.APIGateway, apiID string, st *HTTPState) (taken bool, err error) {
	if o.Spec.VPCLink != nil || o.Status.VPCLinkID != "" {
		if st.VPCLinks, err = d.ownedVPCLinks(ctx, o); err != nil {
			return false, err
		}
	}
	dom, taken, err := d.readHTTPDomain(ctx, o, apiID)
	if err != nil || taken {
		return taken, err
	}
	st.Domain = dom
	return false, nil
}

// leftoverHTTP is the observation of an object whose API is gone: one being deleted still
// exists while a VPC link or a custom domain name it owns is left, so that Delete removes it.
func (d *httpDriver) leftoverHTTP(ctx context.Context, o *v1alpha1.APIGateway, req managed.Request) (managed.Observation[State], error) {
	if !req.Deleting {
		return managed.Observation[State]{}, nil
	}
	st := &HTTPState{}
	if _, err := d.readOwned(ctx, o, o.Status.APIID, st); err != nil {
		return managed.Observation[State]{}, err
	}
	return managed.Observation[State]{Exists: len(st.VPCLinks) > 0 || st.Domain != nil, State: &State{HTTP: st}}, nil
}
