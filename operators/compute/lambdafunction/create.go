package lambdafunction

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the function with its code, configuration and tags (the ownership tags
// included, so a function whose name was recorded too late is still recognised), publishing
// version 1 with spec.publish, and records its name. Reserved concurrency and the URL follow
// once the function is Active.
func (d *driver) Create(ctx context.Context, f *v1alpha1.LambdaFunction, req managed.Request) error {
	c, err := d.code(ctx, f)
	if err != nil {
		return err
	}
	s, err := d.settings(ctx, f)
	if err != nil {
		return err
	}
	in := &lambda.CreateFunctionInput{FunctionName: aws.String(f.Spec.FunctionName), Role: s.Role, Code: c.function,
		Architectures: architectures(f), MemorySize: s.MemorySize, Timeout: s.Timeout, Description: s.Description,
		EphemeralStorage: s.EphemeralStorage, Environment: s.Environment, Tags: req.Tags, Publish: f.Spec.Publish, Layers: s.Layers}
	if c.image() {
		in.PackageType = types.PackageTypeImage
	} else {
		in.PackageType, in.Runtime, in.Handler = types.PackageTypeZip, s.Runtime, s.Handler
	}
	if len(s.VpcConfig.SubnetIds) > 0 {
		in.VpcConfig = s.VpcConfig
	}
	if aws.ToString(s.DeadLetterConfig.TargetArn) != "" {
		in.DeadLetterConfig = s.DeadLetterConfig
	}
	out, err := d.api.CreateFunction(ctx, in)
	if awserr.Code(err) == "ResourceConflictException" {
		// Made by an earlier attempt whose answer was lost: Observe claims it by its tags.
		return nil
	}
	if err != nil {
		return fmt.Errorf("create function %s: %w", f.Spec.FunctionName, err)
	}
	managed.SetExternalName(f, f.Spec.FunctionName)
	f.Status.CodeSource = c.source
	if f.Spec.Publish {
		f.Status.Version, f.Status.PublishedFrom = aws.ToString(out.Version), aws.ToString(out.LastModified)
	}
	return nil
}
