package apigateway

import (
	"context"
	"slices"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/lambdagrant"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// statementID returns the Sid of the statement that lets the API with id apiID invoke a
// function: one per API, so that several APIs may invoke the same function.
func statementID(apiID string) string { return "infra-operator-apigateway-" + apiID }

// invoker writes the statements that let API Gateway invoke functions.
func (d *base) invoker() lambdagrant.Invoker {
	return lambdagrant.Invoker{API: d.lambda, Principal: "apigateway.amazonaws.com", Name: "the API"}
}

// invokedFunctions returns the ARNs of the Lambda functions the routes integrate with, sorted
// and without repeats (references are resolved into lambdaFunctionARN).
func invokedFunctions(o *v1alpha1.APIGateway) []string {
	var arns []string
	for _, r := range o.Spec.Routes {
		if arn := r.Integration.LambdaFunctionARN; arn != "" {
			arns = append(arns, arn)
		}
	}
	slices.Sort(arns)
	return slices.Compact(arns)
}

// grants returns the statements of API apiID in functions fns, from the API's routes
// (executionARN + "/*").
func grants(fns []string, apiID, executionARN string) []lambdagrant.Grant {
	out := make([]lambdagrant.Grant, len(fns))
	for i, fn := range fns {
		out[i] = lambdagrant.Grant{Function: fn, StatementID: statementID(apiID), SourceARN: executionARN + "/*"}
	}
	return out
}

// planInvokeGrants plans what lets the API with id apiID and executionARN invoke the functions
// its routes name (lambdagrant: a statement with Principal apigateway.amazonaws.com and
// SourceArn the API's routes added to each function whose policy lacks it, written only into a
// function an object of the API's namespace made), and the statement removed from the
// functions status.invokeGrants names that no route names any more. status.invokeGrants
// follows what was done.
func (d *base) planInvokeGrants(ctx context.Context, o *v1alpha1.APIGateway, apiID, executionARN string, plan *managed.Plan) error {
	now, err := d.invoker().Plan(ctx, o, grants(invokedFunctions(o), apiID, executionARN), grants(o.Status.InvokeGrants, apiID, executionARN),
		plan, "invokeGrants", func(g lambdagrant.Grant, added bool) {
			if added {
				o.Status.InvokeGrants = addSorted(o.Status.InvokeGrants, g.Function)
				return
			}
			o.Status.InvokeGrants = slices.DeleteFunc(o.Status.InvokeGrants, func(s string) bool { return s == g.Function })
		})
	if err != nil {
		return err
	}
	granted := make([]string, 0, len(now))
	for _, g := range now {
		granted = append(granted, g.Function)
	}
	slices.Sort(granted)
	o.Status.InvokeGrants = granted
	return nil
}

// revokeInvokeGrants removes the API's statement from every function status.invokeGrants
// names, when the API is deleted.
func (d *base) revokeInvokeGrants(ctx context.Context, o *v1alpha1.APIGateway, apiID string) error {
	if err := d.invoker().Revoke(ctx, grants(o.Status.InvokeGrants, apiID, "")); err != nil {
		return err
	}
	o.Status.InvokeGrants = nil
	return nil
}

// addSorted adds s to the sorted list l unless it holds it.
func addSorted(l []string, s string) []string {
	if i, found := slices.BinarySearch(l, s); !found {
		return slices.Insert(l, i, s)
	}
	return l
}
