package emulator_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/google/go-cmp/cmp"
)

// functionURL is the form of a function URL: https://<url-id>.lambda-url.<region>.on.aws/.
var functionURL = regexp.MustCompile(`^https://[a-z0-9]{32}\.lambda-url\.us-east-1\.on\.aws/$`)

// TestLambdaFunctionURL gives a function a URL, changes its settings, and deletes it, with the
// errors Lambda documents on the way.
func TestLambdaFunctionURL(t *testing.T) {
	_, c, _ := lambdaEmulator(t)
	ctx := context.Background()
	name := aws.String("public-api")
	if _, err := c.CreateFunction(ctx, zipFunction(t, "public-api")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetFunctionUrlConfig(ctx, &lambda.GetFunctionUrlConfigInput{FunctionName: name}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("a function without a URL gave %v, want ResourceNotFoundException", err)
	}
	cors := &types.Cors{AllowOrigins: []string{"https://example.com"}, AllowMethods: []string{"GET", "POST"}, MaxAge: aws.Int32(300)}
	created, err := c.CreateFunctionUrlConfig(ctx, &lambda.CreateFunctionUrlConfigInput{FunctionName: name, AuthType: types.FunctionUrlAuthTypeNone, Cors: cors})
	if err != nil {
		t.Fatal(err)
	}
	if !functionURL.MatchString(aws.ToString(created.FunctionUrl)) || created.InvokeMode != types.InvokeModeBuffered ||
		!strings.HasSuffix(aws.ToString(created.FunctionArn), ":function:public-api") || aws.ToInt32(created.Cors.MaxAge) != 300 {
		t.Errorf("CreateFunctionUrlConfig = %+v", created)
	}
	if _, err := c.CreateFunctionUrlConfig(ctx, &lambda.CreateFunctionUrlConfigInput{FunctionName: name, AuthType: types.FunctionUrlAuthTypeNone}); errorCode(err) != "ResourceConflictException" {
		t.Errorf("a second URL gave %v, want ResourceConflictException", err)
	}
	updated, err := c.UpdateFunctionUrlConfig(ctx, &lambda.UpdateFunctionUrlConfigInput{FunctionName: name, AuthType: types.FunctionUrlAuthTypeAwsIam,
		InvokeMode: types.InvokeModeResponseStream, Cors: &types.Cors{}})
	if err != nil || aws.ToString(updated.FunctionUrl) != aws.ToString(created.FunctionUrl) || updated.AuthType != types.FunctionUrlAuthTypeAwsIam ||
		updated.InvokeMode != types.InvokeModeResponseStream || updated.Cors != nil {
		t.Errorf("UpdateFunctionUrlConfig = %+v, %v; want the same URL, AWS_IAM, RESPONSE_STREAM and no CORS", updated, err)
	}
	got, err := c.GetFunctionUrlConfig(ctx, &lambda.GetFunctionUrlConfigInput{FunctionName: name})
	if err != nil || got.AuthType != types.FunctionUrlAuthTypeAwsIam || got.LastModifiedTime == nil {
		t.Errorf("GetFunctionUrlConfig = %+v, %v", got, err)
	}
	list, err := c.ListFunctionUrlConfigs(ctx, &lambda.ListFunctionUrlConfigsInput{FunctionName: name})
	if err != nil || len(list.FunctionUrlConfigs) != 1 || aws.ToString(list.FunctionUrlConfigs[0].FunctionUrl) != aws.ToString(created.FunctionUrl) {
		t.Errorf("ListFunctionUrlConfigs = %+v, %v", list, err)
	}
	refused := map[string]struct {
		call func() error
		want string
	}{
		"VersionQualifier": {func() error {
			_, err := c.GetFunctionUrlConfig(ctx, &lambda.GetFunctionUrlConfigInput{FunctionName: name, Qualifier: aws.String("1")})
			return err
		}, "ValidationException"},
		"UnknownAlias": {func() error {
			_, err := c.GetFunctionUrlConfig(ctx, &lambda.GetFunctionUrlConfigInput{FunctionName: name, Qualifier: aws.String("live")})
			return err
		}, "ResourceNotFoundException"},
		"AuthType": {func() error {
			_, err := c.CreateFunctionUrlConfig(ctx, &lambda.CreateFunctionUrlConfigInput{FunctionName: name, AuthType: "PASSWORD"})
			return err
		}, "ValidationException"},
		"MaxAge": {func() error {
			_, err := c.UpdateFunctionUrlConfig(ctx, &lambda.UpdateFunctionUrlConfigInput{FunctionName: name, Cors: &types.Cors{MaxAge: aws.Int32(90000)}})
			return err
		}, "ValidationException"},
		"NoFunction": {func() error {
			_, err := c.CreateFunctionUrlConfig(ctx, &lambda.CreateFunctionUrlConfigInput{FunctionName: aws.String("missing"), AuthType: types.FunctionUrlAuthTypeNone})
			return err
		}, "ResourceNotFoundException"},
	}
	for name, tc := range refused {
		t.Run(name, func(t *testing.T) {
			if err := tc.call(); errorCode(err) != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
	if _, err := c.DeleteFunctionUrlConfig(ctx, &lambda.DeleteFunctionUrlConfigInput{FunctionName: name}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteFunctionUrlConfig(ctx, &lambda.DeleteFunctionUrlConfigInput{FunctionName: name}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("deleting a URL twice gave %v, want ResourceNotFoundException", err)
	}
	list, err = c.ListFunctionUrlConfigs(ctx, &lambda.ListFunctionUrlConfigsInput{FunctionName: name})
	if err != nil || len(list.FunctionUrlConfigs) != 0 {
		t.Errorf("ListFunctionUrlConfigs after deletion = %+v, %v", list, err)
	}
}

// TestLambdaPermissions builds the resource-based policy a public function URL needs and one of
// a version, reads them back, and removes their statements.
func TestLambdaPermissions(t *testing.T) {
	e, c, _ := lambdaEmulator(t)
	ctx := context.Background()
	name := aws.String("public-api")
	if _, err := c.CreateFunction(ctx, zipFunction(t, "public-api")); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Second)
	if _, err := c.GetPolicy(ctx, &lambda.GetPolicyInput{FunctionName: name}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("a function without a policy gave %v, want ResourceNotFoundException", err)
	}
	before, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: name})
	if err != nil {
		t.Fatal(err)
	}
	public := &lambda.AddPermissionInput{FunctionName: name, StatementId: aws.String("FunctionURLAllowPublicAccess"), Action: aws.String("lambda:InvokeFunctionUrl"),
		Principal: aws.String("*"), FunctionUrlAuthType: types.FunctionUrlAuthTypeNone, RevisionId: before.Configuration.RevisionId}
	added, err := c.AddPermission(ctx, public)
	if err != nil {
		t.Fatal(err)
	}
	var statement map[string]any
	if err := json.Unmarshal([]byte(aws.ToString(added.Statement)), &statement); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"Sid": "FunctionURLAllowPublicAccess", "Effect": "Allow", "Principal": "*", "Action": "lambda:InvokeFunctionUrl",
		"Resource": aws.ToString(before.Configuration.FunctionArn), "Condition": map[string]any{"StringEquals": map[string]any{"lambda:FunctionUrlAuthType": "NONE"}}}
	if diff := cmp.Diff(want, statement); diff != "" {
		t.Errorf("AddPermission's statement (-want +got):\n%s", diff)
	}
	public.RevisionId = nil
	if _, err := c.AddPermission(ctx, public); errorCode(err) != "ResourceConflictException" {
		t.Errorf("a statement id used twice gave %v, want ResourceConflictException", err)
	}
	public.StatementId, public.RevisionId = aws.String("other"), before.Configuration.RevisionId
	if _, err := c.AddPermission(ctx, public); errorCode(err) != "PreconditionFailedException" {
		t.Errorf("a stale RevisionId gave %v, want PreconditionFailedException", err)
	}
	public.RevisionId, public.Qualifier = nil, aws.String("$LATEST")
	if _, err := c.AddPermission(ctx, public); errorCode(err) != "InvalidParameterValueException" {
		t.Errorf("a policy for $LATEST gave %v, want InvalidParameterValueException", err)
	}
	if _, err := c.AddPermission(ctx, &lambda.AddPermissionInput{FunctionName: name, StatementId: aws.String("s3"), Action: aws.String("lambda:InvokeFunction"),
		Principal: aws.String("s3.amazonaws.com"), SourceArn: aws.String("arn:aws:s3:::uploads"), SourceAccount: aws.String("123456789012")}); err != nil {
		t.Fatal(err)
	}
	got, err := c.GetPolicy(ctx, &lambda.GetPolicyInput{FunctionName: name})
	if err != nil {
		t.Fatal(err)
	}
	var document struct {
		Version   string
		Statement []map[string]any
	}
	if err := json.Unmarshal([]byte(aws.ToString(got.Policy)), &document); err != nil {
		t.Fatal(err)
	}
	if document.Version != "2012-10-17" || len(document.Statement) != 2 ||
		!cmp.Equal(document.Statement[1]["Principal"], map[string]any{"Service": "s3.amazonaws.com"}) ||
		!cmp.Equal(document.Statement[1]["Condition"], map[string]any{"ArnLike": map[string]any{"AWS:SourceArn": "arn:aws:s3:::uploads"},
			"StringEquals": map[string]any{"AWS:SourceAccount": "123456789012"}}) {
		t.Errorf("GetPolicy = %s", aws.ToString(got.Policy))
	}
	now, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: name})
	if err != nil || aws.ToString(got.RevisionId) != aws.ToString(now.Configuration.RevisionId) ||
		aws.ToString(now.Configuration.RevisionId) == aws.ToString(before.Configuration.RevisionId) {
		t.Errorf("GetPolicy's RevisionId %s, the function's %s (%s before the permissions)", aws.ToString(got.RevisionId), aws.ToString(now.Configuration.RevisionId),
			aws.ToString(before.Configuration.RevisionId))
	}

	if _, err := c.PublishVersion(ctx, &lambda.PublishVersionInput{FunctionName: name}); err != nil {
		t.Fatal(err)
	}
	versioned, err := c.AddPermission(ctx, &lambda.AddPermissionInput{FunctionName: name, Qualifier: aws.String("1"), StatementId: aws.String("s3"),
		Action: aws.String("lambda:InvokeFunction"), Principal: aws.String("123456789012")})
	if err != nil || !strings.Contains(aws.ToString(versioned.Statement), `"Resource":"`+aws.ToString(now.Configuration.FunctionArn)+`:1"`) ||
		!strings.Contains(aws.ToString(versioned.Statement), `"AWS":"arn:aws:iam::123456789012:root"`) {
		t.Errorf("AddPermission to version 1 = %+v, %v", versioned, err)
	}
	if _, err := c.GetPolicy(ctx, &lambda.GetPolicyInput{FunctionName: name, Qualifier: aws.String("1")}); err != nil {
		t.Errorf("GetPolicy of version 1 gave %v", err)
	}

	if _, err := c.RemovePermission(ctx, &lambda.RemovePermissionInput{FunctionName: name, StatementId: aws.String("nope")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("removing a statement that does not exist gave %v, want ResourceNotFoundException", err)
	}
	for _, sid := range []string{"FunctionURLAllowPublicAccess", "s3"} {
		if _, err := c.RemovePermission(ctx, &lambda.RemovePermissionInput{FunctionName: name, StatementId: aws.String(sid)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.GetPolicy(ctx, &lambda.GetPolicyInput{FunctionName: name}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("a policy without statements gave %v, want ResourceNotFoundException", err)
	}
	if _, err := c.RemovePermission(ctx, &lambda.RemovePermissionInput{FunctionName: name, StatementId: aws.String("s3")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("removing from no policy gave %v, want ResourceNotFoundException", err)
	}
	if _, err := c.AddPermission(ctx, &lambda.AddPermissionInput{FunctionName: name, StatementId: aws.String("bad id!"), Action: aws.String("lambda:InvokeFunction"),
		Principal: aws.String("*")}); errorCode(err) != "ValidationException" {
		t.Errorf("a malformed statement id gave %v, want ValidationException", err)
	}
}
