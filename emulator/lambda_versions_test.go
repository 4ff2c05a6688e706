package emulator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/google/go-cmp/cmp"
)

// versionsOf lists the versions ListVersionsByFunction answers for a function, page by page of
// size, with the ARN suffix of each.
func versionsOf(t *testing.T, c *lambda.Client, name string, size int32) []string {
	t.Helper()
	var got []string
	var marker *string
	for {
		out, err := c.ListVersionsByFunction(context.Background(), &lambda.ListVersionsByFunctionInput{FunctionName: aws.String(name), Marker: marker, MaxItems: aws.Int32(size)})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Versions) > int(size) {
			t.Errorf("a page of %d holds %d versions", size, len(out.Versions))
		}
		for _, v := range out.Versions {
			arn := aws.ToString(v.FunctionArn)
			got = append(got, aws.ToString(v.Version)+"@"+arn[strings.LastIndex(arn, ":")+1:])
		}
		if marker = out.NextMarker; marker == nil {
			return got
		}
	}
}

// TestLambdaVersions publishes versions on creation, on their own and with new code, checks
// that publishing without a change answers the last version, reads versions by qualifier,
// deletes one, and deletes the function with everything it has.
func TestLambdaVersions(t *testing.T) {
	e, c, _ := lambdaEmulator(t)
	ctx := context.Background()
	name := aws.String("versioned")
	in := zipFunction(t, "versioned")
	in.Publish = true
	created, err := c.CreateFunction(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(created.Version) != "1" {
		t.Errorf("CreateFunction with Publish answered version %s, want 1", aws.ToString(created.Version))
	}
	v1, err := c.GetFunctionConfiguration(ctx, &lambda.GetFunctionConfigurationInput{FunctionName: name, Qualifier: aws.String("1")})
	if err != nil || v1.State != types.StatePending || !strings.HasSuffix(aws.ToString(v1.FunctionArn), ":versioned:1") {
		t.Errorf("version 1 just after creation = %+v, %v; want Pending under its qualified ARN", v1, err)
	}
	if _, err := c.PublishVersion(ctx, &lambda.PublishVersionInput{FunctionName: name}); errorCode(err) != "ResourceConflictException" {
		t.Errorf("publishing while the function is being created gave %v, want ResourceConflictException", err)
	}
	e.Clock.Advance(2 * time.Second)
	again, err := c.PublishVersion(ctx, &lambda.PublishVersionInput{FunctionName: name})
	if err != nil || aws.ToString(again.Version) != "1" || again.State != types.StateActive {
		t.Errorf("publishing without a change = %+v, %v; want version 1, Active", again, err)
	}

	if _, err := c.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: name, MemorySize: aws.Int32(256)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PublishVersion(ctx, &lambda.PublishVersionInput{FunctionName: name}); errorCode(err) != "ResourceConflictException" {
		t.Errorf("publishing during an update gave %v, want ResourceConflictException", err)
	}
	e.Clock.Advance(2 * time.Second)
	latest, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: name})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.PublishVersion(ctx, &lambda.PublishVersionInput{FunctionName: name, CodeSha256: aws.String("c3RhbGU=")}); errorCode(err) != "InvalidParameterValueException" {
		t.Errorf("publishing under another CodeSha256 gave %v, want InvalidParameterValueException", err)
	}
	if _, err := c.PublishVersion(ctx, &lambda.PublishVersionInput{FunctionName: name, RevisionId: created.RevisionId}); errorCode(err) != "PreconditionFailedException" {
		t.Errorf("publishing under a stale RevisionId gave %v, want PreconditionFailedException", err)
	}
	v2, err := c.PublishVersion(ctx, &lambda.PublishVersionInput{FunctionName: name, CodeSha256: latest.Configuration.CodeSha256,
		RevisionId: latest.Configuration.RevisionId, Description: aws.String("bigger")})
	if err != nil || aws.ToString(v2.Version) != "2" || aws.ToInt32(v2.MemorySize) != 256 || aws.ToString(v2.Description) != "bigger" {
		t.Fatalf("publishing after an update = %+v, %v; want version 2 with 256 MB and its description", v2, err)
	}
	after, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: name})
	if err != nil || aws.ToString(after.Configuration.RevisionId) == aws.ToString(latest.Configuration.RevisionId) {
		t.Errorf("publishing left the function's RevisionId at %s", aws.ToString(latest.Configuration.RevisionId))
	}

	v3, err := c.UpdateFunctionCode(ctx, &lambda.UpdateFunctionCodeInput{FunctionName: name, ZipFile: zipArchive(t, "print('v3')"), Publish: true})
	if err != nil || aws.ToString(v3.Version) != "3" || !strings.HasSuffix(aws.ToString(v3.FunctionArn), ":3") {
		t.Fatalf("UpdateFunctionCode with Publish = %+v, %v; want version 3", v3, err)
	}
	e.Clock.Advance(2 * time.Second)

	if diff := cmp.Diff([]string{"$LATEST@$LATEST", "1@1", "2@2", "3@3"}, versionsOf(t, c, "versioned", 3)); diff != "" {
		t.Errorf("ListVersionsByFunction (-want +got):\n%s", diff)
	}
	byName, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: aws.String("versioned:2")})
	if err != nil || aws.ToString(byName.Configuration.Version) != "2" || aws.ToInt32(byName.Configuration.MemorySize) != 256 {
		t.Errorf("GetFunction of versioned:2 = %+v, %v", byName, err)
	}
	unpublished, err := c.GetFunctionConfiguration(ctx, &lambda.GetFunctionConfigurationInput{FunctionName: name, Qualifier: aws.String("$LATEST")})
	if err != nil || !strings.HasSuffix(aws.ToString(unpublished.FunctionArn), ":$LATEST") || aws.ToString(unpublished.Version) != "$LATEST" {
		t.Errorf("GetFunctionConfiguration of $LATEST = %+v, %v", unpublished, err)
	}
	if _, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: aws.String("versioned:2"), Qualifier: aws.String("3")}); errorCode(err) != "InvalidParameterValueException" {
		t.Errorf("a qualifier in the name and another in Qualifier gave %v, want InvalidParameterValueException", err)
	}
	if _, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: name, Qualifier: aws.String("9")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("a version that was never published gave %v, want ResourceNotFoundException", err)
	}

	if _, err := c.DeleteFunction(ctx, &lambda.DeleteFunctionInput{FunctionName: name, Qualifier: aws.String("$LATEST")}); errorCode(err) != "InvalidParameterValueException" {
		t.Errorf("deleting $LATEST gave %v, want InvalidParameterValueException", err)
	}
	if _, err := c.DeleteFunction(ctx, &lambda.DeleteFunctionInput{FunctionName: name, Qualifier: aws.String("2")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: name, Qualifier: aws.String("2")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("a deleted version gave %v, want ResourceNotFoundException", err)
	}
	if diff := cmp.Diff([]string{"$LATEST@$LATEST", "1@1", "3@3"}, versionsOf(t, c, "versioned", 50)); diff != "" {
		t.Errorf("ListVersionsByFunction after deleting version 2 (-want +got):\n%s", diff)
	}
	if next, err := c.PublishVersion(ctx, &lambda.PublishVersionInput{FunctionName: name}); err != nil || aws.ToString(next.Version) != "3" {
		t.Errorf("publishing without a change after version 3 = %+v, %v; want version 3", next, err)
	}
	if _, err := c.ListVersionsByFunction(ctx, &lambda.ListVersionsByFunctionInput{FunctionName: name, MaxItems: aws.Int32(0)}); errorCode(err) != "ValidationException" {
		t.Errorf("MaxItems 0 gave %v, want ValidationException", err)
	}

	// Deleting the function deletes all it has: a new function of the same name starts bare.
	if _, err := c.PutFunctionConcurrency(ctx, &lambda.PutFunctionConcurrencyInput{FunctionName: name, ReservedConcurrentExecutions: aws.Int32(5)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateFunctionUrlConfig(ctx, &lambda.CreateFunctionUrlConfigInput{FunctionName: name, AuthType: types.FunctionUrlAuthTypeAwsIam}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddPermission(ctx, &lambda.AddPermissionInput{FunctionName: name, StatementId: aws.String("sns"), Action: aws.String("lambda:InvokeFunction"),
		Principal: aws.String("sns.amazonaws.com")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TagResource(ctx, &lambda.TagResourceInput{Resource: created.FunctionArn, Tags: map[string]string{"team": "orders"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteFunction(ctx, &lambda.DeleteFunctionInput{FunctionName: name}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: name, Qualifier: aws.String("1")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("a version of a deleted function gave %v, want ResourceNotFoundException", err)
	}
	if _, err := c.CreateFunction(ctx, zipFunction(t, "versioned")); err != nil {
		t.Fatal(err)
	}
	fresh, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: name})
	if err != nil || fresh.Concurrency != nil || len(fresh.Tags) != 0 {
		t.Errorf("the recreated function = %+v, %v; want no concurrency and no tags", fresh, err)
	}
	if _, err := c.GetFunctionUrlConfig(ctx, &lambda.GetFunctionUrlConfigInput{FunctionName: name}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("the recreated function's URL gave %v, want ResourceNotFoundException", err)
	}
	if _, err := c.GetPolicy(ctx, &lambda.GetPolicyInput{FunctionName: name}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("the recreated function's policy gave %v, want ResourceNotFoundException", err)
	}
	if diff := cmp.Diff([]string{"$LATEST@$LATEST"}, versionsOf(t, c, "versioned", 50)); diff != "" {
		t.Errorf("the recreated function's versions (-want +got):\n%s", diff)
	}
}
