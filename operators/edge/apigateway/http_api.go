package apigateway

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// httpAPI is the part of API Gateway v2 the operator uses for HTTP and WebSocket APIs: the API,
// its routes, integrations and stages, the VPC link it owns, its custom domain name, and tags.
type httpAPI interface {
	CreateApi(ctx context.Context, in *apigatewayv2.CreateApiInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.CreateApiOutput, error)
	GetApi(ctx context.Context, in *apigatewayv2.GetApiInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.GetApiOutput, error)
	GetApis(ctx context.Context, in *apigatewayv2.GetApisInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.GetApisOutput, error)
	UpdateApi(ctx context.Context, in *apigatewayv2.UpdateApiInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.UpdateApiOutput, error)
	DeleteApi(ctx context.Context, in *apigatewayv2.DeleteApiInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.DeleteApiOutput, error)
	DeleteCorsConfiguration(ctx context.Context, in *apigatewayv2.DeleteCorsConfigurationInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.DeleteCorsConfigurationOutput, error)

	CreateRoute(ctx context.Context, in *apigatewayv2.CreateRouteInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.CreateRouteOutput, error)
	GetRoutes(ctx context.Context, in *apigatewayv2.GetRoutesInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.GetRoutesOutput, error)
	UpdateRoute(ctx context.Context, in *apigatewayv2.UpdateRouteInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.UpdateRouteOutput, error)
	DeleteRoute(ctx context.Context, in *apigatewayv2.DeleteRouteInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.DeleteRouteOutput, error)

	CreateIntegration(ctx context.Context, in *apigatewayv2.CreateIntegrationInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.CreateIntegrationOutput, error)
	GetIntegrations(ctx context.Context, in *apigatewayv2.GetIntegrationsInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.GetIntegrationsOutput, error)
	UpdateIntegration(ctx context.Context, in *apigatewayv2.UpdateIntegrationInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.UpdateIntegrationOutput, error)
	DeleteIntegration(ctx context.Context, in *apigatewayv2.DeleteIntegrationInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.DeleteIntegrationOutput, error)

	CreateStage(ctx context.Context, in *apigatewayv2.CreateStageInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.CreateStageOutput, error)
	GetStages(ctx context.Context, in *apigatewayv2.GetStagesInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.GetStagesOutput, error)
	UpdateStage(ctx context.Context, in *apigatewayv2.UpdateStageInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.UpdateStageOutput, error)
	DeleteStage(ctx context.Context, in *apigatewayv2.DeleteStageInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.DeleteStageOutput, error)
	DeleteAccessLogSettings(ctx context.Context, in *apigatewayv2.DeleteAccessLogSettingsInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.DeleteAccessLogSettingsOutput, error)

	CreateVpcLink(ctx context.Context, in *apigatewayv2.CreateVpcLinkInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.CreateVpcLinkOutput, error)
	GetVpcLink(ctx context.Context, in *apigatewayv2.GetVpcLinkInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.GetVpcLinkOutput, error)
	GetVpcLinks(ctx context.Context, in *apigatewayv2.GetVpcLinksInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.GetVpcLinksOutput, error)
	DeleteVpcLink(ctx context.Context, in *apigatewayv2.DeleteVpcLinkInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.DeleteVpcLinkOutput, error)

	CreateDomainName(ctx context.Context, in *apigatewayv2.CreateDomainNameInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.CreateDomainNameOutput, error)
	GetDomainName(ctx context.Context, in *apigatewayv2.GetDomainNameInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.GetDomainNameOutput, error)
	UpdateDomainName(ctx context.Context, in *apigatewayv2.UpdateDomainNameInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.UpdateDomainNameOutput, error)
	DeleteDomainName(ctx context.Context, in *apigatewayv2.DeleteDomainNameInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.DeleteDomainNameOutput, error)
	CreateApiMapping(ctx context.Context, in *apigatewayv2.CreateApiMappingInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.CreateApiMappingOutput, error)
	GetApiMappings(ctx context.Context, in *apigatewayv2.GetApiMappingsInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.GetApiMappingsOutput, error)
	UpdateApiMapping(ctx context.Context, in *apigatewayv2.UpdateApiMappingInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.UpdateApiMappingOutput, error)
	DeleteApiMapping(ctx context.Context, in *apigatewayv2.DeleteApiMappingInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.DeleteApiMappingOutput, error)

	TagResource(ctx context.Context, in *apigatewayv2.TagResourceInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.TagResourceOutput, error)
	UntagResource(ctx context.Context, in *apigatewayv2.UntagResourceInput, opts ...func(*apigatewayv2.Options)) (*apigatewayv2.UntagResourceOutput, error)
}

