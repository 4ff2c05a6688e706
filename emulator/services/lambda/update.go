package lambda

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// withTarget runs f, holding the backend's lock, on the function or version a request's
// FunctionName and Qualifier name (parseTarget), and returns f's answer or parseTarget's error.
func withTarget[O any](b *Backend, call *core.Call, name, qualifier *string, f func(t target) (*O, error)) (*O, error) {
	return core.Holding(b.state, func() (target, error) { return parseTarget(call, name, qualifier) }, f)
}

// view returns the configuration and deployment package a qualified request reads: the
// function's ($LATEST under the unqualified ARN) without a qualifier, $LATEST under its
// qualified ARN, or a published version. Aliases are not emulated and are not found. The
// caller holds the backend's lock.
func (b *Backend) view(call *core.Call, t target) (types.FunctionConfiguration, types.FunctionCode, error) {
	f, err := b.find(call, t)
	if err != nil {
		return types.FunctionConfiguration{}, types.FunctionCode{}, err
	}
	switch t.qualifier {
	case "":
		return f.cfg, f.code, nil
	case "$LATEST":
		cfg := f.cfg
		cfg.FunctionArn = aws.String(t.arn(call))
		return cfg, f.code, nil
	}
	if v, ok := f.versions[t.qualifier]; ok {
		return v.cfg, v.code, nil
	}
	return types.FunctionConfiguration{}, types.FunctionCode{}, functionNotFound(call, t)
}

// getFunction answers a function's or a version's configuration, where its package is, the
// function's tags and its reserved concurrency.
func (b *Backend) getFunction(call *core.Call, in *lambda.GetFunctionInput) (*lambda.GetFunctionOutput, error) {
	return withTarget(b, call, in.FunctionName, in.Qualifier, func(t target) (*lambda.GetFunctionOutput, error) {
		cfg, code, err := b.view(call, t)
		if err != nil {
			return nil, err
		}
		f := b.state.Of(call)[t.name]
		out := &lambda.GetFunctionOutput{Configuration: &cfg, Code: location(call, cfg, code),
			Tags: b.tags.Map(aws.ToString(f.cfg.FunctionArn))}
		if f.concurrency != nil {
			out.Concurrency = &types.Concurrency{ReservedConcurrentExecutions: f.concurrency}
		}
		return out, nil
	})
}

// getFunctionConfiguration answers a function's or a version's configuration.
func (b *Backend) getFunctionConfiguration(call *core.Call, in *lambda.GetFunctionConfigurationInput) (*lambda.GetFunctionConfigurationOutput, error) {
	return withTarget(b, call, in.FunctionName, in.Qualifier, func(t target) (*lambda.GetFunctionConfigurationOutput, error) {
		cfg, _, err := b.view(call, t)
		if err != nil {
			return nil, err
		}
		out := &lambda.GetFunctionConfigurationOutput{}
		copyFields(out, cfg)
		return out, nil
	})
}

// startUpdate refuses an update while the function is being created or another update is in
// progress, as Lambda does, and marks one as started.
func (f *function) startUpdate(call *core.Call) error {
	if err := f.checkIdle(); err != nil {
		return err
	}
	f.cfg.LastUpdateStatus = types.LastUpdateStatusInProgress
	f.cfg.LastUpdateStatusReason = aws.String("The function is being updated.")
	f.cfg.LastUpdateStatusReasonCode = types.LastUpdateStatusReasonCode("Updating")
	f.cfg.LastModified = aws.String(lastModified(call.Now))
	f.until = call.Now.Add(call.Transition)
	return nil
}

// checkIdle answers ResourceConflictException while the function is being created or updated,
// when Lambda refuses to change it or publish it.
func (f *function) checkIdle() error {
	if f.cfg.LastUpdateStatus == types.LastUpdateStatusInProgress || f.cfg.State == types.StatePending {
		return conflict("The operation cannot be performed at this time. An update is in progress for resource: %s", aws.ToString(f.cfg.FunctionArn))
	}
	return nil
}

// updateFunctionConfiguration changes the settings of $LATEST.
func (b *Backend) updateFunctionConfiguration(call *core.Call, in *lambda.UpdateFunctionConfigurationInput) (*lambda.UpdateFunctionConfigurationOutput, error) {
	s := settings{role: in.Role, handler: in.Handler, description: in.Description, kmsKeyARN: in.KMSKeyArn, runtime: in.Runtime,
		memory: in.MemorySize, timeout: in.Timeout, environment: in.Environment, vpc: in.VpcConfig, deadLetter: in.DeadLetterConfig,
		tracing: in.TracingConfig, ephemeral: in.EphemeralStorage, layers: in.Layers, imageConfig: in.ImageConfig}
	if err := s.check(false, call.Region); err != nil {
		return nil, err
	}
	return withUnqualified(b, call, in.FunctionName, func(f *function) (*lambda.UpdateFunctionConfigurationOutput, error) {
		if err := checkRevision(in.RevisionId, f.cfg.RevisionId); err != nil {
			return nil, err
		}
		if f.cfg.PackageType == types.PackageTypeImage && (in.Runtime != "" || in.Handler != nil || len(in.Layers) > 0) {
			return nil, invalidParameter("Please don't provide Handler or Runtime or Layer when the intended function PackageType is Image.")
		}
		// Looking the subnets and groups up under the lock is safe: EC2 never calls into Lambda.
		var err error
		if s.vpcID, err = b.resolveVPC(call.Scope(), in.VpcConfig); err != nil {
			return nil, err
		}
		if err := f.startUpdate(call); err != nil {
			return nil, err
		}
		s.apply(&f.cfg)
		f.revision++
		f.cfg.RevisionId = aws.String(b.revision())
		out := &lambda.UpdateFunctionConfigurationOutput{}
		copyFields(out, f.cfg)
		return out, nil
	})
}

// deleteFunction deletes a function with everything it has (versions, URL, reserved
// concurrency, policies, tags) or, with a qualifier, one published version and its policy.
// $LATEST goes only with the function.
func (b *Backend) deleteFunction(call *core.Call, in *lambda.DeleteFunctionInput) (*lambda.DeleteFunctionOutput, error) {
	t, err := parseTarget(call, in.FunctionName, in.Qualifier)
	if err != nil {
		return nil, err
	}
	if t.qualifier == "$LATEST" {
		return nil, invalidParameter("$LATEST version cannot be deleted without deleting the function.")
	}
	b.state.Lock()
	defer b.state.Unlock()
	f, err := b.find(call, t)
	if err != nil {
		return nil, err
	}
	if t.qualifier != "" {
		if _, ok := f.versions[t.qualifier]; !ok {
			return nil, functionNotFound(call, t)
		}
		delete(f.versions, t.qualifier)
		delete(f.policies, t.qualifier)
		return &lambda.DeleteFunctionOutput{}, nil
	}
	delete(b.state.Of(call), t.name)
	b.tags.Delete(aws.ToString(f.cfg.FunctionArn))
	return &lambda.DeleteFunctionOutput{}, nil
}
