package apigateway

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// restAPI is the part of API Gateway v1 that manages REST APIs: the API, its resources and
// methods with their integrations, its deployments and stages, its custom domain name with the
// base path mapping, and tags.
type restAPI interface {
	CreateRestApi(ctx context.Context, in *apigateway.CreateRestApiInput, opts ...func(*apigateway.Options)) (*apigateway.CreateRestApiOutput, error)
	GetRestApi(ctx context.Context, in *apigateway.GetRestApiInput, opts ...func(*apigateway.Options)) (*apigateway.GetRestApiOutput, error)
	GetRestApis(ctx context.Context, in *apigateway.GetRestApisInput, opts ...func(*apigateway.Options)) (*apigateway.GetRestApisOutput, error)
	UpdateRestApi(ctx context.Context, in *apigateway.UpdateRestApiInput, opts ...func(*apigateway.Options)) (*apigateway.UpdateRestApiOutput, error)
	DeleteRestApi(ctx context.Context, in *apigateway.DeleteRestApiInput, opts ...func(*apigateway.Options)) (*apigateway.DeleteRestApiOutput, error)

	GetResources(ctx context.Context, in *apigateway.GetResourcesInput, opts ...func(*apigateway.Options)) (*apigateway.GetResourcesOutput, error)
	CreateResource(ctx context.Context, in *apigateway.CreateResourceInput, opts ...func(*apigateway.Options)) (*apigateway.CreateResourceOutput, error)
	DeleteResource(ctx context.Context, in *apigateway.DeleteResourceInput, opts ...func(*apigateway.Options)) (*apigateway.DeleteResourceOutput, error)
	PutMethod(ctx context.Context, in *apigateway.PutMethodInput, opts ...func(*apigateway.Options)) (*apigateway.PutMethodOutput, error)
	UpdateMethod(ctx context.Context, in *apigateway.UpdateMethodInput, opts ...func(*apigateway.Options)) (*apigateway.UpdateMethodOutput, error)
	DeleteMethod(ctx context.Context, in *apigateway.DeleteMethodInput, opts ...func(*apigateway.Options)) (*apigateway.DeleteMethodOutput, error)
	PutIntegration(ctx context.Context, in *apigateway.PutIntegrationInput, opts ...func(*apigateway.Options)) (*apigateway.PutIntegrationOutput, error)

	CreateDeployment(ctx context.Context, in *apigateway.CreateDeploymentInput, opts ...func(*apigateway.Options)) (*apigateway.CreateDeploymentOutput, error)
	GetDeployments(ctx context.Context, in *apigateway.GetDeploymentsInput, opts ...func(*apigateway.Options)) (*apigateway.GetDeploymentsOutput, error)
	DeleteDeployment(ctx context.Context, in *apigateway.DeleteDeploymentInput, opts ...func(*apigateway.Options)) (*apigateway.DeleteDeploymentOutput, error)
	CreateStage(ctx context.Context, in *apigateway.CreateStageInput, opts ...func(*apigateway.Options)) (*apigateway.CreateStageOutput, error)
	GetStages(ctx context.Context, in *apigateway.GetStagesInput, opts ...func(*apigateway.Options)) (*apigateway.GetStagesOutput, error)
	UpdateStage(ctx context.Context, in *apigateway.UpdateStageInput, opts ...func(*apigateway.Options)) (*apigateway.UpdateStageOutput, error)
	DeleteStage(ctx context.Context, in *apigateway.DeleteStageInput, opts ...func(*apigateway.Options)) (*apigateway.DeleteStageOutput, error)

	CreateDomainName(ctx context.Context, in *apigateway.CreateDomainNameInput, opts ...func(*apigateway.Options)) (*apigateway.CreateDomainNameOutput, error)
	GetDomainName(ctx context.Context, in *apigateway.GetDomainNameInput, opts ...func(*apigateway.Options)) (*apigateway.GetDomainNameOutput, error)
	UpdateDomainName(ctx context.Context, in *apigateway.UpdateDomainNameInput, opts ...func(*apigateway.Options)) (*apigateway.UpdateDomainNameOutput, error)
	DeleteDomainName(ctx context.Context, in *apigateway.DeleteDomainNameInput, opts ...func(*apigateway.Options)) (*apigateway.DeleteDomainNameOutput, error)
	CreateBasePathMapping(ctx context.Context, in *apigateway.CreateBasePathMappingInput, opts ...func(*apigateway.Options)) (*apigateway.CreateBasePathMappingOutput, error)
	GetBasePathMappings(ctx context.Context, in *apigateway.GetBasePathMappingsInput, opts ...func(*apigateway.Options)) (*apigateway.GetBasePathMappingsOutput, error)
	DeleteBasePathMapping(ctx context.Context, in *apigateway.DeleteBasePathMappingInput, opts ...func(*apigateway.Options)) (*apigateway.DeleteBasePathMappingOutput, error)

	TagResource(ctx context.Context, in *apigateway.TagResourceInput, opts ...func(*apigateway.Options)) (*apigateway.TagResourceOutput, error)
	UntagResource(ctx context.Context, in *apigateway.UntagResourceInput, opts ...func(*apigateway.Options)) (*apigateway.UntagResourceOutput, error)
}

