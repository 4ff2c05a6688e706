package apigateway

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// vpcLinkARN returns the ARN of VPC link id, which tags name it by.
func vpcLinkARN(region, id string) string {
	return fmt.Sprintf("arn:%s:apigateway:%s::/vpclinks/%s", provider.Partition(region), region, id)
}

// ownedVPCLinks lists the VPC links o owns (GetVpcLinks lists every VPC link of the region
// with its tags): the current one and any it is replacing or that a lost answer left.
func (d *httpDriver) ownedVPCLinks(ctx context.Context, o *v1alpha1.APIGateway) ([]types.VpcLink, error) {
	var owned []types.VpcLink
	for token := (*string)(nil); ; {
		out, err := d.http.GetVpcLinks(ctx, &apigatewayv2.GetVpcLinksInput{NextToken: token})
		if err != nil {
			return nil, fmt.Errorf("list VPC links: %w", err)
		}
		for _, l := range out.Items {
			if managed.OwnedBy(o, l.Tags) {
				owned = append(owned, l)
			}
		}
		if token = out.NextToken; token == nil {
			return owned, nil
		}
	}
}

// currentVPCLink returns the VPC link the routes use, among the owned ones: the one
// status.vpcLinkID records, or, before one is recorded (a create whose answer was lost), one
// on the spec's network; nil when the spec has no vpcLink. It fills status.vpcLinkID and
// status.vpcLinkStatus, which go on naming a recorded link the spec dropped until it is
// deleted.
func currentVPCLink(o *v1alpha1.APIGateway, owned []types.VpcLink) *types.VpcLink {
	var found *types.VpcLink
	for i, l := range owned {
		if aws.ToString(l.VpcLinkId) == o.Status.VPCLinkID || o.Status.VPCLinkID == "" && o.Spec.VPCLink != nil && sameNetwork(o.Spec.VPCLink, l) {
			found = &owned[i]
			break
		}
	}
	o.Status.VPCLinkID, o.Status.VPCLinkStatus = "", ""
	if found == nil {
		return nil
	}
	o.Status.VPCLinkID, o.Status.VPCLinkStatus = aws.ToString(found.VpcLinkId), string(found.VpcLinkStatus)
	if o.Spec.VPCLink == nil {
		return nil
	}
	return found
}

// sameNetwork reports whether VPC link l has the spec's subnets and security groups.
func sameNetwork(spec *v1alpha1.VPCLink, l types.VpcLink) bool {
	return managed.SameSet(spec.SubnetIDs, l.SubnetIds) && managed.SameSet(spec.SecurityGroupIDs, l.SecurityGroupIds)
}

// planVPCLink plans the VPC link of an API whose spec has one: created when it has none, and,
// since a VPC link's subnets and security groups cannot change, a new one created when they
// differ (the routes move to it once it is AVAILABLE, and the old one is deleted then).
func (d *httpDriver) planVPCLink(o *v1alpha1.APIGateway, current *types.VpcLink, tags map[string]string, plan *managed.Plan) {
	spec := o.Spec.VPCLink
	if spec == nil || current != nil && sameNetwork(spec, *current) {
		return
	}
	plan.Add("vpcLink", func(ctx context.Context) error {
		out, err := d.http.CreateVpcLink(ctx, &apigatewayv2.CreateVpcLinkInput{Name: aws.String(apiName(o)), SubnetIds: spec.SubnetIDs,
			SecurityGroupIds: spec.SecurityGroupIDs, Tags: tags})
		if err != nil {
			return managed.Wrap(err, "create the VPC link of API %s", o.Status.APIID)
		}
		o.Status.VPCLinkID, o.Status.VPCLinkStatus = aws.ToString(out.VpcLinkId), string(out.VpcLinkStatus)
		return nil
	})
}

// planStaleVPCLinks plans the deletion of the owned VPC links other than the current one that
// no integration of the API uses any more (a replaced link, once its routes moved; the link of
// a spec that dropped vpcLink).
func (d *httpDriver) planStaleVPCLinks(o *v1alpha1.APIGateway, owned []types.VpcLink, current *types.VpcLink, integrations map[string]types.Integration, plan *managed.Plan) {
	used := map[string]bool{}
	for _, it := range integrations {
		used[aws.ToString(it.ConnectionId)] = true
	}
	for _, l := range owned {
		id := aws.ToString(l.VpcLinkId)
		if current != nil && id == aws.ToString(current.VpcLinkId) || used[id] {
			continue
		}
		plan.Add("vpcLink", func(ctx context.Context) error {
			if err := d.deleteVPCLink(ctx, id); err != nil {
				return err
			}
			if o.Status.VPCLinkID == id {
				o.Status.VPCLinkID, o.Status.VPCLinkStatus = "", ""
			}
			return nil
		})
	}
}

// deleteVPCLink deletes VPC link id; one already gone is success.
func (d *httpDriver) deleteVPCLink(ctx context.Context, id string) error {
	_, err := d.http.DeleteVpcLink(ctx, &apigatewayv2.DeleteVpcLinkInput{VpcLinkId: aws.String(id)})
	return notFoundIsGone(err, "delete VPC link %s", id)
}
