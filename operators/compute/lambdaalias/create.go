package lambdaalias

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the alias and records its name. A ResourceConflictException means the alias
// exists: made by an earlier attempt whose answer was lost, which Observe claims, or by
// someone else, which Observe refuses.
func (d *driver) Create(ctx context.Context, a *v1alpha1.LambdaAlias, _ managed.Request) error {
	in := &lambda.CreateAliasInput{FunctionName: aws.String(a.Spec.FunctionName), Name: aws.String(a.Spec.Name),
		FunctionVersion: aws.String(a.Spec.FunctionVersion), Description: aws.String(a.Spec.Description)}
	if w := weights(a); len(w) > 0 {
		in.RoutingConfig = &types.AliasRoutingConfiguration{AdditionalVersionWeights: w}
	}
	out, err := d.api.CreateAlias(ctx, in)
	if awserr.Code(err) == "ResourceConflictException" {
		return nil
	}
	if err != nil {
		return managed.Wrap(err, "create alias %s of function %s", a.Spec.Name, a.Spec.FunctionName)
	}
	managed.SetExternalName(a, a.Spec.Name)
	a.Status.AliasARN = aws.ToString(out.AliasArn)
	return nil
}
