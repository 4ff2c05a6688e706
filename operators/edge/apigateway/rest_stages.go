package apigateway

import (
	"context"
	"maps"
	"slices"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// restEveryMethod is the key of the method settings that apply to every method of a stage.
const restEveryMethod = "*/*"

// API Gateway's throttling of a stage whose spec sets none: what a stage's settings fall back
// to when throttling leaves the spec.
const (
	restDefaultRateLimit  = 10000
	restDefaultBurstLimit = 5000
)

// restStages reads every stage of the REST API id.
func (d *restDriver) restStages(ctx context.Context, id string) ([]types.Stage, error) {
	out, err := d.rest.GetStages(ctx, &apigateway.GetStagesInput{RestApiId: aws.String(id)})
	if err != nil {
		return nil, managed.Wrap(err, "get the stages of REST API %s", id)
	}
	return out.Item, nil
}

// planRESTStages compares the stages with the spec's and plans: each missing stage created on
// the target deployment with its settings, each stage that differs updated with one
// UpdateStage (its deployment ("deployment"), description, variables, throttling of every
// method, access log ("stages")). It fills status.stages with the URL of each stage of the
// spec that exists and reports whether every stage of the spec exists and serves the target.
func (d *restDriver) planRESTStages(o *v1alpha1.APIGateway, api string, target *restDeployTarget, have []types.Stage, plan *managed.Plan) bool {
	o.Status.Stages = nil
	byName := map[string]types.Stage{}
	for _, s := range have {
		byName[aws.ToString(s.StageName)] = s
	}
	serving := true
	for _, want := range o.Spec.Stages {
		got, ok := byName[want.Name]
		if !ok {
			serving = false
			plan.Add("stages", func(ctx context.Context) error { return d.createRESTStage(ctx, api, target, want) })
			continue
		}
		dep := aws.ToString(got.DeploymentId)
		o.Status.Stages = append(o.Status.Stages, v1alpha1.StageStatus{Name: want.Name, URL: d.restEndpoint(api) + "/" + want.Name, DeploymentID: dep})
		fields, ops := restStageOps(want, &got)
		if target.id == "" || dep != target.id {
			serving = false
			fields = append(fields, "deployment")
		}
		plan.AddFields(fields, func(ctx context.Context) error {
			if target.id != "" && target.id != dep {
				ops = append(ops, patchReplace("/deploymentId", target.id))
			}
			return d.updateRESTStage(ctx, api, want.Name, ops)
		})
	}
	return serving
}

// planRESTStageDeletes plans deleting the stages the spec does not name.
func (d *restDriver) planRESTStageDeletes(o *v1alpha1.APIGateway, api string, have []types.Stage, plan *managed.Plan) {
	for _, s := range have {
		name := aws.ToString(s.StageName)
		if !slices.ContainsFunc(o.Spec.Stages, func(s v1alpha1.Stage) bool { return s.Name == name }) {
			plan.Add("stages", func(ctx context.Context) error {
				_, err := d.rest.DeleteStage(ctx, &apigateway.DeleteStageInput{RestApiId: aws.String(api), StageName: aws.String(name)})
				return managed.Wrap(err, "delete stage %s of REST API %s", name, api)
			})
		}
	}
}

// createRESTStage creates the stage want on the target deployment with its description and
// variables, then gives it the settings CreateStage does not take (throttling, access log).
func (d *restDriver) createRESTStage(ctx context.Context, api string, target *restDeployTarget, want v1alpha1.Stage) error {
	_, err := d.rest.CreateStage(ctx, &apigateway.CreateStageInput{RestApiId: aws.String(api), StageName: aws.String(want.Name),
		DeploymentId: aws.String(target.id), Description: nonEmpty(want.Description), Variables: want.Variables})
	if err != nil {
		return managed.Wrap(err, "create stage %s of REST API %s", want.Name, api)
	}
	if _, ops := restStageOps(want, &types.Stage{Description: nonEmpty(want.Description), Variables: want.Variables}); len(ops) > 0 {
		return d.updateRESTStage(ctx, api, want.Name, ops)
	}
	return nil
}

// updateRESTStage applies the patch operations ops to stage name of the REST API api.
func (d *restDriver) updateRESTStage(ctx context.Context, api, name string, ops []types.PatchOperation) error {
	_, err := d.rest.UpdateStage(ctx, &apigateway.UpdateStageInput{RestApiId: aws.String(api), StageName: aws.String(name), PatchOperations: ops})
	return managed.Wrap(err, "update stage %s of REST API %s", name, api)
}

// restStageOps returns the fields of stage got that differ from want ("stages" when any does) and
// the patch operations that make them match: the description, each variable set or removed,
// the throttling of every method (API Gateway's defaults when the spec sets none), and the
// access log settings (removed when the spec sets none).
func restStageOps(want v1alpha1.Stage, got *types.Stage) ([]string, []types.PatchOperation) {
	var ops []types.PatchOperation
	if aws.ToString(got.Description) != want.Description {
		ops = append(ops, patchReplace("/description", want.Description))
	}
	for _, k := range slices.Sorted(maps.Keys(want.Variables)) {
		if v, ok := got.Variables[k]; !ok || v != want.Variables[k] {
			ops = append(ops, patchReplace("/variables/"+k, want.Variables[k]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got.Variables)) {
		if _, ok := want.Variables[k]; !ok {
			ops = append(ops, patchRemove("/variables/"+k))
		}
	}
	rate, burst := float64(restDefaultRateLimit), int32(restDefaultBurstLimit)
	if t := want.Throttling; t != nil {
		rate, burst = float64(t.RateLimit), t.BurstLimit
	}
	if m, ok := got.MethodSettings[restEveryMethod]; ok && (m.ThrottlingRateLimit != rate || m.ThrottlingBurstLimit != burst) || !ok && want.Throttling != nil {
		ops = append(ops, patchReplace("/*/*/throttling/rateLimit", strconv.FormatFloat(rate, 'f', -1, 64)),
			patchReplace("/*/*/throttling/burstLimit", strconv.Itoa(int(burst))))
	}
	if l := want.AccessLog; l != nil {
		if got.AccessLogSettings == nil || aws.ToString(got.AccessLogSettings.DestinationArn) != l.DestinationARN || aws.ToString(got.AccessLogSettings.Format) != l.Format {
			ops = append(ops, patchReplace("/accessLogSettings/destinationArn", l.DestinationARN), patchReplace("/accessLogSettings/format", l.Format))
		}
	} else if got.AccessLogSettings != nil {
		ops = append(ops, patchRemove("/accessLogSettings"))
	}
	if len(ops) == 0 {
		return nil, nil
	}
	return []string{"stages"}, ops
}
