package lambda

import (
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// function is one Lambda function: its unpublished version ($LATEST) and everything that hangs
// off the function as a whole.
type function struct {
	// cfg is the configuration of $LATEST, as GetFunction reports it unqualified.
	cfg types.FunctionConfiguration
	// code is the deployment package of $LATEST as the request gave it.
	code types.FunctionCode
	// until is when the transition in progress (creation or update) ends.
	until time.Time
	// revision counts the changes to $LATEST's code and configuration, so that PublishVersion
	// can tell whether anything changed since the last version.
	revision int
	// versions are the published versions, by number.
	versions map[string]*version
	// lastVersion is the number of the last version published; numbers are never reused.
	lastVersion int
	// concurrency is the reserved concurrency, or nil when none is reserved.
	concurrency *int32
	// url is the function URL of the unqualified function, or nil.
	url *types.FunctionUrlConfig
	// policies are the resource-based policies, by qualifier ("" for the function itself).
	policies map[string]*policy
	// aliases are the function's aliases, by name; nil until the first is created.
	aliases map[string]*types.AliasConfiguration
}

// settle finishes the transitions whose time has come, of $LATEST and of the published
// versions; a finished transition gives a new RevisionId, as on AWS. The caller holds the
// backend's lock.
func (b *Backend) settle(call *core.Call, f *function) {
	if settle(&f.cfg, f.until, call.Now) {
		f.cfg.RevisionId = aws.String(b.revision())
	}
	for _, v := range f.versions {
		if settle(&v.cfg, v.until, call.Now) {
			v.cfg.RevisionId = aws.String(b.revision())
		}
	}
}

// settle ends a configuration's transition when until has passed: Pending becomes Active and an
// update InProgress becomes Successful. It reports whether anything changed.
func settle(cfg *types.FunctionConfiguration, until, now time.Time) bool {
	if now.Before(until) {
		return false
	}
	changed := false
	if cfg.State == types.StatePending {
		cfg.State, cfg.StateReason, cfg.StateReasonCode = types.StateActive, nil, types.StateReasonCodeIdle
		changed = true
	}
	if cfg.LastUpdateStatus == types.LastUpdateStatusInProgress {
		cfg.LastUpdateStatus, cfg.LastUpdateStatusReason, cfg.LastUpdateStatusReasonCode = types.LastUpdateStatusSuccessful, nil, ""
		changed = true
	}
	return changed
}

var (
	// functionName is what CreateFunction's FunctionName may be: a plain name.
	functionName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	// roleARN is the Role constraint of the API reference.
	roleARN = regexp.MustCompile(`^arn:(aws[a-zA-Z-]*)?:iam::\d{12}:role/?[a-zA-Z_0-9+=,.@\-_/]+$`)
)

// validationf returns Lambda's ValidationException for one parameter that breaks the model's
// constraints.
func validationf(format string, args ...any) *core.APIError {
	return core.Errorf("ValidationException", "1 validation error detected: "+format, args...)
}

// invalidParameter returns Lambda's InvalidParameterValueException.
func invalidParameter(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidParameterValueException", format, args...)
}

// conflict returns Lambda's ResourceConflictException (HTTP 409).
func conflict(format string, args ...any) *core.APIError {
	return &core.APIError{Code: "ResourceConflictException", Status: http.StatusConflict, Message: fmt.Sprintf(format, args...)}
}

// preconditionFailed is Lambda's answer to a RevisionId that is not the resource's current one.
func preconditionFailed() *core.APIError {
	return &core.APIError{Code: "PreconditionFailedException", Status: http.StatusPreconditionFailed,
		Message: "The Revision Id provided does not match the latest Revision Id. Call the GetFunction/GetAlias API to retrieve the latest Revision Id"}
}

// checkRevision enforces a request's RevisionId precondition against the current one.
func checkRevision(want, current *string) error {
	if want != nil && aws.ToString(want) != aws.ToString(current) {
		return preconditionFailed()
	}
	return nil
}

// createFunction creates a function, Pending until its transition ends, from a checked
// deployment package and settings, with its tags; Publish also publishes version 1.
func (b *Backend) createFunction(call *core.Call, in *lambda.CreateFunctionInput) (*lambda.CreateFunctionOutput, error) {
	name := aws.ToString(in.FunctionName)
	if !functionName.MatchString(name) {
		return nil, validationf("Value '%s' at 'functionName' failed to satisfy constraint: Member must satisfy regular expression pattern: %s", name, functionRefPattern)
	}
	if in.Role == nil {
		return nil, validationf("Value null at 'role' failed to satisfy constraint: Member must not be null")
	}
	s := settings{role: in.Role, handler: in.Handler, description: in.Description, kmsKeyARN: in.KMSKeyArn, runtime: in.Runtime,
		memory: in.MemorySize, timeout: in.Timeout, environment: in.Environment, vpc: in.VpcConfig, deadLetter: in.DeadLetterConfig,
		tracing: in.TracingConfig, ephemeral: in.EphemeralStorage, layers: in.Layers, imageConfig: in.ImageConfig}
	if err := s.check(true, call.Region); err != nil {
		return nil, err
	}
	if err := checkArchitectures(in.Architectures); err != nil {
		return nil, err
	}
	packageType := in.PackageType
	if packageType == "" {
		packageType = types.PackageTypeZip
	}
	if err := checkPackageType(packageType, in.Runtime, in.Handler, in.Layers); err != nil {
		return nil, err
	}
	src, err := b.checkCode("CreateFunction", packageType, in.Code, false)
	if err != nil {
		return nil, err
	}
	if s.vpcID, err = b.resolveVPC(call.Scope(), in.VpcConfig); err != nil {
		return nil, err
	}
	b.state.Lock()
	defer b.state.Unlock()
	functions := b.state.Of(call)
	if _, exists := functions[name]; exists {
		return nil, conflict("Function already exist: %s", name)
	}
	arn := call.Scope().ARN("lambda", "function:"+name)
	if err := b.tags.Merge(in.Tags, arn); err != nil {
		return nil, err
	}
	f := &function{code: src.code, until: call.Now.Add(call.Transition), revision: 1,
		versions: map[string]*version{}, policies: map[string]*policy{}}
	f.cfg = types.FunctionConfiguration{
		FunctionName: aws.String(name), FunctionArn: aws.String(arn), PackageType: packageType,
		Role: in.Role, Handler: in.Handler, Runtime: in.Runtime, Description: aws.String(""),
		MemorySize: aws.Int32(128), Timeout: aws.Int32(3), CodeSha256: aws.String(src.sha), CodeSize: src.size,
		Version: aws.String("$LATEST"), Architectures: in.Architectures, LastModified: aws.String(lastModified(call.Now)),
		RevisionId: aws.String(b.revision()), State: types.StatePending, StateReason: aws.String("The function is being created."),
		StateReasonCode: types.StateReasonCodeCreating, LastUpdateStatus: types.LastUpdateStatusSuccessful,
		TracingConfig:    &types.TracingConfigResponse{Mode: types.TracingModePassThrough},
		EphemeralStorage: &types.EphemeralStorage{Size: aws.Int32(512)},
		SnapStart:        &types.SnapStartResponse{ApplyOn: types.SnapStartApplyOnNone, OptimizationStatus: types.SnapStartOptimizationStatusOff},
		LoggingConfig:    &types.LoggingConfig{LogFormat: types.LogFormatText, LogGroup: aws.String("/aws/lambda/" + name)},
	}
	if len(f.cfg.Architectures) == 0 {
		f.cfg.Architectures = []types.Architecture{types.ArchitectureX8664}
	}
	s.apply(&f.cfg)
	functions[name] = f
	out := &lambda.CreateFunctionOutput{}
	if in.Publish {
		v := b.publish(call, f, nil)
		// Lambda answers CreateFunction with Publish with the new version's configuration under
		// the unqualified ARN.
		cfg := v.cfg
		cfg.FunctionArn = aws.String(arn)
		copyFields(out, cfg)
		return out, nil
	}
	copyFields(out, f.cfg)
	return out, nil
}

// lastModified formats a time as Lambda does: 2026-11-22T12:00:00.000+0000.
func lastModified(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000-0700") }

// revision returns a new RevisionId, a UUID in form. The caller holds the backend's lock.
func (b *Backend) revision() string {
	b.seq++
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", b.seq, b.seq)
}

// copyFields copies the fields of src into the same-named fields of the struct dst points to:
// Lambda's outputs repeat FunctionConfiguration's fields.
func copyFields(dst any, src any) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src)
	for i := 0; i < s.NumField(); i++ {
		if !s.Type().Field(i).IsExported() {
			continue
		}
		if f := d.FieldByName(s.Type().Field(i).Name); f.IsValid() && f.Type() == s.Field(i).Type() {
			f.Set(s.Field(i))
		}
	}
}
