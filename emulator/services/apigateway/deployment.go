package apigateway

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// checkDeployable returns the error API Gateway answers a deployment of an API that has no
// method, or a method without an integration.
func (a *restAPI) checkDeployable() error {
	methods := 0
	for _, res := range a.resources {
		for _, m := range res.methods {
			if m.MethodIntegration == nil {
				return BadRequest("No integration defined for method")
			}
			methods++
		}
	}
	if methods == 0 {
		return BadRequest("The REST API doesn't contain any methods")
	}
	return nil
}

func (b *Backend) createDeployment(call *core.Call, in *apigateway.CreateDeploymentInput) (*apigateway.CreateDeploymentOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.CreateDeploymentOutput, error) {
		a, err := r.lookup(call, in.RestApiId)
		if err != nil {
			return nil, err
		}
		if err := a.checkDeployable(); err != nil {
			return nil, err
		}
		name := aws.ToString(in.StageName)
		if name != "" {
			if err := checkStage(name, in.Variables); err != nil {
				return nil, err
			}
		}
		d := &types.Deployment{Id: aws.String(core.LowerAlnumID(6)), CreatedDate: aws.Time(call.Now), Description: in.Description}
		a.deployments[*d.Id] = d
		if name != "" {
			s, ok := a.stages[name]
			if !ok {
				s = newStage(call, name, d.Id)
				s.Description = in.StageDescription
				a.stages[name] = s
			}
			s.DeploymentId, s.LastUpdatedDate = d.Id, aws.Time(call.Now)
			if in.Variables != nil {
				s.Variables = cloneMap(in.Variables)
			}
			if in.TracingEnabled != nil {
				s.TracingEnabled = *in.TracingEnabled
			}
		}
		out := &apigateway.CreateDeploymentOutput{}
		core.Fill(out, d)
		return out, nil
	})
}

// deployment returns the deployment a request names, or NotFoundException.
func (r *region) deployment(call *core.Call, apiID, id *string) (*restAPI, *types.Deployment, error) {
	a, err := r.lookup(call, apiID)
	return Member(a, err, func(a *restAPI) map[string]*types.Deployment { return a.deployments }, id,
		core.NotFoundf("NotFoundException", "Invalid Deployment identifier specified"))
}

// getDeployment answers GetDeployment with the deployment a request names.
func (b *Backend) getDeployment(call *core.Call, in *apigateway.GetDeploymentInput) (*apigateway.GetDeploymentOutput, error) {
	return Read[apigateway.GetDeploymentOutput](b.state, call, func(r *region) (*types.Deployment, error) {
		_, d, err := r.deployment(call, in.RestApiId, in.DeploymentId)
		return d, err
	})
}

// getDeployments answers GetDeployments with a page of the REST API's deployments, by id.
func (b *Backend) getDeployments(call *core.Call, in *apigateway.GetDeploymentsInput) (*apigateway.GetDeploymentsOutput, error) {
	return List[apigateway.GetDeploymentsOutput](b.state, call, func(r *region) ([]types.Deployment, error) {
		a, err := r.lookup(call, in.RestApiId)
		return values(a, err, func(a *restAPI) map[string]*types.Deployment { return a.deployments })
	}, page, in.Position, in.Limit)
}

func (b *Backend) deleteDeployment(call *core.Call, in *apigateway.DeleteDeploymentInput) (*apigateway.DeleteDeploymentOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.DeleteDeploymentOutput, error) {
		a, d, err := r.deployment(call, in.RestApiId, in.DeploymentId)
		if err != nil {
			return nil, err
		}
		for _, s := range a.stages {
			if aws.ToString(s.DeploymentId) == aws.ToString(d.Id) {
				return nil, BadRequest("Active stages pointing to this deployment must be moved or deleted")
			}
		}
		delete(a.deployments, aws.ToString(d.Id))
		return &apigateway.DeleteDeploymentOutput{}, nil
	})
}