var _ restAPI = (*apigateway.Client)(nil)

// restDriver manages one provider's REST APIs through API Gateway v1.
type restDriver struct {
	base
	rest restAPI
}

// RESTState is what API Gateway v1 said about a REST API.
type RESTState struct {
	// API is GetRestApi's answer, with the API's tags.
	API *types.RestApi
	// Domain is the custom domain name the object owns, nil when it has none.
	Domain *types.DomainName
}

// restEndpointType returns the API's endpoint type: the spec's, REGIONAL by default.
func restEndpointType(o *v1alpha1.APIGateway) types.EndpointType {
	if o.Spec.EndpointType != "" {
		return types.EndpointType(o.Spec.EndpointType)
	}
	return types.EndpointTypeRegional
}

// restARN returns the ARN of the REST API id, which names the region but not the account.
func (d *restDriver) restARN(id string) string {
	return fmt.Sprintf("arn:%s:apigateway:%s::/restapis/%s", provider.Partition(d.region), d.region, id)
}

// restEndpoint returns the default endpoint of the REST API id.
func (d *restDriver) restEndpoint(id string) string {
	suffix := "amazonaws.com"
	if strings.HasPrefix(d.region, "cn-") {
		suffix += ".cn"
	}
	return "https://" + id + ".execute-api." + d.region + "." + suffix
}

// Create creates the REST API with its name, description, endpoint type and the tags (the
// ownership tags included), and records its id at once. Its resources, methods, deployment,
// stages and domain are planned by the observation the engine makes right after.
func (d *restDriver) Create(ctx context.Context, o *v1alpha1.APIGateway, req managed.Request) error {
	out, err := d.rest.CreateRestApi(ctx, &apigateway.CreateRestApiInput{
		Name:                      aws.String(apiName(o)),
		Description:               nonEmpty(o.Spec.Description),
		EndpointConfiguration:     &types.EndpointConfiguration{Types: []types.EndpointType{restEndpointType(o)}},
		DisableExecuteApiEndpoint: o.Spec.DisableExecuteAPIEndpoint,
		Tags:                      req.Tags,
	})
	if err != nil {
		return managed.Wrap(err, "create REST API %s", apiName(o))
	}
	managed.SetExternalName(o, aws.ToString(out.Id))
	o.Status.APIID = aws.ToString(out.Id)
	return nil
}

// findREST returns the REST API whose ownership tags name o, nil when there is none: a create
// whose answer was lost is adopted rather than made again. GetRestApis returns the tags of
// every API, 500 a page.
func (d *restDriver) findREST(ctx context.Context, o *v1alpha1.APIGateway) (*types.RestApi, error) {
	p := apigateway.NewGetRestApisPaginator(d.rest, &apigateway.GetRestApisInput{Limit: aws.Int32(500)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, managed.Wrap(err, "list REST APIs")
		}
		for i := range page.Items {
			if managed.OwnedBy(o, page.Items[i].Tags) {
				return &page.Items[i], nil
			}
		}
	}
	return nil, nil
}

