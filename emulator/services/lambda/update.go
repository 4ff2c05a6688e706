package lambda

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

func (b *Backend) getFunction(call *core.Call, in *lambda.GetFunctionInput) (*lambda.GetFunctionOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f, err := b.lookup(call, in.FunctionName)
	if err != nil {
		return nil, err
	}
	cfg := f.cfg
	out := &lambda.GetFunctionOutput{Configuration: &cfg, Tags: b.tags.Map(aws.ToString(cfg.FunctionArn))}
	out.Code = &types.FunctionCodeLocation{RepositoryType: aws.String("S3"),
		Location: aws.String("https://awslambda-" + call.Region + "-tasks.s3." + call.Region + ".amazonaws.com/snapshots/" + call.Account + "/" + aws.ToString(cfg.FunctionName))}
	if f.code.ImageUri != nil {
		out.Code = &types.FunctionCodeLocation{RepositoryType: aws.String("ECR"), ImageUri: f.code.ImageUri}
	}
	return out, nil
}

func (b *Backend) getFunctionConfiguration(call *core.Call, in *lambda.GetFunctionConfigurationInput) (*lambda.GetFunctionConfigurationOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f, err := b.lookup(call, in.FunctionName)
	if err != nil {
		return nil, err
	}
	out := &lambda.GetFunctionConfigurationOutput{}
	copyFields(out, f.cfg)
	return out, nil
}

// startUpdate refuses an update while another is in progress, as Lambda does, and marks one
// as started.
func (f *function) startUpdate(call *core.Call) error {
	if f.cfg.LastUpdateStatus == types.LastUpdateStatusInProgress || f.cfg.State == types.StatePending {
		return &core.APIError{Code: "ResourceConflictException", Status: 409,
			Message: "The operation cannot be performed at this time. An update is in progress for resource: " + aws.ToString(f.cfg.FunctionArn)}
	}
	f.cfg.LastUpdateStatus = types.LastUpdateStatusInProgress
	f.cfg.LastUpdateStatusReason = aws.String("The function is being updated.")
	f.cfg.LastUpdateStatusReasonCode = types.LastUpdateStatusReasonCode("Updating")
	f.cfg.LastModified = aws.String(lastModified(call.Now))
	f.until = call.Now.Add(call.Transition)
	return nil
}

func (b *Backend) updateFunctionConfiguration(call *core.Call, in *lambda.UpdateFunctionConfigurationInput) (*lambda.UpdateFunctionConfigurationOutput, error) {
	if err := checkSettings(in.Role, in.Runtime, in.MemorySize, in.Timeout); err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	f, err := b.lookup(call, in.FunctionName)
	if err != nil {
		return nil, err
	}
	if in.RevisionId != nil && aws.ToString(in.RevisionId) != aws.ToString(f.cfg.RevisionId) {
		return nil, core.Errorf("PreconditionFailedException", "The Revision Id provided does not match the latest Revision Id. Call the GetFunction/GetAlias API to retrieve the latest Revision Id")
	}
	if err := f.startUpdate(call); err != nil {
		return nil, err
	}
	if in.Role != nil {
		f.cfg.Role = in.Role
	}
	if in.Handler != nil {
		f.cfg.Handler = in.Handler
	}
	if in.Description != nil {
		f.cfg.Description = in.Description
	}
	if in.Runtime != "" {
		f.cfg.Runtime = in.Runtime
	}
	if in.MemorySize != nil {
		f.cfg.MemorySize = in.MemorySize
	}
	if in.Timeout != nil {
		f.cfg.Timeout = in.Timeout
	}
	f.configure(in.Environment, in.VpcConfig)
	f.cfg.RevisionId = aws.String(b.revision())
	out := &lambda.UpdateFunctionConfigurationOutput{}
	copyFields(out, f.cfg)
	return out, nil
}

func (b *Backend) updateFunctionCode(call *core.Call, in *lambda.UpdateFunctionCodeInput) (*lambda.UpdateFunctionCodeOutput, error) {
	code := &types.FunctionCode{ZipFile: in.ZipFile, S3Bucket: in.S3Bucket, S3Key: in.S3Key, S3ObjectVersion: in.S3ObjectVersion, ImageUri: in.ImageUri}
	sha, size, err := b.checkCode(code)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	f, err := b.lookup(call, in.FunctionName)
	if err != nil {
		return nil, err
	}
	if err := f.startUpdate(call); err != nil {
		return nil, err
	}
	f.code, f.cfg.CodeSha256, f.cfg.CodeSize, f.cfg.RevisionId = *code, aws.String(sha), size, aws.String(b.revision())
	out := &lambda.UpdateFunctionCodeOutput{}
	copyFields(out, f.cfg)
	return out, nil
}

func (b *Backend) deleteFunction(call *core.Call, in *lambda.DeleteFunctionInput) (*lambda.DeleteFunctionOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f, err := b.lookup(call, in.FunctionName)
	if err != nil {
		return nil, err
	}
	delete(b.functions.Of(call), aws.ToString(f.cfg.FunctionName))
	b.tags.Delete(aws.ToString(f.cfg.FunctionArn))
	return &lambda.DeleteFunctionOutput{}, nil
}
