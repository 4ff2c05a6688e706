package lambda

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
)

// settings are the configuration CreateFunction and UpdateFunctionConfiguration share, as the
// request gives them. On update a nil setting is left as it is, and an empty one (an empty
// DeadLetterConfig TargetArn or KMSKeyArn, no layers, no subnets and security groups, no
// variables) removes it.
type settings struct {
	role, handler, description, kmsKeyARN *string
	runtime                               types.Runtime
	memory, timeout                       *int32
	environment                           *types.Environment
	vpc                                   *types.VpcConfig
	vpcID                                 string // the VPC of vpc's subnets, from resolveVPC
	deadLetter                            *types.DeadLetterConfig
	tracing                               *types.TracingConfig
	ephemeral                             *types.EphemeralStorage
	layers                                []string
	imageConfig                           *types.ImageConfig
}

var (
	// handlerPattern is the Handler constraint of the API reference.
	handlerPattern = regexp.MustCompile(`^[^\s]+$`)
	// kmsKeyPattern is the KMSKeyArn constraint of the API reference.
	kmsKeyPattern = regexp.MustCompile(`^(arn:(aws[a-zA-Z-]*)?:[a-z0-9-.]+:.*)?$`)
	// layerPattern is the constraint on each Layers entry of the API reference: a layer version
	// ARN.
	layerPattern = regexp.MustCompile(`^(arn:[a-zA-Z0-9-]+:lambda:([a-zA-Z0-9-]+):\d{12}:layer:[a-zA-Z0-9-_]+):[0-9]+$|^arn:[a-zA-Z0-9-]+:lambda:::awslayer:[a-zA-Z0-9-_]+$`)
	// variableName is the constraint on environment variable names of the API reference.
	variableName = regexp.MustCompile(`^[a-zA-Z]([a-zA-Z0-9_])+$`)
	// deadLetterTarget matches the ARNs of the SQS queues and SNS topics a function may send the
	// events it failed to process to (Lambda Developer Guide, Adding a dead-letter queue).
	deadLetterTarget = regexp.MustCompile(`^arn:aws[a-zA-Z-]*:(sqs|sns):[a-z0-9-]+:\d{12}:[a-zA-Z0-9_.-]+$`)
)

// reservedVariables are the environment variables the Lambda runtime defines and a function may
// not set (Lambda Developer Guide, Defined runtime environment variables).
var reservedVariables = []string{"_HANDLER", "_X_AMZN_TRACE_ID", "AWS_DEFAULT_REGION", "AWS_REGION", "AWS_EXECUTION_ENV",
	"AWS_LAMBDA_FUNCTION_NAME", "AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "AWS_LAMBDA_FUNCTION_VERSION", "AWS_LAMBDA_INITIALIZATION_TYPE",
	"AWS_LAMBDA_LOG_GROUP_NAME", "AWS_LAMBDA_LOG_STREAM_NAME", "AWS_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
	"AWS_SESSION_TOKEN", "AWS_LAMBDA_RUNTIME_API", "LAMBDA_TASK_ROOT", "LAMBDA_RUNTIME_DIR"}

// maxLayers is how many layers a function may use (Lambda quotas).
const maxLayers = 5

// maxEnvironment is the largest total size of a function's environment variables, measured as
// their JSON (Lambda quotas: 4 KB).
const maxEnvironment = 4096