var _ httpAPI = (*apigatewayv2.Client)(nil)

// httpDriver manages one provider's HTTP and WebSocket APIs through API Gateway v2, and finds
// the listeners of the load balancers their private integrations target.
type httpDriver struct {
	base
	http httpAPI
	elb  listenerAPI
}

// HTTPState is what API Gateway v2 said about an HTTP or WebSocket API and what it owns, for
// Delete and ReleaseOwnership.
type HTTPState struct {
	// API is GetApi's answer, with its tags; nil while an object being deleted has only its VPC
	// link or domain name left.
	API *types.Api
	// VPCLinks are the VPC links the object owns: the API's, and one it replaces.
	VPCLinks []types.VpcLink
	// Domain is the custom domain name the API owns; nil when it has none.
	Domain *httpDomainState
}

// webSocketSelection is the route selection expression of a WebSocket API whose spec names
// none: the action field of the message's JSON body.
const webSocketSelection = "$request.body.action"

// selection returns the route selection expression a WebSocket API's spec asks for.
func selection(o *v1alpha1.APIGateway) string {
	if o.Spec.RouteSelectionExpression != "" {
		return o.Spec.RouteSelectionExpression
	}
	return webSocketSelection
}

// Create creates the HTTP or WebSocket API with its settings and req.Tags, and records its
// id at once; the next observation plans its routes, stages, VPC link and domain.
func (d *httpDriver) Create(ctx context.Context, o *v1alpha1.APIGateway, req managed.Request) error {
	in := &apigatewayv2.CreateApiInput{
		Name: aws.String(apiName(o)), ProtocolType: types.ProtocolType(o.Spec.ProtocolType), Tags: req.Tags,
		DisableExecuteApiEndpoint: aws.Bool(o.Spec.DisableExecuteAPIEndpoint), CorsConfiguration: corsConfig(o.Spec.CORS),
	}
	if o.Spec.Description != "" {
		in.Description = aws.String(o.Spec.Description)
	}
	if o.Spec.ProtocolType == v1alpha1.ProtocolWebSocket {
		in.RouteSelectionExpression = aws.String(selection(o))
	}
	out, err := d.http.CreateApi(ctx, in)
	if err != nil {
		return managed.Wrap(err, "create %s API %s", o.Spec.ProtocolType, apiName(o))
	}
	managed.SetExternalName(o, aws.ToString(out.ApiId))
	return nil
}

// findHTTP finds the API of o whose create answer was lost, by its ownership tags (GetApis
// lists every API of the region with its tags); nil when there is none.
func (d *httpDriver) findHTTP(ctx context.Context, o *v1alpha1.APIGateway) (*types.Api, error) {
	var token *string
	for {
		out, err := d.http.GetApis(ctx, &apigatewayv2.GetApisInput{NextToken: token})
		if err != nil {
			return nil, fmt.Errorf("list APIs to find the one of %s: %w", o.Name, err)
		}
		for i := range out.Items {
			if managed.OwnedBy(o, out.Items[i].Tags) {
				return &out.Items[i], nil
			}
		}
		if token = out.NextToken; token == nil {
			return nil, nil
		}
	}
}

