package emulator_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
)

// TestLambdaAliases creates an alias of $LATEST, refuses one of the same name, a version that
// is not published, a numeric name, and a weighted second version on $LATEST; points the alias
// at version 2 with 10% of the traffic on version 1 for a gradual rollout, lists and deletes it.
func TestLambdaAliases(t *testing.T) {
	e, c, _ := lambdaEmulator(t)
	ctx := context.Background()
	name := aws.String("aliased")
	in := zipFunction(t, "aliased")
	in.Publish = true
	if _, err := c.CreateFunction(ctx, in); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Second)
	if _, err := c.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: name, Description: aws.String("v2")}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Second)
	if v, err := c.PublishVersion(ctx, &lambda.PublishVersionInput{FunctionName: name}); err != nil || aws.ToString(v.Version) != "2" {
		t.Fatalf("PublishVersion = %+v, %v; want version 2", v, err)
	}
	a, err := c.CreateAlias(ctx, &lambda.CreateAliasInput{FunctionName: name, Name: aws.String("live"), FunctionVersion: aws.String("$LATEST")})
	if err != nil || aws.ToString(a.AliasArn) == "" || aws.ToString(a.FunctionVersion) != "$LATEST" {
		t.Fatalf("CreateAlias = %+v, %v", a, err)
	}
	refused := map[string]struct {
		in   lambda.CreateAliasInput
		want string
	}{
		"the same name":           {in: lambda.CreateAliasInput{Name: aws.String("live"), FunctionVersion: aws.String("1")}, want: "ResourceConflictException"},
		"a version not published": {in: lambda.CreateAliasInput{Name: aws.String("next"), FunctionVersion: aws.String("9")}, want: "ResourceNotFoundException"},
		"a numeric name":          {in: lambda.CreateAliasInput{Name: aws.String("12"), FunctionVersion: aws.String("1")}, want: "ValidationException"},
		"weights on $LATEST": {in: lambda.CreateAliasInput{Name: aws.String("next"), FunctionVersion: aws.String("$LATEST"),
			RoutingConfig: &types.AliasRoutingConfiguration{AdditionalVersionWeights: map[string]float64{"1": 0.1}}}, want: "InvalidParameterValueException"},
		"a weight above 1": {in: lambda.CreateAliasInput{Name: aws.String("next"), FunctionVersion: aws.String("2"),
			RoutingConfig: &types.AliasRoutingConfiguration{AdditionalVersionWeights: map[string]float64{"1": 1.5}}}, want: "ValidationException"},
	}
	for what, tc := range refused {
		in := tc.in
		in.FunctionName = name
		if _, err := c.CreateAlias(ctx, &in); errorCode(err) != tc.want {
			t.Errorf("CreateAlias with %s gave %v, want %s", what, err, tc.want)
		}
	}
	up, err := c.UpdateAlias(ctx, &lambda.UpdateAliasInput{FunctionName: name, Name: aws.String("live"), FunctionVersion: aws.String("2"),
		Description: aws.String("rollout"), RoutingConfig: &types.AliasRoutingConfiguration{AdditionalVersionWeights: map[string]float64{"1": 0.1}}})
	if err != nil || aws.ToString(up.FunctionVersion) != "2" || up.RoutingConfig == nil || up.RoutingConfig.AdditionalVersionWeights["1"] != 0.1 {
		t.Fatalf("UpdateAlias = %+v, %v; want version 2 with 10%% on version 1", up, err)
	}
	if _, err := c.UpdateAlias(ctx, &lambda.UpdateAliasInput{FunctionName: name, Name: aws.String("live"), RevisionId: a.RevisionId}); errorCode(err) != "PreconditionFailedException" {
		t.Errorf("UpdateAlias with a stale RevisionId gave %v, want PreconditionFailedException", err)
	}
	got, err := c.GetAlias(ctx, &lambda.GetAliasInput{FunctionName: name, Name: aws.String("live")})
	if err != nil || aws.ToString(got.Description) != "rollout" || got.RoutingConfig == nil {
		t.Errorf("GetAlias = %+v, %v", got, err)
	}
	list, err := c.ListAliases(ctx, &lambda.ListAliasesInput{FunctionName: name, FunctionVersion: aws.String("2")})
	if err != nil || len(list.Aliases) != 1 {
		t.Errorf("ListAliases of version 2 = %+v, %v; want live", list, err)
	}
	if _, err := c.DeleteAlias(ctx, &lambda.DeleteAliasInput{FunctionName: name, Name: aws.String("live")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetAlias(ctx, &lambda.GetAliasInput{FunctionName: name, Name: aws.String("live")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("GetAlias after DeleteAlias gave %v, want ResourceNotFoundException", err)
	}
}
