package apigatewayv2

import (
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/services/apigateway"
)

// stage is one stage of an API.
type stage struct {
	cfg types.Stage // as GetStage shows it, but for tags
}

// stageName is the form of a stage name: $default, or letters, digits, hyphens and
// underscores, at most 128 of them.
var stageName = regexp.MustCompile(`^(\$default|[A-Za-z0-9_-]{1,128})$`)

// logGroupARN is the form of an access log destination: a CloudWatch Logs log group ARN, or a
// Kinesis Data Firehose stream whose name starts with amazon-apigateway-.
var logGroupARN = regexp.MustCompile(`^arn:aws[a-z-]*:(logs:[a-z0-9-]+:\d{12}:log-group:[^:]+(:\*)?|firehose:[a-z0-9-]+:\d{12}:deliverystream/amazon-apigateway-.+)$`)

// stageARN returns the ARN of an API's stage.
func stageARN(scope core.Scope, apiID, name string) string {
	return apiARN(scope, apiID) + "/stages/" + name
}

// checkRouteSettings checks throttling and logging settings: the throttling limits must not be
// negative, logging and data tracing are WebSocket APIs' only.
func (a *api) checkRouteSettings(s *types.RouteSettings) error {
	if s == nil {
		return nil
	}
	if aws.ToInt32(s.ThrottlingBurstLimit) < 0 || aws.ToFloat64(s.ThrottlingRateLimit) < 0 {
		return badRequest("Throttling limits must not be negative")
	}
	if !a.isWebSocket() && (s.LoggingLevel != "" || s.DataTraceEnabled != nil) {
		return badRequest("Execution logs are not supported on protocol HTTP")
	}
	return nil
}

// checkStage checks a stage's settings after an update has merged its changes: each route
// setting names a route key of the API, the access log destination is a log group, and the
// deployment exists.
func (a *api) checkStage(call *core.Call, s *types.Stage) error {
	if err := a.checkRouteSettings(s.DefaultRouteSettings); err != nil {
		return err
	}
	keys := map[string]bool{}
	for _, rt := range a.routes {
		keys[aws.ToString(rt.RouteKey)] = true
	}
	for _, key := range core.SortedKeys(s.RouteSettings) {
		if !keys[key] {
			return core.NotFoundf("NotFoundException", "Unable to find Route by key %s within the provided RouteSettings", key)
		}
		settings := s.RouteSettings[key]
		if err := a.checkRouteSettings(&settings); err != nil {
			return err
		}
	}
	if l := s.AccessLogSettings; l != nil && (l.DestinationArn != nil || l.Format != nil) {
		if !logGroupARN.MatchString(aws.ToString(l.DestinationArn)) {
			return badRequest("Invalid ARN specified in the request for access log destination: %s", aws.ToString(l.DestinationArn))
		}
		if aws.ToString(l.Format) == "" {
			return badRequest("Access log format must be specified with the access log destination")
		}
	}
	if id := aws.ToString(s.DeploymentId); id != "" {
		if _, ok := a.deployments[id]; !ok {
			return notFound(call, "Deployment", id)
		}
	}
	return nil
}

// stage returns the stage a request names, or NotFoundException.
func (r *region) stage(call *core.Call, apiID, name *string) (*api, *stage, error) {
	a, err := r.lookup(call, aws.ToString(apiID))
	return apigateway.Member(a, err, func(a *api) map[string]*stage { return a.stages }, name,
		notFound(call, "Stage", aws.ToString(name)))
}

// stageView returns the stage as API Gateway shows it, with its tags.
func (r *region) stageView(a *api, s *stage) *types.Stage {
	out := s.cfg
	out.Tags = r.tags.Map(stageARN(r.scope, aws.ToString(a.cfg.ApiId), aws.ToString(s.cfg.StageName)))
	return &out
}

func (b *Backend) createStage(call *core.Call, in *apigatewayv2.CreateStageInput) (*apigatewayv2.CreateStageOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.CreateStageOutput, error) {
		a, err := r.lookup(call, aws.ToString(in.ApiId))
		if err != nil {
			return nil, err
		}
		name := aws.ToString(in.StageName)
		if !stageName.MatchString(name) {
			return nil, badRequest("Stage name only allows a-zA-Z0-9_- or $default, and must be at most 128 characters")
		}
		if _, ok := a.stages[name]; ok {
			return nil, conflict("Stage already exists")
		}
		defaultSettings := in.DefaultRouteSettings
		if defaultSettings == nil {
			defaultSettings = &types.RouteSettings{}
		}
		if defaultSettings.DetailedMetricsEnabled == nil {
			defaultSettings.DetailedMetricsEnabled = aws.Bool(false)
		}
		s := &stage{cfg: types.Stage{
			StageName: in.StageName, AutoDeploy: aws.Bool(aws.ToBool(in.AutoDeploy)), DeploymentId: in.DeploymentId,
			Description: in.Description, DefaultRouteSettings: defaultSettings, RouteSettings: in.RouteSettings,
			StageVariables: in.StageVariables, AccessLogSettings: in.AccessLogSettings, ClientCertificateId: in.ClientCertificateId,
			CreatedDate: aws.Time(call.Now), LastUpdatedDate: aws.Time(call.Now), ApiGatewayManaged: aws.Bool(false),
		}}
		if s.cfg.RouteSettings == nil {
			s.cfg.RouteSettings = map[string]types.RouteSettings{}
		}
		if err := a.checkStage(call, &s.cfg); err != nil {
			return nil, err
		}
		arn := stageARN(r.scope, aws.ToString(a.cfg.ApiId), name)
		if err := r.tags.Merge(in.Tags, arn); err != nil {
			return nil, err
		}
		a.stages[name] = s
		if aws.ToBool(s.cfg.AutoDeploy) {
			a.autoDeploy(call, s)
		}
		out := &apigatewayv2.CreateStageOutput{}
		core.Fill(out, r.stageView(a, s))
		return out, nil
	})
}