// check validates the settings as Lambda does, for a function in region; create is true for
// CreateFunction, where empty values do not mean removal.
func (s *settings) check(create bool, region string) error {
	if s.role != nil && !roleARN.MatchString(*s.role) {
		return validationf("Value '%s' at 'role' failed to satisfy constraint: Member must satisfy regular expression pattern: arn:(aws[a-zA-Z-]*)?:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+", *s.role)
	}
	if s.runtime != "" && !slices.Contains(s.runtime.Values(), s.runtime) {
		return validationf("Value '%s' at 'runtime' failed to satisfy constraint: Member must satisfy enum value set", s.runtime)
	}
	if s.memory != nil && (*s.memory < 128 || *s.memory > 10240) {
		return validationf("Value '%d' at 'memorySize' failed to satisfy constraint: Member must have value between 128 and 10240", *s.memory)
	}
	if s.timeout != nil && (*s.timeout < 1 || *s.timeout > 900) {
		return validationf("Value '%d' at 'timeout' failed to satisfy constraint: Member must have value between 1 and 900", *s.timeout)
	}
	if s.handler != nil && len(*s.handler) > 128 {
		return validationf("Value '%s' at 'handler' failed to satisfy constraint: Member must have length less than or equal to 128", *s.handler)
	}
	if s.handler != nil && !handlerPattern.MatchString(*s.handler) {
		return validationf("Value '%s' at 'handler' failed to satisfy constraint: Member must satisfy regular expression pattern: [^\\s]+", *s.handler)
	}
	if s.description != nil && len(*s.description) > 256 {
		return validationf("Value '%s' at 'description' failed to satisfy constraint: Member must have length less than or equal to 256", *s.description)
	}
	if s.kmsKeyARN != nil && !kmsKeyPattern.MatchString(*s.kmsKeyARN) {
		return validationf("Value '%s' at 'kMSKeyArn' failed to satisfy constraint: Member must satisfy regular expression pattern: (arn:(aws[a-zA-Z-]*)?:[a-z0-9-.]+:.*)|()", *s.kmsKeyARN)
	}
	if s.tracing != nil && s.tracing.Mode != "" && !slices.Contains(s.tracing.Mode.Values(), s.tracing.Mode) {
		return validationf("Value '%s' at 'tracingConfig.mode' failed to satisfy constraint: Member must satisfy enum value set: [Active, PassThrough]", s.tracing.Mode)
	}
	if s.ephemeral != nil {
		switch size := aws.ToInt32(s.ephemeral.Size); {
		case size < 512:
			return validationf("Value '%d' at 'ephemeralStorage.size' failed to satisfy constraint: Member must have value greater than or equal to 512", size)
		case size > 10240:
			return validationf("Value '%d' at 'ephemeralStorage.size' failed to satisfy constraint: Member must have value less than or equal to 10240", size)
		}
	}
	if err := checkEnvironment(s.environment); err != nil {
		return err
	}
	if err := checkVPC(s.vpc); err != nil {
		return err
	}
	if err := checkDeadLetter(s.deadLetter, create); err != nil {
		return err
	}
	return checkLayers(s.layers, region)
}

// checkEnvironment validates environment variables: their names, the names the runtime
// reserves, and their total size.
func checkEnvironment(env *types.Environment) error {
	if env == nil {
		return nil
	}
	var reserved []string
	for name := range env.Variables {
		if !variableName.MatchString(name) {
			return validationf("Value at 'environment.variables' failed to satisfy constraint: Map keys must satisfy constraint: [Member must satisfy regular expression pattern: [a-zA-Z]([a-zA-Z0-9_])+]")
		}
		if slices.Contains(reservedVariables, name) {
			reserved = append(reserved, name)
		}
	}
	if len(reserved) > 0 {
		slices.Sort(reserved)
		return invalidParameter("Lambda was unable to configure your environment variables because the environment variables you have provided contains reserved keys that are currently not supported for modification. Reserved keys used in this request: %s", strings.Join(reserved, ","))
	}
	measured, _ := json.Marshal(env.Variables)
	if len(measured) > maxEnvironment {
		return invalidParameter("Lambda was unable to configure your environment variables because the environment variables you have provided exceeded the 4KB limit. String measured: %s", measured)
	}
	return nil
}

// checkVPC validates a VPC configuration against the model's limits: 16 subnets and 5 security
// groups.
func checkVPC(vpc *types.VpcConfig) error {
	if vpc == nil {
		return nil
	}
	if len(vpc.SubnetIds) > 16 {
		return validationf("Value '%v' at 'vpcConfig.subnetIds' failed to satisfy constraint: Member must have length less than or equal to 16", vpc.SubnetIds)
	}
	if len(vpc.SecurityGroupIds) > 5 {
		return validationf("Value '%v' at 'vpcConfig.securityGroupIds' failed to satisfy constraint: Member must have length less than or equal to 5", vpc.SecurityGroupIds)
	}
	return nil
}

// checkDeadLetter validates a dead-letter target, which must be an SQS queue or SNS topic. An
// empty target removes the dead-letter queue on update.
func checkDeadLetter(dlq *types.DeadLetterConfig, create bool) error {
	if dlq == nil || dlq.TargetArn == nil || *dlq.TargetArn == "" && !create {
		return nil
	}
	target := aws.ToString(dlq.TargetArn)
	if !strings.HasPrefix(target, "arn:") {
		return invalidParameter("Invalid dead letter queue ARN: ARNs must start with 'arn:': %s", target)
	}
	if !deadLetterTarget.MatchString(target) {
		return invalidParameter("The dead letter queue target %s is not an Amazon SQS queue or Amazon SNS topic ARN.", target)
	}
	return nil
}

