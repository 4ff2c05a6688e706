package lambdafunction

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// publicURLStatement is the id of the resource policy statement that lets anyone invoke a
// public (AuthType NONE) function URL, the statement the Lambda console adds too.
const publicURLStatement = "FunctionURLAllowPublicAccess"

// planURL plans the function URL the spec asks for: created, changed to its auth type, invoke
// mode and CORS, and, for a public URL, the policy statement that opens it; or removed (with
// the statement) when the spec no longer asks for one. Without a URL in the spec or the status
// it makes no call. The plan shows the URL's settings when it creates or changes them.
func (d *driver) planURL(ctx context.Context, plan *managed.Plan, f *v1alpha1.LambdaFunction, name string) error {
	spec := f.Spec.FunctionURL
	if spec == nil {
		if f.Status.FunctionURL != "" {
			plan.Add("functionURL", func(ctx context.Context) error { return d.removeURL(ctx, f, name) })
		}
		return nil
	}
	want := urlConfig(spec)
	got, err := d.api.GetFunctionUrlConfig(ctx, &lambda.GetFunctionUrlConfigInput{FunctionName: aws.String(name)})
	switch {
	case awserr.IsNotFound(err):
		f.Status.FunctionURL = ""
		plan.AddValue("functionURL", "none", urlShown(want), func(ctx context.Context) error {
			out, err := d.api.CreateFunctionUrlConfig(ctx, &lambda.CreateFunctionUrlConfigInput{FunctionName: aws.String(name),
				AuthType: want.AuthType, InvokeMode: want.InvokeMode, Cors: want.Cors})
			if err != nil {
				return managed.Wrap(err, "create the URL of function %s", name)
			}
			f.Status.FunctionURL = aws.ToString(out.FunctionUrl)
			return d.openURL(ctx, name, want.AuthType)
		})
		return nil
	case err != nil:
		return fmt.Errorf("get the URL of function %s: %w", name, err)
	}
	f.Status.FunctionURL = aws.ToString(got.FunctionUrl)
	if got.AuthType != want.AuthType || got.InvokeMode != want.InvokeMode || !sameCORS(got.Cors, want.Cors) {
		plan.AddValue("functionURL", urlShown(got), urlShown(want), func(ctx context.Context) error {
			_, err := d.api.UpdateFunctionUrlConfig(ctx, &lambda.UpdateFunctionUrlConfigInput{FunctionName: aws.String(name),
				AuthType: want.AuthType, InvokeMode: want.InvokeMode, Cors: want.Cors})
			if err != nil {
				return managed.Wrap(err, "update the URL of function %s", name)
			}
			return d.openURL(ctx, name, want.AuthType)
		})
		return nil
	}
	if want.AuthType != types.FunctionUrlAuthTypeNone {
		return nil
	}
	open, err := d.publicStatement(ctx, name)
	if err != nil || open {
		return err
	}
	plan.Add("functionURL.authType", func(ctx context.Context) error { return d.openURL(ctx, name, want.AuthType) })
	return nil
}

// urlConfig returns the URL settings the spec asks for, with Lambda's defaults.
func urlConfig(spec *v1alpha1.FunctionURL) *lambda.GetFunctionUrlConfigOutput {
	out := &lambda.GetFunctionUrlConfigOutput{AuthType: types.FunctionUrlAuthTypeAwsIam, InvokeMode: types.InvokeModeBuffered}
	if spec.AuthType != "" {
		out.AuthType = types.FunctionUrlAuthType(spec.AuthType)
	}
	if spec.InvokeMode != "" {
		out.InvokeMode = types.InvokeMode(spec.InvokeMode)
	}
	if c := spec.CORS; c != nil {
		out.Cors = &types.Cors{AllowOrigins: c.AllowOrigins, AllowMethods: c.AllowMethods, AllowHeaders: c.AllowHeaders,
			ExposeHeaders: c.ExposeHeaders, AllowCredentials: aws.Bool(c.AllowCredentials), MaxAge: aws.Int32(c.MaxAge)}
	}
	return out
}

// shownURL is how a plan shows a function URL's settings.
type shownURL struct {
	AuthType   types.FunctionUrlAuthType `json:"authType"`
	InvokeMode types.InvokeMode          `json:"invokeMode"`
	CORS       *types.Cors               `json:"cors,omitempty"`
}

// urlShown returns the settings of a function URL as a plan shows them.
func urlShown(c *lambda.GetFunctionUrlConfigOutput) shownURL {
	return shownURL{AuthType: c.AuthType, InvokeMode: c.InvokeMode, CORS: c.Cors}
}

// sameCORS reports whether two CORS configurations allow the same (nil allows nothing).
func sameCORS(a, b *types.Cors) bool {
	if a == nil {
		a = &types.Cors{}
	}
	if b == nil {
		b = &types.Cors{}
	}
	return sameSet(a.AllowOrigins, b.AllowOrigins) && sameSet(a.AllowMethods, b.AllowMethods) && sameSet(a.AllowHeaders, b.AllowHeaders) &&
		sameSet(a.ExposeHeaders, b.ExposeHeaders) && aws.ToBool(a.AllowCredentials) == aws.ToBool(b.AllowCredentials) && aws.ToInt32(a.MaxAge) == aws.ToInt32(b.MaxAge)
}

// openURL adds the statement that lets anyone invoke a public URL, or removes it from a URL
// that needs signed requests.
func (d *driver) openURL(ctx context.Context, name string, auth types.FunctionUrlAuthType) error {
	if auth != types.FunctionUrlAuthTypeNone {
		_, err := d.api.RemovePermission(ctx, &lambda.RemovePermissionInput{FunctionName: aws.String(name), StatementId: aws.String(publicURLStatement)})
		if err != nil && !awserr.IsNotFound(err) {
			return managed.Wrap(err, "remove the public access statement of function %s", name)
		}
		return nil
	}
	_, err := d.api.AddPermission(ctx, &lambda.AddPermissionInput{FunctionName: aws.String(name), StatementId: aws.String(publicURLStatement),
		Action: aws.String("lambda:InvokeFunctionUrl"), Principal: aws.String("*"), FunctionUrlAuthType: types.FunctionUrlAuthTypeNone})
	if err != nil && awserr.Code(err) != "ResourceConflictException" {
		return managed.Wrap(err, "allow public access to the URL of function %s", name)
	}
	return nil
}

// publicStatement reports whether the function's resource policy holds the statement that
// opens a public URL.
func (d *driver) publicStatement(ctx context.Context, name string) (bool, error) {
	out, err := d.api.GetPolicy(ctx, &lambda.GetPolicyInput{FunctionName: aws.String(name)})
	if awserr.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("get the resource policy of function %s: %w", name, err)
	}
	var policy struct {
		Statement []struct{ Sid string }
	}
	if err := json.Unmarshal([]byte(aws.ToString(out.Policy)), &policy); err != nil {
		return false, fmt.Errorf("read the resource policy of function %s: %w", name, err)
	}
	return slices.ContainsFunc(policy.Statement, func(s struct{ Sid string }) bool { return s.Sid == publicURLStatement }), nil
}

// removeURL deletes the function's URL and the statement that opened it.
func (d *driver) removeURL(ctx context.Context, f *v1alpha1.LambdaFunction, name string) error {
	_, err := d.api.DeleteFunctionUrlConfig(ctx, &lambda.DeleteFunctionUrlConfigInput{FunctionName: aws.String(name)})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "delete the URL of function %s", name)
	}
	if err := d.openURL(ctx, name, types.FunctionUrlAuthTypeAwsIam); err != nil {
		return err
	}
	f.Status.FunctionURL = ""
	return nil
}
