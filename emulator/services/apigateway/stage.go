package apigateway

import (
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// stageName and variableName are the forms of a stage's name and of its variables' names.
var (
	stageName    = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)
	variableName = regexp.MustCompile(`^[A-Za-z0-9_]{1,64}$`)
)

// logDestination is the form of an access log destination: a CloudWatch Logs log group ARN, or
// a Kinesis Data Firehose stream whose name starts with amazon-apigateway-.
var logDestination = regexp.MustCompile(`^arn:aws[a-z-]*:(logs:[a-z0-9-]+:\d{12}:log-group:[^:]+(:\*)?|firehose:[a-z0-9-]+:\d{12}:deliverystream/amazon-apigateway-.+)$`)

// stageARN returns the ARN of a REST API's stage.
func stageARN(scope core.Scope, apiID, name string) string {
	return ARN(scope, "/restapis/"+apiID+"/stages/"+name)
}

// checkStage checks a stage's name and the names of its variables.
func checkStage(name string, variables map[string]string) error {
	if !stageName.MatchString(name) {
		return BadRequest("Stage name only allows a-zA-Z0-9_-")
	}
	for k := range variables {
		if !variableName.MatchString(k) {
			return BadRequest("Stage variable names must only contain alphanumeric characters and underscores")
		}
	}
	return nil
}

// newStage returns a new stage of the deployment id.
func newStage(call *core.Call, name string, deployment *string) *types.Stage {
	return &types.Stage{StageName: aws.String(name), DeploymentId: deployment, CreatedDate: aws.Time(call.Now),
		LastUpdatedDate: aws.Time(call.Now), MethodSettings: map[string]types.MethodSetting{},
		CacheClusterStatus: types.CacheClusterStatusNotAvailable}
}

// stage returns the stage a request names, or NotFoundException.
func (r *region) stage(call *core.Call, apiID, name *string) (*restAPI, *types.Stage, error) {
	a, err := r.lookup(call, apiID)
	return Member(a, err, func(a *restAPI) map[string]*types.Stage { return a.stages }, name,
		core.NotFoundf("NotFoundException", "Invalid Stage identifier specified"))
}

// stageView returns the stage with its tags.
func (r *region) stageView(a *restAPI, s *types.Stage) *types.Stage {
	out := *s
	out.Tags = r.tags.Map(stageARN(r.scope, aws.ToString(a.cfg.Id), aws.ToString(s.StageName)))
	return &out
}

func (b *Backend) createStage(call *core.Call, in *apigateway.CreateStageInput) (*apigateway.CreateStageOutput, error) {
	name := aws.ToString(in.StageName)
	if err := checkStage(name, in.Variables); err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*apigateway.CreateStageOutput, error) {
		a, err := r.lookup(call, in.RestApiId)
		if err != nil {
			return nil, err
		}
		if _, ok := a.deployments[aws.ToString(in.DeploymentId)]; !ok {
			return nil, core.NotFoundf("NotFoundException", "Invalid Deployment identifier specified")
		}
		if _, ok := a.stages[name]; ok {
			return nil, Conflict("Stage already exists")
		}
		s := newStage(call, name, in.DeploymentId)
		s.Description, s.Variables, s.TracingEnabled = in.Description, cloneMap(in.Variables), in.TracingEnabled
		s.CacheClusterEnabled, s.CacheClusterSize = in.CacheClusterEnabled, in.CacheClusterSize
		return Created[apigateway.CreateStageOutput](r.tags, in.Tags, stageARN(r.scope, aws.ToString(a.cfg.Id), name), a.stages, name, s, func(s *types.Stage) *types.Stage { return r.stageView(a, s) })
	})
}

// getStage answers GetStage with the stage a request names.
func (b *Backend) getStage(call *core.Call, in *apigateway.GetStageInput) (*apigateway.GetStageOutput, error) {
	return Read[apigateway.GetStageOutput](b.state, call, func(r *region) (*types.Stage, error) {
		a, s, err := r.stage(call, in.RestApiId, in.StageName)
		return View(s, err, func(s *types.Stage) *types.Stage { return r.stageView(a, s) })
	})
}

func (b *Backend) getStages(call *core.Call, in *apigateway.GetStagesInput) (*apigateway.GetStagesOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.GetStagesOutput, error) {
		a, err := r.lookup(call, in.RestApiId)
		if err != nil {
			return nil, err
		}
		items := []types.Stage{}
		for _, name := range core.SortedKeys(a.stages) {
			if s := a.stages[name]; in.DeploymentId == nil || aws.ToString(s.DeploymentId) == *in.DeploymentId {
				items = append(items, *r.stageView(a, s))
			}
		}
		return &apigateway.GetStagesOutput{Item: items}, nil
	})
}

func (b *Backend) updateStage(call *core.Call, in *apigateway.UpdateStageInput) (*apigateway.UpdateStageOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.UpdateStageOutput, error) {
		a, old, err := r.stage(call, in.RestApiId, in.StageName)
		if err != nil {
			return nil, err
		}
		s := *old
		s.Variables, s.MethodSettings = cloneMap(old.Variables), cloneMap(old.MethodSettings)
		if err := patch(in.PatchOperations, func(p patchOp) error { return a.patchStage(&s, p) }); err != nil {
			return nil, err
		}
		if err := checkStage(aws.ToString(s.StageName), s.Variables); err != nil {
			return nil, err
		}
		if l := s.AccessLogSettings; l != nil && !logDestination.MatchString(aws.ToString(l.DestinationArn)) {
			return nil, BadRequest("Invalid ARN specified in the request for access log destination: %s", aws.ToString(l.DestinationArn))
		}
		s.LastUpdatedDate = aws.Time(call.Now)
		a.stages[aws.ToString(s.StageName)] = &s
		out := &apigateway.UpdateStageOutput{}
		core.Fill(out, r.stageView(a, &s))
		return out, nil
	})
}