// getStage answers GetStage with the stage a request names, with its tags.
func (b *Backend) getStage(call *core.Call, in *apigatewayv2.GetStageInput) (*apigatewayv2.GetStageOutput, error) {
	return apigateway.Read[apigatewayv2.GetStageOutput](b.state, call, func(r *region) (*types.Stage, error) {
		a, s, err := r.stage(call, in.ApiId, in.StageName)
		return apigateway.View(s, err, func(s *stage) *types.Stage { return r.stageView(a, s) })
	})
}

// getStages answers GetStages with a page of the API's stages, by name.
func (b *Backend) getStages(call *core.Call, in *apigatewayv2.GetStagesInput) (*apigatewayv2.GetStagesOutput, error) {
	return apigateway.List[apigatewayv2.GetStagesOutput](b.state, call, ofAPI(call, in.ApiId, func(r *region, a *api) []types.Stage {
		return apigateway.Views(a.stages, func(s *stage) *types.Stage { return r.stageView(a, s) })
	}), page, in.NextToken, in.MaxResults)
}

func (b *Backend) updateStage(call *core.Call, in *apigatewayv2.UpdateStageInput) (*apigatewayv2.UpdateStageOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.UpdateStageOutput, error) {
		a, s, err := r.stage(call, in.ApiId, in.StageName)
		if err != nil {
			return nil, err
		}
		cfg := s.cfg
		cfg.AutoDeploy = first(in.AutoDeploy, cfg.AutoDeploy)
		cfg.DeploymentId = first(in.DeploymentId, cfg.DeploymentId)
		cfg.Description = first(in.Description, cfg.Description)
		cfg.DefaultRouteSettings = first(in.DefaultRouteSettings, cfg.DefaultRouteSettings)
		cfg.AccessLogSettings = first(in.AccessLogSettings, cfg.AccessLogSettings)
		cfg.ClientCertificateId = first(in.ClientCertificateId, cfg.ClientCertificateId)
		if in.RouteSettings != nil {
			cfg.RouteSettings = in.RouteSettings
		}
		if in.StageVariables != nil {
			cfg.StageVariables = in.StageVariables
		}
		if err := a.checkStage(call, &cfg); err != nil {
			return nil, err
		}
		cfg.LastUpdatedDate = aws.Time(call.Now)
		s.cfg = cfg
		if aws.ToBool(in.AutoDeploy) {
			a.autoDeploy(call, s)
		}
		out := &apigatewayv2.UpdateStageOutput{}
		core.Fill(out, r.stageView(a, s))
		return out, nil
	})
}

// deleteAccessLogSettings turns a stage's access logging off.
func (b *Backend) deleteAccessLogSettings(call *core.Call, in *apigatewayv2.DeleteAccessLogSettingsInput) (*apigatewayv2.DeleteAccessLogSettingsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.DeleteAccessLogSettingsOutput, error) {
		_, s, err := r.stage(call, in.ApiId, in.StageName)
		if err != nil {
			return nil, err
		}
		s.cfg.AccessLogSettings = nil
		s.cfg.LastUpdatedDate = aws.Time(call.Now)
		return &apigatewayv2.DeleteAccessLogSettingsOutput{}, nil
	})
}

func (b *Backend) deleteStage(call *core.Call, in *apigatewayv2.DeleteStageInput) (*apigatewayv2.DeleteStageOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigatewayv2.DeleteStageOutput, error) {
		a, s, err := r.stage(call, in.ApiId, in.StageName)
		if err != nil {
			return nil, err
		}
		name := aws.ToString(s.cfg.StageName)
		for _, d := range r.domains {
			for _, m := range d.mappings {
				if aws.ToString(m.ApiId) == aws.ToString(a.cfg.ApiId) && aws.ToString(m.Stage) == name {
					return nil, conflict("Stage %s is mapped to domain name %s. Delete the API mapping first", name, aws.ToString(d.cfg.DomainName))
				}
			}
		}
		r.tags.Delete(stageARN(r.scope, aws.ToString(a.cfg.ApiId), name))
		delete(a.stages, name)
		return &apigatewayv2.DeleteStageOutput{}, nil
	})
}