// checkLayers validates layer version ARNs: their form, their number, their region, and that no
// two are versions of one layer. Whether the versions exist is not checked: the emulator has no
// layers.
func checkLayers(layers []string, region string) error {
	if len(layers) > maxLayers {
		return invalidParameter("Cannot reference more than %d layers.", maxLayers)
	}
	seen := map[string]string{}
	for _, arn := range layers {
		m := layerPattern.FindStringSubmatch(arn)
		if m == nil {
			return validationf("Value '[%s]' at 'layers' failed to satisfy constraint: Member must satisfy constraint: [Member must have length less than or equal to 140, Member must have length greater than or equal to 1, Member must satisfy regular expression pattern: (arn:[a-zA-Z0-9-]+:lambda:[a-zA-Z0-9-]+:\\d{12}:layer:[a-zA-Z0-9-_]+:[0-9]+)|(arn:[a-zA-Z0-9-]+:lambda:::awslayer:[a-zA-Z0-9-_]+), Member must not be null]", arn)
		}
		if m[2] != "" && m[2] != region {
			return invalidParameter("Layers are not in the same region as the function. Layers are expected to be in region %s.", region)
		}
		if other, dup := seen[m[1]]; dup && m[1] != "" {
			return invalidParameter("Two different versions of the same layer are not allowed to be referenced in the same function. %s and %s are versions of the same layer.", other, arn)
		}
		seen[m[1]] = arn
	}
	return nil
}

// checkArchitectures validates an Architectures list: exactly one of x86_64 and arm64, or none
// for the default.
func checkArchitectures(architectures []types.Architecture) error {
	if len(architectures) > 1 {
		return validationf("Value '%v' at 'architectures' failed to satisfy constraint: Member must have length less than or equal to 1", architectures)
	}
	for _, a := range architectures {
		if !slices.Contains(a.Values(), a) {
			return validationf("Value '[%s]' at 'architectures' failed to satisfy constraint: Member must satisfy constraint: [Member must satisfy enum value set: [x86_64, arm64], Member must not be null]", a)
		}
	}
	return nil
}

// checkPackageType validates the package type and what goes with it: Zip functions need a
// runtime and a handler, and image functions take none, nor layers.
func checkPackageType(packageType types.PackageType, runtime types.Runtime, handler *string, layers []string) error {
	switch packageType {
	case types.PackageTypeZip:
		if runtime == "" || handler == nil {
			return invalidParameter("Runtime and Handler are mandatory parameters for functions created with deployment packages.")
		}
	case types.PackageTypeImage:
		if runtime != "" || handler != nil || len(layers) > 0 {
			return invalidParameter("Please don't provide Handler or Runtime or Layer when the intended function PackageType is Image.")
		}
	default:
		return validationf("Value '%s' at 'packageType' failed to satisfy constraint: Member must satisfy enum value set: [Zip, Image]", packageType)
	}
	return nil
}

// apply writes the settings into a configuration as Lambda reports them.
func (s *settings) apply(cfg *types.FunctionConfiguration) {
	if s.role != nil {
		cfg.Role = s.role
	}
	if s.handler != nil {
		cfg.Handler = s.handler
	}
	if s.description != nil {
		cfg.Description = s.description
	}
	if s.runtime != "" {
		cfg.Runtime = s.runtime
	}
	if s.memory != nil {
		cfg.MemorySize = s.memory
	}
	if s.timeout != nil {
		cfg.Timeout = s.timeout
	}
	if s.kmsKeyARN != nil {
		cfg.KMSKeyArn = emptyNil(s.kmsKeyARN)
	}
	if s.environment != nil {
		cfg.Environment = nil
		if len(s.environment.Variables) > 0 {
			cfg.Environment = &types.EnvironmentResponse{Variables: s.environment.Variables}
		}
	}
	if s.vpc != nil {
		cfg.VpcConfig = nil
		if len(s.vpc.SubnetIds) > 0 || len(s.vpc.SecurityGroupIds) > 0 {
			cfg.VpcConfig = &types.VpcConfigResponse{SubnetIds: s.vpc.SubnetIds, SecurityGroupIds: s.vpc.SecurityGroupIds,
				VpcId: aws.String(s.vpcID)}
		}
	}
	if s.deadLetter != nil {
		cfg.DeadLetterConfig = nil
		if aws.ToString(s.deadLetter.TargetArn) != "" {
			cfg.DeadLetterConfig = &types.DeadLetterConfig{TargetArn: s.deadLetter.TargetArn}
		}
	}
	if s.tracing != nil && s.tracing.Mode != "" {
		cfg.TracingConfig = &types.TracingConfigResponse{Mode: s.tracing.Mode}
	}
	if s.ephemeral != nil {
		cfg.EphemeralStorage = &types.EphemeralStorage{Size: s.ephemeral.Size}
	}
	if s.layers != nil {
		cfg.Layers = nil
		for _, arn := range s.layers {
			// The emulator has no layers, so it knows no layer's size.
			cfg.Layers = append(cfg.Layers, types.Layer{Arn: aws.String(arn), CodeSize: 0})
		}
	}
	if s.imageConfig != nil {
		cfg.ImageConfigResponse = &types.ImageConfigResponse{ImageConfig: s.imageConfig}
	}
}

// emptyNil returns nil for an empty string, which removes a setting, and s otherwise.
func emptyNil(s *string) *string {
	if aws.ToString(s) == "" {
		return nil
	}
	return s
}
