package lambda

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// getFunctionCodeSigningConfig returns the code signing configuration of a function. Code
// signing configurations are not emulated, so no function has one: the ARN is empty, as AWS
// answers for a function without one.
func (b *Backend) getFunctionCodeSigningConfig(call *core.Call, in *lambda.GetFunctionCodeSigningConfigInput) (*lambda.GetFunctionCodeSigningConfigOutput, error) {
	return withUnqualified(b, call, in.FunctionName, func(f *function) (*lambda.GetFunctionCodeSigningConfigOutput, error) {
		return &lambda.GetFunctionCodeSigningConfigOutput{FunctionName: f.cfg.FunctionName, CodeSigningConfigArn: aws.String("")}, nil
	})
}
