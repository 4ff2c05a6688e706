package apigateway

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// restDeploymentPrefix begins the description of the deployments the operator makes; the routes'
// fingerprint follows, so that the deployment made for the routes is found again even when the
// status is lost.
const restDeploymentPrefix = "infra-operator routes "

// restDeployTarget is the deployment every stage should serve: the one made for the spec's routes,
// found by the observation or made by a change planned before the stages' changes, which read
// its id when they run.
type restDeployTarget struct {
	id string
}

// restDeployments reads every deployment of the REST API id, 500 a page.
func (d *restDriver) restDeployments(ctx context.Context, id string) ([]types.Deployment, error) {
	var out []types.Deployment
	p := apigateway.NewGetDeploymentsPaginator(d.rest, &apigateway.GetDeploymentsInput{RestApiId: aws.String(id), Limit: aws.Int32(500)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, managed.Wrap(err, "get the deployments of REST API %s", id)
		}
		out = append(out, page.Items...)
	}
	return out, nil
}

// planRESTDeployment finds the deployment of the routes whose fingerprint is given, the newest
// whose description carries it, and when there is none plans its creation (a change of
// "deployment"), after the routes' change: a deployment is a snapshot of the API's methods as
// they are when it is made. It returns the target the stages' changes point at. A deployment
// made for the same routes earlier is reused, so that drift of the methods, once put back,
// needs no deployment, while any change of the routes in the spec makes one.
func (d *restDriver) planRESTDeployment(o *v1alpha1.APIGateway, api, fingerprint string, have []types.Deployment, plan *managed.Plan) *restDeployTarget {
	target := &restDeployTarget{}
	var newest *types.Deployment
	for i, dep := range have {
		if aws.ToString(dep.Description) == restDeploymentPrefix+fingerprint && (newest == nil || aws.ToTime(dep.CreatedDate).After(aws.ToTime(newest.CreatedDate))) {
			newest = &have[i]
		}
	}
	if newest != nil {
		target.id = aws.ToString(newest.Id)
		o.Status.DeploymentID = target.id
		return target
	}
	plan.Add("deployment", func(ctx context.Context) error {
		out, err := d.rest.CreateDeployment(ctx, &apigateway.CreateDeploymentInput{RestApiId: aws.String(api), Description: aws.String(restDeploymentPrefix + fingerprint)})
		if err != nil {
			return managed.Wrap(err, "deploy the routes of REST API %s", api)
		}
		target.id = aws.ToString(out.Id)
		o.Status.DeploymentID = target.id
		return nil
	})
	return target
}

// planRESTPrune plans, last, deleting the deployments no stage serves once the stages serve the
// target: the API keeps only the deployment of its current routes.
func (d *restDriver) planRESTPrune(api string, target *restDeployTarget, have []types.Deployment, plan *managed.Plan) {
	old := slices.DeleteFunc(slices.Clone(have), func(dep types.Deployment) bool { return aws.ToString(dep.Id) == target.id })
	if len(old) == 0 {
		return
	}
	plan.Add("deployment", func(ctx context.Context) error {
		for _, dep := range old {
			id := aws.ToString(dep.Id)
			if _, err := d.rest.DeleteDeployment(ctx, &apigateway.DeleteDeploymentInput{RestApiId: aws.String(api), DeploymentId: aws.String(id)}); err != nil {
				return managed.Wrap(err, "delete deployment %s of REST API %s, which no stage serves", id, api)
			}
		}
		return nil
	})
}
