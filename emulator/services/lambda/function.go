package lambda

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"reflect"
	"regexp"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// function is one Lambda function.
type function struct {
	cfg     types.FunctionConfiguration
	code    types.FunctionCode
	until   time.Time // when the current transition ends
	created bool      // the transition in progress is the creation
}

// settle finishes a transition whose time has come.
func (f *function) settle(now time.Time) {
	if now.Before(f.until) {
		return
	}
	if f.cfg.State == types.StatePending {
		f.cfg.State, f.cfg.StateReason, f.cfg.StateReasonCode = types.StateActive, nil, types.StateReasonCodeIdle
	}
	if f.cfg.LastUpdateStatus == types.LastUpdateStatusInProgress {
		f.cfg.LastUpdateStatus, f.cfg.LastUpdateStatusReason, f.cfg.LastUpdateStatusReasonCode = types.LastUpdateStatusSuccessful, nil, ""
	}
}

var (
	functionName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	roleARN      = regexp.MustCompile(`^arn:(aws[a-zA-Z-]*)?:iam::\d{12}:role/?[a-zA-Z_0-9+=,.@\-_/]+$`)
)

func validationf(format string, args ...any) *core.APIError {
	return core.Errorf("ValidationException", "1 validation error detected: "+format, args...)
}

func invalidParameter(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidParameterValueException", format, args...)
}

// checkSettings validates the settings CreateFunction and UpdateFunctionConfiguration share.
func checkSettings(role *string, runtime types.Runtime, memory, timeout *int32) error {
	if role != nil && !roleARN.MatchString(*role) {
		return validationf("Value '%s' at 'role' failed to satisfy constraint: Member must satisfy regular expression pattern: arn:(aws[a-zA-Z-]*)?:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+", *role)
	}
	if runtime != "" {
		known := false
		for _, r := range runtime.Values() {
			known = known || r == runtime
		}
		if !known {
			return validationf("Value '%s' at 'runtime' failed to satisfy constraint: Member must satisfy enum value set", runtime)
		}
	}
	if memory != nil && (*memory < 128 || *memory > 10240) {
		return validationf("Value '%d' at 'memorySize' failed to satisfy constraint: Member must have value between 128 and 10240", *memory)
	}
	if timeout != nil && (*timeout < 1 || *timeout > 900) {
		return validationf("Value '%d' at 'timeout' failed to satisfy constraint: Member must have value between 1 and 900", *timeout)
	}
	return nil
}

// checkCode validates a deployment package and returns its SHA-256 and size as Lambda reports
// them.
func (b *Backend) checkCode(code *types.FunctionCode) (string, int64, error) {
	if code == nil {
		return "", 0, invalidParameter("Code is required")
	}
	sources := 0
	for _, set := range []bool{code.ZipFile != nil, code.S3Bucket != nil || code.S3Key != nil, code.ImageUri != nil} {
		if set {
			sources++
		}
	}
	if sources != 1 {
		return "", 0, invalidParameter("Please provide a source for function code: exactly one of ZipFile, S3Bucket and S3Key, or ImageUri.")
	}
	var content []byte
	switch {
	case code.ZipFile != nil:
		content = code.ZipFile
	case code.ImageUri != nil:
		content = []byte(aws.ToString(code.ImageUri))
	default:
		if code.S3Bucket == nil || code.S3Key == nil {
			return "", 0, invalidParameter("Both S3Bucket and S3Key are required for code in S3.")
		}
		if errCode := b.code.ObjectError(*code.S3Bucket, *code.S3Key); errCode != "" {
			return "", 0, invalidParameter("Error occurred while GetObject. S3 Error Code: %s. S3 Error Message: The specified object could not be read.", errCode)
		}
		content = []byte(*code.S3Bucket + "/" + *code.S3Key + "/" + aws.ToString(code.S3ObjectVersion))
	}
	sum := sha256.Sum256(content)
	return base64.StdEncoding.EncodeToString(sum[:]), int64(len(content)), nil
}

func (b *Backend) createFunction(call *core.Call, in *lambda.CreateFunctionInput) (*lambda.CreateFunctionOutput, error) {
	name := aws.ToString(in.FunctionName)
	if !functionName.MatchString(name) {
		return nil, validationf("Value '%s' at 'functionName' failed to satisfy constraint: Member must satisfy regular expression pattern: (arn:(aws[a-zA-Z-]*)?:lambda:)?([a-z]{2}(-gov)?-[a-z]+-\\d{1}:)?(\\d{12}:)?(function:)?([a-zA-Z0-9-_]+)(:(\\$LATEST|[a-zA-Z0-9-_]+))?", name)
	}
	if in.Role == nil {
		return nil, validationf("Value null at 'role' failed to satisfy constraint: Member must not be null")
	}
	if err := checkSettings(in.Role, in.Runtime, in.MemorySize, in.Timeout); err != nil {
		return nil, err
	}
	packageType := in.PackageType
	if packageType == "" {
		packageType = types.PackageTypeZip
	}
	if packageType == types.PackageTypeZip && (in.Runtime == "" || in.Handler == nil) {
		return nil, invalidParameter("Runtime and Handler are mandatory parameters for functions created with deployment packages.")
	}
	sha, size, err := b.checkCode(in.Code)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	functions := b.functions.Of(call)
	if _, exists := functions[name]; exists {
		return nil, &core.APIError{Code: "ResourceConflictException", Status: 409, Message: "Function already exist: " + name}
	}
	arn := call.Scope().ARN("lambda", "function:"+name)
	if err := b.tags.Merge(in.Tags, arn); err != nil {
		return nil, err
	}
	b.seq++
	f := &function{code: *in.Code, until: call.Now.Add(call.Transition), created: true}
	f.cfg = types.FunctionConfiguration{
		FunctionName: aws.String(name), FunctionArn: aws.String(arn),
		Runtime: in.Runtime, Role: in.Role, Handler: in.Handler, Description: in.Description, PackageType: packageType,
		MemorySize: orDefault(in.MemorySize, 128), Timeout: orDefault(in.Timeout, 3), CodeSha256: aws.String(sha), CodeSize: size,
		Version: aws.String("$LATEST"), Architectures: in.Architectures, LastModified: aws.String(lastModified(call.Now)),
		RevisionId: aws.String(b.revision()), State: types.StatePending, StateReason: aws.String("The function is being created."),
		StateReasonCode: types.StateReasonCodeCreating, LastUpdateStatus: types.LastUpdateStatusSuccessful,
	}
	if len(f.cfg.Architectures) == 0 {
		f.cfg.Architectures = []types.Architecture{types.ArchitectureX8664}
	}
	f.configure(in.Environment, in.VpcConfig)
	functions[name] = f
	out := &lambda.CreateFunctionOutput{}
	copyFields(out, f.cfg)
	return out, nil
}

// configure applies the environment and VPC settings as Lambda reports them.
func (f *function) configure(env *types.Environment, vpc *types.VpcConfig) {
	if env != nil {
		f.cfg.Environment = &types.EnvironmentResponse{Variables: env.Variables}
	}
	if vpc != nil {
		f.cfg.VpcConfig = &types.VpcConfigResponse{SubnetIds: vpc.SubnetIds, SecurityGroupIds: vpc.SecurityGroupIds}
		if len(vpc.SubnetIds) > 0 {
			f.cfg.VpcConfig.VpcId = aws.String("vpc-emulated")
		}
	}
}

func orDefault(v *int32, def int32) *int32 {
	if v == nil {
		return aws.Int32(def)
	}
	return v
}

// lastModified formats a time as Lambda does: 2026-11-22T12:00:00.000+0000.
func lastModified(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000-0700") }

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
