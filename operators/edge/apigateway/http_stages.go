package apigateway

import (
	"context"
	"fmt"
	"maps"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// defaultStage is the name of an HTTP API's stage served at the endpoint's root.
const defaultStage = "$default"

// readHTTPStages lists the API's stages (one GetStages for up to 500), by name.
func (d *httpDriver) readHTTPStages(ctx context.Context, id string) (map[string]types.Stage, error) {
	stages := map[string]types.Stage{}
	for token := (*string)(nil); ; {
		out, err := d.http.GetStages(ctx, &apigatewayv2.GetStagesInput{ApiId: aws.String(id), MaxResults: aws.String("500"), NextToken: token})
		if err != nil {
			return nil, fmt.Errorf("list the stages of API %s: %w", id, err)
		}
		for _, s := range out.Items {
			stages[aws.ToString(s.StageName)] = s
		}
		if token = out.NextToken; token == nil {
			return stages, nil
		}
	}
}

// planHTTPStages plans the API's stages: each stage of the spec created (deploying every change
// at once) or updated where it differs, and the stages the spec does not name deleted. It
// fills status.stages with each stage's URL and deployment.
func (d *httpDriver) planHTTPStages(o *v1alpha1.APIGateway, apiID string, stages map[string]types.Stage, plan *managed.Plan) {
	o.Status.Stages = nil
	inSpec := map[string]bool{}
	for _, s := range o.Spec.Stages {
		inSpec[s.Name] = true
		cur, ok := stages[s.Name]
		if ok {
			o.Status.Stages = append(o.Status.Stages, v1alpha1.StageStatus{Name: s.Name, URL: stageURL(o.Status.APIEndpoint, s.Name),
				DeploymentID: aws.ToString(cur.DeploymentId)})
		}
		if !ok {
			plan.Add("stages", func(ctx context.Context) error {
				in := &apigatewayv2.CreateStageInput{ApiId: aws.String(apiID), StageName: aws.String(s.Name), AutoDeploy: aws.Bool(true),
					StageVariables: s.Variables, DefaultRouteSettings: routeSettings(s.Throttling), AccessLogSettings: accessLog(s.AccessLog)}
				if s.Description != "" {
					in.Description = aws.String(s.Description)
				}
				_, err := d.http.CreateStage(ctx, in)
				return managed.Wrap(err, "create stage %s of API %s", s.Name, apiID)
			})
			continue
		}
		if !sameHTTPStage(s, cur) {
			plan.Add("stages", func(ctx context.Context) error {
				variables := s.Variables
				if variables == nil {
					variables = map[string]string{}
				}
				_, err := d.http.UpdateStage(ctx, &apigatewayv2.UpdateStageInput{ApiId: aws.String(apiID), StageName: aws.String(s.Name),
					AutoDeploy: aws.Bool(true), Description: aws.String(s.Description), StageVariables: variables,
					DefaultRouteSettings: routeSettings(s.Throttling), AccessLogSettings: accessLog(s.AccessLog)})
				return managed.Wrap(err, "update stage %s of API %s", s.Name, apiID)
			})
		}
		if s.AccessLog == nil && cur.AccessLogSettings != nil && aws.ToString(cur.AccessLogSettings.DestinationArn) != "" {
			plan.Add("stages", func(ctx context.Context) error {
				_, err := d.http.DeleteAccessLogSettings(ctx, &apigatewayv2.DeleteAccessLogSettingsInput{ApiId: aws.String(apiID), StageName: aws.String(s.Name)})
				return managed.Wrap(err, "turn off the access log of stage %s of API %s", s.Name, apiID)
			})
		}
	}
	for name := range stages {
		if !inSpec[name] {
			plan.Add("stages", func(ctx context.Context) error {
				_, err := d.http.DeleteStage(ctx, &apigatewayv2.DeleteStageInput{ApiId: aws.String(apiID), StageName: aws.String(name)})
				return notFoundIsGone(err, "delete stage %s of API %s", name, apiID)
			})
		}
	}
}

// stageURL returns where a v2 stage is served: the endpoint itself for the $default stage,
// else the endpoint followed by the stage's name.
func stageURL(endpoint, stage string) string {
	if stage == defaultStage {
		return endpoint
	}
	return endpoint + "/" + stage
}

// routeSettings returns the default route settings of a stage with throttling t: without
// throttling, settings that set no limit.
func routeSettings(t *v1alpha1.Throttling) *types.RouteSettings {
	if t == nil {
		return &types.RouteSettings{}
	}
	return &types.RouteSettings{ThrottlingBurstLimit: aws.Int32(t.BurstLimit), ThrottlingRateLimit: aws.Float64(float64(t.RateLimit))}
}

// accessLog returns the access log settings of a stage with access log l, nil without one
// (DeleteAccessLogSettings turns logging off).
func accessLog(l *v1alpha1.AccessLog) *types.AccessLogSettings {
	if l == nil {
		return nil
	}
	return &types.AccessLogSettings{DestinationArn: aws.String(l.DestinationARN), Format: aws.String(l.Format)}
}

// sameHTTPStage reports whether the stage got is the spec's s: deployed automatically, with its
// description, variables, throttling and, when the spec has one, access log.
func sameHTTPStage(s v1alpha1.Stage, got types.Stage) bool {
	want := routeSettings(s.Throttling)
	settings := got.DefaultRouteSettings
	if settings == nil {
		settings = &types.RouteSettings{}
	}
	log, wantLog := got.AccessLogSettings, accessLog(s.AccessLog)
	if log == nil {
		log = &types.AccessLogSettings{}
	}
	if wantLog == nil {
		wantLog = log // compared by the plan of DeleteAccessLogSettings
	}
	return aws.ToBool(got.AutoDeploy) && aws.ToString(got.Description) == s.Description && maps.Equal(got.StageVariables, s.Variables) &&
		aws.ToInt32(settings.ThrottlingBurstLimit) == aws.ToInt32(want.ThrottlingBurstLimit) &&
		aws.ToFloat64(settings.ThrottlingRateLimit) == aws.ToFloat64(want.ThrottlingRateLimit) &&
		aws.ToString(log.DestinationArn) == aws.ToString(wantLog.DestinationArn) && aws.ToString(log.Format) == aws.ToString(wantLog.Format)
}
