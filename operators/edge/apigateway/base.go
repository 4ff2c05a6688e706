package apigateway

import (
	"context"
	"fmt"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/lambdagrant"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// base is what the drivers of both protocols hold: Lambda, to let the API invoke the functions
// its routes name (invoke.go), and the provider's region and account, which the APIs' ARNs
// name.
type base struct {
	lambda  lambdagrant.API
	region  string
	account func(ctx context.Context) (string, error)
}

// executionARN returns the execution ARN of the API with id apiID, which names the account.
func (d *base) executionARN(ctx context.Context, apiID string) (string, error) {
	account, err := d.account(ctx)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("arn:%s:execute-api:%s:%s:%s", provider.Partition(d.region), d.region, account, apiID), nil
}

// lambdaURI returns the URI through which API Gateway invokes the Lambda function fn.
func (d *base) lambdaURI(fn string) string {
	return fmt.Sprintf("arn:%s:apigateway:%s:lambda:path/2015-03-31/functions/%s/invocations", provider.Partition(d.region), d.region, fn)
}

// apiName returns the API's name in API Gateway: spec.name, else the object's name.
func apiName(o *v1alpha1.APIGateway) string {
	if o.Spec.Name != "" {
		return o.Spec.Name
	}
	return o.Name
}

// notFoundIsGone wraps err with context, and makes a NotFound answer success: the resource a
// delete call names is already gone.
func notFoundIsGone(err error, format string, args ...any) error {
	if awserr.IsNotFound(err) {
		return nil
	}
	return managed.Wrap(err, format, args...)
}
