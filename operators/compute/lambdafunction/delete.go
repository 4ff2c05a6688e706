package lambdafunction

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the function with its versions, URL, reserved concurrency and policy; one
// already gone is success.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.LambdaFunction, obs managed.Observation[State]) error {
	name := obs.State.Function.Configuration.FunctionName
	_, err := d.api.DeleteFunction(ctx, &lambda.DeleteFunctionInput{FunctionName: name})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "delete function %s", aws.ToString(name))
	}
	return nil
}

// ReleaseOwnership removes the ownership tags from the function, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.LambdaFunction, obs managed.Observation[State]) error {
	arn := obs.State.Function.Configuration.FunctionArn
	_, err := d.api.UntagResource(ctx, &lambda.UntagResourceInput{Resource: arn, TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "remove the ownership tags of function %s", aws.ToString(arn))
}