// patchStage applies one patch operation to a stage of a.
func (a *restAPI) patchStage(s *types.Stage, p patchOp) error {
	switch p.parts[0] {
	case "description":
		s.Description = p.str()
	case "deploymentId":
		if _, ok := a.deployments[aws.ToString(p.value)]; !ok {
			return core.NotFoundf("NotFoundException", "Invalid Deployment identifier specified")
		}
		s.DeploymentId = p.value
	case "tracingEnabled":
		return set(&s.TracingEnabled, p.boolean)
	case "cacheClusterEnabled":
		return set(&s.CacheClusterEnabled, p.boolean)
	case "variables":
		if len(p.parts) != 2 {
			return p.invalidPath()
		}
		s.Variables = p.setEntry(s.Variables)
	case "accessLogSettings":
		return patchAccessLog(s, p)
	default:
		return a.patchMethodSetting(s, p)
	}
	return nil
}

// patchAccessLog applies a patch of /accessLogSettings, /accessLogSettings/destinationArn or
// /accessLogSettings/format; removing /accessLogSettings turns access logging off.
func patchAccessLog(s *types.Stage, p patchOp) error {
	if len(p.parts) == 1 && p.op == types.OpRemove {
		s.AccessLogSettings = nil
		return nil
	}
	if len(p.parts) != 2 {
		return p.invalidPath()
	}
	l := types.AccessLogSettings{}
	if s.AccessLogSettings != nil {
		l = *s.AccessLogSettings
	}
	switch p.parts[1] {
	case "destinationArn":
		l.DestinationArn = p.str()
	case "format":
		l.Format = p.str()
	default:
		return p.invalidPath()
	}
	s.AccessLogSettings = &l
	return nil
}

// defaultMethodSetting is a method setting before a patch changes it: API Gateway's default
// throttling (10000 requests a second, bursts of 5000), logging off, caching for 300s.
var defaultMethodSetting = types.MethodSetting{ThrottlingRateLimit: 10000, ThrottlingBurstLimit: 5000, LoggingLevel: aws.String("OFF"),
	CacheTtlInSeconds: 300, RequireAuthorizationForCacheControl: true,
	UnauthorizedCacheControlHeaderStrategy: types.UnauthorizedCacheControlHeaderStrategySucceedWithResponseHeader}

// patchMethodSetting applies a patch of /{resource path}/{method}/{group}/{setting} to the
// stage's method settings: "/*/*/..." for every method, the resource path's slashes given as
// they are or escaped as ~1 ("/pets/GET/..." or "/~1pets/GET/..."). The settings are keyed
// {resource path}/{method} without the leading slash ("pets/GET"), "*/*" for every method.
func (a *restAPI) patchMethodSetting(s *types.Stage, p patchOp) error {
	n := len(p.parts)
	if n < 4 {
		return p.invalidPath()
	}
	path, verb := strings.Join(p.parts[:n-3], "/"), p.parts[n-3]
	key := "*/*"
	if path != "*" || verb != "*" {
		path = "/" + strings.Trim(path, "/")
		if !a.hasMethod(path, verb) {
			return BadRequest("Invalid method setting path: %s. Must be one of: [/*/*, <resource path>/<http method>] for a method of the API", p.path)
		}
		key = strings.TrimPrefix(path, "/") + "/" + verb
	}
	m, ok := s.MethodSettings[key]
	if !ok {
		m = defaultMethodSetting
	}
	if s.MethodSettings == nil {
		s.MethodSettings = map[string]types.MethodSetting{}
	}
	var err error
	switch p.parts[n-2] + "/" + p.parts[n-1] {
	case "throttling/rateLimit":
		m.ThrottlingRateLimit, err = p.number()
	case "throttling/burstLimit":
		m.ThrottlingBurstLimit, err = p.integer()
	case "logging/loglevel":
		m.LoggingLevel = aws.String(strings.ToUpper(aws.ToString(p.value)))
		if l := *m.LoggingLevel; l != "OFF" && l != "ERROR" && l != "INFO" {
			return BadRequest("Invalid logging level: %s. Valid values are OFF, ERROR and INFO", l)
		}
	case "logging/dataTrace":
		m.DataTraceEnabled, err = p.boolean()
	case "metrics/enabled":
		m.MetricsEnabled, err = p.boolean()
	case "caching/enabled":
		m.CachingEnabled, err = p.boolean()
	case "caching/ttlInSeconds":
		m.CacheTtlInSeconds, err = p.integer()
	default:
		return p.invalidPath()
	}
	if err != nil {
		return err
	}
	s.MethodSettings[key] = m
	return nil
}

// hasMethod reports whether the API has a method verb on the resource at path.
func (a *restAPI) hasMethod(path, verb string) bool {
	for _, res := range a.resources {
		if aws.ToString(res.cfg.Path) == path {
			_, ok := res.methods[verb]
			return ok
		}
	}
	return false
}

func (b *Backend) deleteStage(call *core.Call, in *apigateway.DeleteStageInput) (*apigateway.DeleteStageOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.DeleteStageOutput, error) {
		a, s, err := r.stage(call, in.RestApiId, in.StageName)
		if err != nil {
			return nil, err
		}
		name := aws.ToString(s.StageName)
		r.tags.Delete(stageARN(r.scope, aws.ToString(a.cfg.Id), name))
		delete(a.stages, name)
		return &apigateway.DeleteStageOutput{}, nil
	})
}
