package lambdafunction

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
)

// settings are a function's configuration as the spec gives it, in the SDK's types, with
// Lambda's defaults for what the spec leaves unset.
type settings struct {
	Role             *string
	Runtime          types.Runtime
	Handler          *string
	MemorySize       *int32
	Timeout          *int32
	Description      *string
	EphemeralStorage *types.EphemeralStorage
	Layers           []string
	Environment      *types.Environment
	VpcConfig        *types.VpcConfig
	DeadLetterConfig *types.DeadLetterConfig
}

// settings returns the spec's configuration, with the environment values of the Secrets it
// names.
func (d *driver) settings(ctx context.Context, f *v1alpha1.LambdaFunction) (settings, error) {
	s := f.Spec
	env, err := d.environment(ctx, f)
	if err != nil {
		return settings{}, err
	}
	out := settings{Role: aws.String(s.RoleARN), Runtime: types.Runtime(s.Runtime), MemorySize: aws.Int32(orDefault(s.MemorySize, defaultMemory)),
		Timeout: aws.Int32(orDefault(s.Timeout, defaultTimeout)), Description: aws.String(s.Description), Layers: s.Layers,
		EphemeralStorage: &types.EphemeralStorage{Size: aws.Int32(orDefault(s.EphemeralStorage, defaultStorage))},
		Environment:      &types.Environment{Variables: env}, VpcConfig: &types.VpcConfig{SubnetIds: []string{}, SecurityGroupIds: []string{}},
		DeadLetterConfig: &types.DeadLetterConfig{TargetArn: aws.String("")}}
	if s.Handler != "" {
		out.Handler = aws.String(s.Handler)
	}
	if v := s.VPCConfig; v != nil {
		out.VpcConfig = &types.VpcConfig{SubnetIds: v.SubnetIDs, SecurityGroupIds: v.SecurityGroupIDs}
	}
	if dl := s.DeadLetterConfig; dl != nil {
		out.DeadLetterConfig.TargetArn = aws.String(dl.TargetARN)
	}
	return out, nil
}

// orDefault returns v, or def when v is unset (zero).
func orDefault(v, def int32) int32 {
	if v == 0 {
		return def
	}
	return v
}
