package lambdaalias

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the alias; one already gone is success.
func (d *driver) Delete(ctx context.Context, a *v1alpha1.LambdaAlias, obs managed.Observation[State]) error {
	_, err := d.api.DeleteAlias(ctx, &lambda.DeleteAliasInput{FunctionName: aws.String(function(a)), Name: obs.State.Alias.Name})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "delete alias %s", aws.ToString(obs.State.Alias.AliasArn))
	}
	return nil
}

// ReleaseOwnership does nothing: aliases carry no tags, so no ownership tags to remove.
func (d *driver) ReleaseOwnership(context.Context, *v1alpha1.LambdaAlias, managed.Observation[State]) error {
	return nil
}
