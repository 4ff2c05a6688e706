package apigatewayv2

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/services/apigateway"
)

// deploy records a new deployment of the API, DEPLOYED at once.
func (a *api) deploy(call *core.Call, description *string, auto bool) *types.Deployment {
	d := &types.Deployment{
		DeploymentId: aws.String(core.LowerAlnumID(6)), DeploymentStatus: types.DeploymentStatusDeployed,
		CreatedDate: aws.Time(call.Now), Description: description, AutoDeployed: aws.Bool(auto),
	}
	a.deployments[*d.DeploymentId] = d
	return d
}

// autoDeploy deploys the API to an auto-deploy stage, as API Gateway does when the stage is
// made or switched to auto-deploy and whenever a route or an integration changes.
func (a *api) autoDeploy(call *core.Call, s *stage) {
	d := a.deploy(call, nil, true)
	s.cfg.DeploymentId = d.DeploymentId
	s.cfg.LastUpdatedDate = aws.Time(call.Now)
	s.cfg.LastDeploymentStatusMessage = aws.String("Successfully deployed stage with deployment ID '" + *d.DeploymentId + "'")
}

// changed deploys the API to each of its auto-deploy stages after a change of its routes or
// integrations.
func (r *region) changed(call *core.Call, a *api) {
	for _, name := range core.SortedKeys(a.stages) {
		if s := a.stages[name]; aws.ToBool(s.cfg.AutoDeploy) {
			a.autoDeploy(call, s)
		}
	}
}

func (b *Backend) createDeployment(call *core.Call, in *apigatewayv2.CreateDeploymentInput) (*apigatewayv2.CreateDeploymentOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.CreateDeploymentOutput, error) {
		a, err := r.lookup(call, aws.ToString(in.ApiId))
		if err != nil {
			return nil, err
		}
		var target *stage
		if name := aws.ToString(in.StageName); name != "" {
			s, ok := a.stages[name]
			if !ok {
				return nil, notFound(call, "Stage", name)
			}
			if aws.ToBool(s.cfg.AutoDeploy) {
				return nil, badRequest("Deployments cannot be created for stages where autoDeploy is enabled")
			}
			target = s
		}
		if len(a.routes) == 0 {
			return nil, badRequest("At least one route is required before deploying the Api.")
		}
		d := a.deploy(call, in.Description, false)
		if target != nil {
			target.cfg.DeploymentId = d.DeploymentId
			target.cfg.LastUpdatedDate = aws.Time(call.Now)
		}
		out := &apigatewayv2.CreateDeploymentOutput{}
		core.Fill(out, d)
		return out, nil
	})
}

// getDeployment answers GetDeployment with the deployment a request names.
func (b *Backend) getDeployment(call *core.Call, in *apigatewayv2.GetDeploymentInput) (*apigatewayv2.GetDeploymentOutput, error) {
	return apigateway.Read[apigatewayv2.GetDeploymentOutput](b.state, call, deployments.one(call, in.ApiId, in.DeploymentId))
}

// getDeployments answers GetDeployments with a page of the API's deployments, by id.
func (b *Backend) getDeployments(call *core.Call, in *apigatewayv2.GetDeploymentsInput) (*apigatewayv2.GetDeploymentsOutput, error) {
	return apigateway.List[apigatewayv2.GetDeploymentsOutput](b.state, call, deployments.all(call, in.ApiId), page, in.NextToken, in.MaxResults)
}

func (b *Backend) deleteDeployment(call *core.Call, in *apigatewayv2.DeleteDeploymentInput) (*apigatewayv2.DeleteDeploymentOutput, error) {
	return remove[apigatewayv2.DeleteDeploymentOutput](deployments, b, call, in.ApiId, in.DeploymentId, func(_ *region, a *api, d *types.Deployment) error {
		for _, s := range a.stages {
			if aws.ToString(s.cfg.DeploymentId) == aws.ToString(d.DeploymentId) {
				return badRequest("Active stages pointing to this deployment must be moved or deleted")
			}
		}
		delete(a.deployments, aws.ToString(d.DeploymentId))
		return nil
	})
}