// planRESTAPI plans one UpdateRestApi for the API's name, description and default endpoint
// switch when they differ from the spec, showing their values, and reports an endpoint type that differs as a
// conflict: it is chosen at creation.
func (d *restDriver) planRESTAPI(o *v1alpha1.APIGateway, obs *managed.Observation[State]) {
	api := obs.State.REST.API
	id := aws.ToString(api.Id)
	var fields []string
	values := map[string]managed.Values{}
	var ops []types.PatchOperation
	if name := apiName(o); aws.ToString(api.Name) != name {
		fields, ops = append(fields, "name"), append(ops, patchReplace("/name", name))
		values["name"] = managed.ValuesOf(aws.ToString(api.Name), name)
	}
	if aws.ToString(api.Description) != o.Spec.Description {
		fields, ops = append(fields, "description"), append(ops, patchReplace("/description", o.Spec.Description))
		values["description"] = managed.ValuesOf(aws.ToString(api.Description), o.Spec.Description)
	}
	if api.DisableExecuteApiEndpoint != o.Spec.DisableExecuteAPIEndpoint {
		fields, ops = append(fields, "disableExecuteAPIEndpoint"), append(ops, patchReplace("/disableExecuteApiEndpoint", fmt.Sprint(o.Spec.DisableExecuteAPIEndpoint)))
		values["disableExecuteAPIEndpoint"] = managed.ValuesOf(api.DisableExecuteApiEndpoint, o.Spec.DisableExecuteAPIEndpoint)
	}
	obs.Changes.AddFieldValues(fields, values, func(ctx context.Context) error {
		_, err := d.rest.UpdateRestApi(ctx, &apigateway.UpdateRestApiInput{RestApiId: aws.String(id), PatchOperations: ops})
		return managed.Wrap(err, "update REST API %s", id)
	})
	if c := api.EndpointConfiguration; c != nil && len(c.Types) == 1 && c.Types[0] != restEndpointType(o) {
		obs.Conflict = managed.Terminal(condition.ReasonInvalidSpec,
			"REST API %s has endpoint type %s and spec.endpointType is %s: the endpoint type is chosen when the API is created; set spec.endpointType to %s, or create another APIGateway object",
			id, c.Types[0], restEndpointType(o), c.Types[0])
	}
}

// planRESTTags plans adding and removing the API's tags so that it carries desired.
func (d *restDriver) planRESTTags(plan *managed.Plan, arn string, desired, observed map[string]string) {
	plan.AddTags(desired, observed, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.rest.TagResource(ctx, &apigateway.TagResourceInput{ResourceArn: aws.String(arn), Tags: set})
		return managed.Wrap(err, "tag %s", arn)
	}, d.restUntag(arn)))
}

// restUntag returns the call that removes tag keys from the API Gateway resource arn.
func (d *restDriver) restUntag(arn string) func(context.Context, []string) error {
	return func(ctx context.Context, keys []string) error {
		_, err := d.rest.UntagResource(ctx, &apigateway.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: keys})
		return managed.Wrap(err, "untag %s", arn)
	}
}

// Delete deletes the REST API's custom domain name (its base path mappings go with it),
// withdraws the API's invoke grants, and deletes the API (its resources, deployments and
// stages go with it); what is already gone is success.
func (d *restDriver) Delete(ctx context.Context, o *v1alpha1.APIGateway, obs managed.Observation[State]) error {
	st := obs.State.REST
	if st.Domain != nil {
		if err := d.deleteRESTDomain(ctx, aws.ToString(st.Domain.DomainName)); err != nil {
			return err
		}
		o.Status.CustomDomain = nil
	}
	if st.API == nil {
		return nil
	}
	id := aws.ToString(st.API.Id)
	if err := d.revokeInvokeGrants(ctx, o, id); err != nil {
		return err
	}
	_, err := d.rest.DeleteRestApi(ctx, &apigateway.DeleteRestApiInput{RestApiId: aws.String(id)})
	return notFoundIsGone(err, "delete REST API %s", id)
}

// ReleaseOwnership removes the ownership tags from the REST API and its custom domain name, for
// deletionPolicy Orphan.
func (d *restDriver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.APIGateway, obs managed.Observation[State]) error {
	st := obs.State.REST
	if st.Domain != nil {
		if err := d.restUntag(aws.ToString(st.Domain.DomainNameArn))(ctx, managed.OwnershipTagKeys()); err != nil {
			return err
		}
	}
	if st.API == nil {
		return nil
	}
	return d.restUntag(d.restARN(aws.ToString(st.API.Id)))(ctx, managed.OwnershipTagKeys())
}

// patchReplace returns the JSON Patch operation that sets path to value.
func patchReplace(path, value string) types.PatchOperation {
	return types.PatchOperation{Op: types.OpReplace, Path: aws.String(path), Value: aws.String(value)}
}

// patchRemove returns the JSON Patch operation that removes path.
func patchRemove(path string) types.PatchOperation {
	return types.PatchOperation{Op: types.OpRemove, Path: aws.String(path)}
}

// nonEmpty returns s as an optional string: nil when empty.
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}
