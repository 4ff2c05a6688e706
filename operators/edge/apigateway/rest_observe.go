package apigateway

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Observe reads a REST API (GetRestApi, or, before its id is recorded, GetRestApis to find
// it by its ownership tags), its resources with their methods and integrations (one
// GetResources), its stages (GetStages), its deployments (GetDeployments), its custom domain
// name and mapping when it has one, and the resource policies of the Lambda functions its
// routes invoke. It fills the status and plans, in this order: the API's settings, its tags,
// the resources and methods of the routes, the invoke grants, a deployment of the routes when
// none serves them yet, the stages (created, updated, pointed at that deployment), the custom
// domain, the stages the spec does not name deleted, and the deployments no stage serves
// deleted. The API is Ready when its methods match the routes, every stage serves the
// deployment of the current routes, and the custom domain maps the spec's stage.
func (d *restDriver) Observe(ctx context.Context, o *v1alpha1.APIGateway, req managed.Request) (managed.Observation[State], error) {
	st := &RESTState{}
	obs := managed.Observation[State]{State: &State{REST: st}}
	api, err := d.readREST(ctx, o)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if req.Deleting {
		// A custom domain left behind by a deletion cut short is deleted too.
		if err := d.readRESTDomain(ctx, o, &obs); err != nil {
			return managed.Observation[State]{}, err
		}
		obs.Conflict = nil
	}
	if api == nil {
		obs.Exists = st.Domain != nil
		return obs, nil
	}
	st.API = api
	id := aws.ToString(api.Id)
	executionARN, err := d.fillRESTStatus(ctx, o, id)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	obs.Exists, obs.Tags = true, api.Tags
	if req.Deleting {
		return obs, nil
	}
	if err := d.readRESTDomain(ctx, o, &obs); err != nil {
		return managed.Observation[State]{}, err
	}
	d.planRESTAPI(o, &obs)
	d.planRESTTags(&obs.Changes, d.restARN(id), req.Tags, api.Tags)

	want := d.desiredRESTRoutes(o)
	resources, err := d.restResources(ctx, id)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	routesMatch := d.planRESTRoutes(id, want, resources, &obs.Changes)
	if err := d.planInvokeGrants(ctx, o, id, executionARN, &obs.Changes); err != nil {
		return managed.Observation[State]{}, err
	}
	stages, err := d.restStages(ctx, id)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	deployments, err := d.restDeployments(ctx, id)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	target := &restDeployTarget{}
	o.Status.DeploymentID = ""
	if len(o.Spec.Stages) > 0 {
		target = d.planRESTDeployment(o, id, want.fingerprint(), deployments, &obs.Changes)
	}
	serving := d.planRESTStages(o, id, target, stages, &obs.Changes)
	mapped, err := d.planRESTDomain(ctx, o, id, req.Tags, &obs)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	d.planRESTStageDeletes(o, id, stages, &obs.Changes)
	d.planRESTPrune(id, target, deployments, &obs.Changes)

	obs.Ready = routesMatch && serving && mapped
	if !obs.Ready {
		obs.Message = notReadyREST(routesMatch, serving, mapped)
	}
	return obs, nil
}

// readREST returns the REST API the object recorded, or, before one is recorded, the one its
// ownership tags name, recording its id; nil when there is none.
func (d *restDriver) readREST(ctx context.Context, o *v1alpha1.APIGateway) (*types.RestApi, error) {
	id := managed.ExternalName(o)
	if id == "" {
		api, err := d.findREST(ctx, o)
		if api != nil {
			managed.SetExternalName(o, aws.ToString(api.Id))
		}
		return api, err
	}
	out, err := d.rest.GetRestApi(ctx, &apigateway.GetRestApiInput{RestApiId: aws.String(id)})
	if awserr.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, managed.Wrap(err, "get REST API %s", id)
	}
	return &types.RestApi{Id: out.Id, Name: out.Name, Description: out.Description, EndpointConfiguration: out.EndpointConfiguration,
		DisableExecuteApiEndpoint: out.DisableExecuteApiEndpoint, Tags: out.Tags}, nil
}

// fillRESTStatus records the REST API's id, ARNs and default endpoint in the status, and
// returns its execution ARN.
func (d *restDriver) fillRESTStatus(ctx context.Context, o *v1alpha1.APIGateway, id string) (string, error) {
	executionARN, err := d.executionARN(ctx, id)
	if err != nil {
		return "", err
	}
	st := &o.Status
	st.APIID, st.ARN, st.APIEndpoint, st.ExecutionARN = id, d.restARN(id), d.restEndpoint(id), executionARN
	return executionARN, nil
}

// notReadyREST says what a REST API that is not Ready waits for.
func notReadyREST(routesMatch, serving, mapped bool) string {
	var waits []string
	if !routesMatch {
		waits = append(waits, "its resources and methods are being brought in line with spec.routes")
	}
	if !serving {
		waits = append(waits, "its stages do not serve a deployment of the current routes yet")
	}
	if !mapped {
		waits = append(waits, "its custom domain name does not map the stage yet")
	}
	return "the REST API exists, but " + strings.Join(waits, ", and ")
}
