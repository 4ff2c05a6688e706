// Package lambdagrant lets an AWS service invoke Lambda functions: it plans the statements an
// object needs in its functions' resource policies (Principal the service, lambda:InvokeFunction,
// SourceArn the object's resource), adds them only to functions the object's namespace may
// write into, and removes those it no longer needs. An API Gateway API and a load balancer's
// Lambda target groups use it.
package lambdagrant

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// API is the part of the Lambda API that reads and writes the statements of functions'
// resource policies.
type API interface {
	AddPermission(ctx context.Context, in *lambda.AddPermissionInput, opts ...func(*lambda.Options)) (*lambda.AddPermissionOutput, error)
	RemovePermission(ctx context.Context, in *lambda.RemovePermissionInput, opts ...func(*lambda.Options)) (*lambda.RemovePermissionOutput, error)
	GetPolicy(ctx context.Context, in *lambda.GetPolicyInput, opts ...func(*lambda.Options)) (*lambda.GetPolicyOutput, error)
	ListTags(ctx context.Context, in *lambda.ListTagsInput, opts ...func(*lambda.Options)) (*lambda.ListTagsOutput, error)
}

var _ API = (*lambda.Client)(nil)

// Grant is one statement of a function's resource policy: the invoker may call
// lambda:InvokeFunction on Function from SourceARN. StatementID (the statement's Sid) names it;
// SourceARN is needed only to add it.
type Grant struct {
	Function    string
	StatementID string
	SourceARN   string
}

// same reports whether a and b are the same statement of the same function.
func same(a, b Grant) bool { return a.Function == b.Function && a.StatementID == b.StatementID }

// Invoker writes the statements of one invoking service.
type Invoker struct {
	// API reaches Lambda.
	API API
	// Principal is the service that invokes the functions, for example
	// apigateway.amazonaws.com.
	Principal string
	// Name names the invoker in errors, for example "the API".
	Name string
}

// Plan plans, into plan under field, the statements of want that their function's policy
// lacks (found with one GetPolicy per function) and the removal of the statements of had that
// want no longer holds. A statement is added only to a function that an object of o's
// namespace made (its ownership tags, read with ListTags) or that the administrator lets the
// namespace write into (managed.CheckForeignWrite); otherwise Plan returns that terminal error
// before anything is written. Plan returns the grants in force now: those of want already in
// place and those of had still to be removed. As the plan runs, changed is called with each
// grant added (true) or removed (false), so that the caller's record follows what was done.
func (inv Invoker) Plan(ctx context.Context, o shared.Managed, want, had []Grant, plan *managed.Plan, field string,
	changed func(g Grant, added bool)) ([]Grant, error) {
	var now []Grant
	for _, g := range want {
		has, err := inv.hasStatement(ctx, g.Function, g.StatementID)
		if err != nil {
			return nil, err
		}
		if has {
			now = append(now, g)
			continue
		}
		if err := inv.mayGrant(ctx, o, g.Function); err != nil {
			return nil, err
		}
		plan.Add(field, func(ctx context.Context) error {
			_, err := inv.API.AddPermission(ctx, &lambda.AddPermissionInput{FunctionName: aws.String(g.Function), StatementId: aws.String(g.StatementID),
				Action: aws.String("lambda:InvokeFunction"), Principal: aws.String(inv.Principal), SourceArn: aws.String(g.SourceARN)})
			if err != nil && awserr.Code(err) != "ResourceConflictException" {
				return managed.Wrap(err, "let %s invoke function %s", inv.Name, g.Function)
			}
			changed(g, true)
			return nil
		})
	}
	for _, g := range had {
		if slices.ContainsFunc(want, func(w Grant) bool { return same(w, g) }) {
			continue
		}
		plan.Add(field, func(ctx context.Context) error {
			if err := inv.revoke(ctx, g); err != nil {
				return err
			}
			changed(g, false)
			return nil
		})
		now = append(now, g)
	}
	return now, nil
}

// Revoke removes the statements of grants, when the invoker is deleted; a function or a
// statement already gone is success.
func (inv Invoker) Revoke(ctx context.Context, grants []Grant) error {
	for _, g := range grants {
		if err := inv.revoke(ctx, g); err != nil {
			return err
		}
	}
	return nil
}

// revoke removes one statement; a function or statement already gone is success.
func (inv Invoker) revoke(ctx context.Context, g Grant) error {
	_, err := inv.API.RemovePermission(ctx, &lambda.RemovePermissionInput{FunctionName: aws.String(g.Function), StatementId: aws.String(g.StatementID)})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "withdraw the permission of %s to invoke function %s", inv.Name, g.Function)
	}
	return nil
}

// mayGrant returns nil when o may add a statement to the resource policy of function fn: the
// function's ownership tags name o's namespace, or the administrator lets o's namespace write
// into functions it does not own (managed.CheckForeignWrite). A function that does not exist
// holds no policy to write to: AddPermission says so.
func (inv Invoker) mayGrant(ctx context.Context, o shared.Managed, fn string) error {
	out, err := inv.API.ListTags(ctx, &lambda.ListTagsInput{Resource: aws.String(fn)})
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
func (inv Invoker) hasStatement(ctx context.Context, fn, sid string) (bool, error) {
	out, err := inv.API.GetPolicy(ctx, &lambda.GetPolicyInput{FunctionName: aws.String(fn)})
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
