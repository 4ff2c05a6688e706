package apigateway

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// lambdaAPI is the part of the Lambda API that lets an API invoke functions: the statements of
// their resource policies.
type lambdaAPI interface {
	AddPermission(ctx context.Context, in *lambda.AddPermissionInput, opts ...func(*lambda.Options)) (*lambda.AddPermissionOutput, error)
	RemovePermission(ctx context.Context, in *lambda.RemovePermissionInput, opts ...func(*lambda.Options)) (*lambda.RemovePermissionOutput, error)
	GetPolicy(ctx context.Context, in *lambda.GetPolicyInput, opts ...func(*lambda.Options)) (*lambda.GetPolicyOutput, error)
	ListTags(ctx context.Context, in *lambda.ListTagsInput, opts ...func(*lambda.Options)) (*lambda.ListTagsOutput, error)
}

var _ lambdaAPI = (*lambda.Client)(nil)

// statementID returns the Sid of the statement that lets the API with id apiID invoke a
// function: one per API, so that several APIs may invoke the same function.
func statementID(apiID string) string { return "infra-operator-apigateway-" + apiID }

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

// planInvokeGrants plans what lets the API with id apiID and executionARN invoke the functions
// its routes name: a statement (Principal apigateway.amazonaws.com, lambda:InvokeFunction,
// SourceArn the API's routes) added to each function whose policy lacks it, found with one
// GetPolicy per function, and the statement removed from the functions status.invokeGrants
// names that no route names any more. status.invokeGrants follows what was done. A function
// that lacks the statement is written to only when an object of the API's namespace made it
// (see mayGrant); otherwise the plan fails, before any write, with a terminal error.
func (d *base) planInvokeGrants(ctx context.Context, o *v1alpha1.APIGateway, apiID, executionARN string, plan *managed.Plan) error {
	want := invokedFunctions(o)
	sid := statementID(apiID)
	granted := make([]string, 0, len(want))
	for _, fn := range want {
		has, err := d.hasStatement(ctx, fn, sid)
		if err != nil {
			return err
		}
		if has {
			granted = append(granted, fn)
			continue
		}
		if err := d.mayGrant(ctx, o, fn); err != nil {
			return err
		}
		plan.Add("invokeGrants", func(ctx context.Context) error {
			_, err := d.lambda.AddPermission(ctx, &lambda.AddPermissionInput{FunctionName: aws.String(fn), StatementId: aws.String(sid),
				Action: aws.String("lambda:InvokeFunction"), Principal: aws.String("apigateway.amazonaws.com"), SourceArn: aws.String(executionARN + "/*")})
			if err != nil && awserr.Code(err) != "ResourceConflictException" {
				return managed.Wrap(err, "let the API invoke function %s", fn)
			}
			o.Status.InvokeGrants = addSorted(o.Status.InvokeGrants, fn)
			return nil
		})
	}
	for _, fn := range o.Status.InvokeGrants {
		if slices.Contains(want, fn) {
			continue
		}
		plan.Add("invokeGrants", func(ctx context.Context) error {
			if err := d.revoke(ctx, fn, sid); err != nil {
				return err
			}
			o.Status.InvokeGrants = slices.DeleteFunc(o.Status.InvokeGrants, func(s string) bool { return s == fn })
			return nil
		})
		granted = append(granted, fn)
	}
	slices.Sort(granted)
	o.Status.InvokeGrants = granted
	return nil
}

// revokeInvokeGrants removes the API's statement from every function status.invokeGrants
// names, when the API is deleted.
func (d *base) revokeInvokeGrants(ctx context.Context, o *v1alpha1.APIGateway, apiID string) error {
	for _, fn := range o.Status.InvokeGrants {
		if err := d.revoke(ctx, fn, statementID(apiID)); err != nil {
			return err
		}
	}
	o.Status.InvokeGrants = nil
	return nil
}

// revoke removes statement sid from function fn's policy; a function or statement already gone
// is success.
func (d *base) revoke(ctx context.Context, fn, sid string) error {
	_, err := d.lambda.RemovePermission(ctx, &lambda.RemovePermissionInput{FunctionName: aws.String(fn), StatementId: aws.String(sid)})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "withdraw the API's permission to invoke function %s", fn)
	}
	return nil
}

// mayGrant returns nil when the API o may add its statement to the resource policy of function
// fn: the function's ownership tags (ListTags) name o's namespace, or the administrator lets
// o's namespace write into functions it does not own (managed.CheckForeignWrite). A function
// that does not exist holds no policy to write to: AddPermission says so.
func (d *base) mayGrant(ctx context.Context, o *v1alpha1.APIGateway, fn string) error {
	out, err := d.lambda.ListTags(ctx, &lambda.ListTagsInput{Resource: aws.String(fn)})
	if awserr.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("list the tags of function %s: %w", fn, err)
	}
	return managed.CheckForeignWrite(ctx, o, "Lambda function", fn, out.Tags)
}

// hasStatement reports whether function fn's resource policy holds statement sid; a function
// without a policy holds none.
func (d *base) hasStatement(ctx context.Context, fn, sid string) (bool, error) {
	out, err := d.lambda.GetPolicy(ctx, &lambda.GetPolicyInput{FunctionName: aws.String(fn)})
	if awserr.IsNotFound(err) {
		// No policy, or no function: AddPermission says which.
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("get the resource policy of function %s: %w", fn, err)
	}
	var doc struct{ Statement []struct{ Sid string } }
	if err := json.Unmarshal([]byte(aws.ToString(out.Policy)), &doc); err != nil {
		return false, fmt.Errorf("read the resource policy of function %s: %w", fn, err)
	}
	return slices.ContainsFunc(doc.Statement, func(s struct{ Sid string }) bool { return s.Sid == sid }), nil
}

// addSorted adds s to the sorted list l unless it holds it.
func addSorted(l []string, s string) []string {
	if i, found := slices.BinarySearch(l, s); !found {
		return slices.Insert(l, i, s)
	}
	return l
}