// planAPI plans UpdateApi for the API's settings that differ from the spec (name,
// description, CORS, the default endpoint, the route selection expression), and
// DeleteCorsConfiguration when the spec has no CORS and the API does. The plan shows the
// values of the scalar settings; CORS, compared as sets, by name only.
func (d *httpDriver) planAPI(o *v1alpha1.APIGateway, api *types.Api, plan *managed.Plan) {
	id := aws.ToString(api.ApiId)
	in := &apigatewayv2.UpdateApiInput{ApiId: aws.String(id)}
	var fields []string
	values := map[string]managed.Values{}
	if name := apiName(o); aws.ToString(api.Name) != name {
		fields, in.Name = append(fields, "name"), aws.String(name)
		values["name"] = managed.ValuesOf(aws.ToString(api.Name), name)
	}
	if aws.ToString(api.Description) != o.Spec.Description {
		fields, in.Description = append(fields, "description"), aws.String(o.Spec.Description)
		values["description"] = managed.ValuesOf(aws.ToString(api.Description), o.Spec.Description)
	}
	if aws.ToBool(api.DisableExecuteApiEndpoint) != o.Spec.DisableExecuteAPIEndpoint {
		fields, in.DisableExecuteApiEndpoint = append(fields, "disableExecuteAPIEndpoint"), aws.Bool(o.Spec.DisableExecuteAPIEndpoint)
		values["disableExecuteAPIEndpoint"] = managed.ValuesOf(aws.ToBool(api.DisableExecuteApiEndpoint), o.Spec.DisableExecuteAPIEndpoint)
	}
	if o.Spec.ProtocolType == v1alpha1.ProtocolWebSocket && aws.ToString(api.RouteSelectionExpression) != selection(o) {
		fields, in.RouteSelectionExpression = append(fields, "routeSelectionExpression"), aws.String(selection(o))
		values["routeSelectionExpression"] = managed.ValuesOf(aws.ToString(api.RouteSelectionExpression), selection(o))
	}
	if want := corsConfig(o.Spec.CORS); want != nil && !sameCORS(want, api.CorsConfiguration) {
		fields, in.CorsConfiguration = append(fields, "cors"), want
	}
	plan.AddFieldValues(fields, values, func(ctx context.Context) error {
		_, err := d.http.UpdateApi(ctx, in)
		return managed.Wrap(err, "update API %s", id)
	})
	if o.Spec.CORS == nil && api.CorsConfiguration != nil {
		plan.Add("cors", func(ctx context.Context) error {
			_, err := d.http.DeleteCorsConfiguration(ctx, &apigatewayv2.DeleteCorsConfigurationInput{ApiId: aws.String(id)})
			return managed.Wrap(err, "delete the CORS configuration of API %s", id)
		})
	}
}

// planHTTPTags plans the tag changes of the API with ARN arn.
func (d *httpDriver) planHTTPTags(plan *managed.Plan, arn string, desired, observed map[string]string) {
	plan.AddTags(desired, observed, managed.TagCalls(
		func(ctx context.Context, set map[string]string) error {
			_, err := d.http.TagResource(ctx, &apigatewayv2.TagResourceInput{ResourceArn: aws.String(arn), Tags: set})
			return managed.Wrap(err, "tag %s", arn)
		},
		func(ctx context.Context, remove []string) error { return d.untagHTTP(ctx, arn, remove) },
	))
}

// untagHTTP removes the tag keys from the API Gateway v2 resource with ARN arn.
func (d *httpDriver) untagHTTP(ctx context.Context, arn string, keys []string) error {
	_, err := d.http.UntagResource(ctx, &apigatewayv2.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: keys})
	return managed.Wrap(err, "untag %s", arn)
}

// ReleaseOwnership removes the ownership tags from the API, its VPC link and its domain name, for
// deletionPolicy Orphan.
func (d *httpDriver) ReleaseOwnership(ctx context.Context, o *v1alpha1.APIGateway, obs managed.Observation[State]) error {
	if obs.State == nil || obs.State.HTTP == nil {
		return nil
	}
	st := obs.State.HTTP
	var arns []string
	if st.API != nil {
		arns = append(arns, o.Status.ARN)
	}
	for _, l := range st.VPCLinks {
		arns = append(arns, vpcLinkARN(d.region, aws.ToString(l.VpcLinkId)))
	}
	if st.Domain != nil {
		arns = append(arns, domainARN(d.region, aws.ToString(st.Domain.name.DomainName)))
	}
	for _, arn := range arns {
		if err := d.untagHTTP(ctx, arn, managed.OwnershipTagKeys()); err != nil {
			return err
		}
	}
	return nil
}
