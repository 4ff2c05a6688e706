package emulator_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	iamtypes "github.com/aws/aws-sdk-go-v2/service/iam/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestIAMOpenIDConnectProviders checks OpenID Connect providers: one per URL, found by ARN,
// AWS's checks of URLs, client IDs and thumbprints, client ID and thumbprint changes, tags and
// deletion.
func TestIAMOpenIDConnectProviders(t *testing.T) {
	_, c := iamClient(t, emulator.Options{})
	ctx := context.Background()
	const url = "https://oidc.eks.us-east-1.amazonaws.com/id/ABC123"
	thumb := strings.Repeat("9e", 20)
	out, err := c.CreateOpenIDConnectProvider(ctx, &iam.CreateOpenIDConnectProviderInput{Url: aws.String(url), ClientIDList: []string{"sts.amazonaws.com"},
		ThumbprintList: []string{thumb}, Tags: []iamtypes.Tag{{Key: aws.String("team"), Value: aws.String("web")}}})
	if err != nil {
		t.Fatal(err)
	}
	arn := out.OpenIDConnectProviderArn
	if aws.ToString(arn) != "arn:aws:iam::000000000000:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/ABC123" || len(out.Tags) != 1 {
		t.Errorf("CreateOpenIDConnectProvider answered %+v", out)
	}
	if _, err := c.CreateOpenIDConnectProvider(ctx, &iam.CreateOpenIDConnectProviderInput{Url: aws.String(url)}); errorCode(err) != "EntityAlreadyExists" {
		t.Errorf("the same URL again: %v, want EntityAlreadyExists", err)
	}
	bad := map[string]*iam.CreateOpenIDConnectProviderInput{
		"InvalidInput":    {Url: aws.String("http://issuer.example.com")},
		"ValidationError": {Url: aws.String("https://" + strings.Repeat("a", 250))},
	}
	for code, in := range bad {
		if _, err := c.CreateOpenIDConnectProvider(ctx, in); errorCode(err) != code {
			t.Errorf("CreateOpenIDConnectProvider %s: %v, want %s", aws.ToString(in.Url), err, code)
		}
	}
	if _, err := c.CreateOpenIDConnectProvider(ctx, &iam.CreateOpenIDConnectProviderInput{Url: aws.String("https://a.example.com"),
		ThumbprintList: []string{thumb, thumb, thumb, thumb, thumb, thumb}}); errorCode(err) != "InvalidInput" {
		t.Errorf("six thumbprints: %v, want InvalidInput", err)
	}
	if _, err := c.CreateOpenIDConnectProvider(ctx, &iam.CreateOpenIDConnectProviderInput{Url: aws.String("https://a.example.com"),
		ThumbprintList: []string{strings.Repeat("zz", 20)}}); errorCode(err) != "InvalidInput" {
		t.Errorf("a thumbprint that is not hex: %v, want InvalidInput", err)
	}
	many := make([]string, 101)
	for i := range many {
		many[i] = "client-" + strings.Repeat("x", i+1)
	}
	if _, err := c.CreateOpenIDConnectProvider(ctx, &iam.CreateOpenIDConnectProviderInput{Url: aws.String("https://a.example.com"), ClientIDList: many}); errorCode(err) != "LimitExceeded" {
		t.Errorf("101 client IDs: %v, want LimitExceeded", err)
	}
	if _, err := c.AddClientIDToOpenIDConnectProvider(ctx, &iam.AddClientIDToOpenIDConnectProviderInput{OpenIDConnectProviderArn: arn, ClientID: aws.String("my-app")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddClientIDToOpenIDConnectProvider(ctx, &iam.AddClientIDToOpenIDConnectProviderInput{OpenIDConnectProviderArn: arn, ClientID: aws.String("my-app")}); err != nil {
		t.Errorf("adding a client ID again: %v, want success", err)
	}
	for _, id := range []string{"sts.amazonaws.com", "absent"} {
		if _, err := c.RemoveClientIDFromOpenIDConnectProvider(ctx, &iam.RemoveClientIDFromOpenIDConnectProviderInput{OpenIDConnectProviderArn: arn, ClientID: aws.String(id)}); err != nil {
			t.Errorf("removing client ID %s: %v", id, err)
		}
	}
	other := strings.Repeat("AB", 20)
	if _, err := c.UpdateOpenIDConnectProviderThumbprint(ctx, &iam.UpdateOpenIDConnectProviderThumbprintInput{OpenIDConnectProviderArn: arn, ThumbprintList: []string{other}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TagOpenIDConnectProvider(ctx, &iam.TagOpenIDConnectProviderInput{OpenIDConnectProviderArn: arn, Tags: []iamtypes.Tag{{Key: aws.String("env"), Value: aws.String("prod")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UntagOpenIDConnectProvider(ctx, &iam.UntagOpenIDConnectProviderInput{OpenIDConnectProviderArn: arn, TagKeys: []string{"team"}}); err != nil {
		t.Fatal(err)
	}
	got, err := c.GetOpenIDConnectProvider(ctx, &iam.GetOpenIDConnectProviderInput{OpenIDConnectProviderArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"url": "oidc.eks.us-east-1.amazonaws.com/id/ABC123", "clients": []string{"my-app"}, "thumbprints": []string{other}, "tags": 1}
	if diff := cmp.Diff(want, map[string]any{"url": aws.ToString(got.Url), "clients": got.ClientIDList, "thumbprints": got.ThumbprintList, "tags": len(got.Tags)}); diff != "" {
		t.Errorf("GetOpenIDConnectProvider -want +got:\n%s", diff)
	}
	tags, err := c.ListOpenIDConnectProviderTags(ctx, &iam.ListOpenIDConnectProviderTagsInput{OpenIDConnectProviderArn: arn})
	if err != nil || len(tags.Tags) != 1 || aws.ToString(tags.Tags[0].Key) != "env" {
		t.Errorf("ListOpenIDConnectProviderTags: %+v, %v", tags, err)
	}
	list, err := c.ListOpenIDConnectProviders(ctx, &iam.ListOpenIDConnectProvidersInput{})
	if err != nil || len(list.OpenIDConnectProviderList) != 1 || aws.ToString(list.OpenIDConnectProviderList[0].Arn) != aws.ToString(arn) {
		t.Errorf("ListOpenIDConnectProviders: %+v, %v", list, err)
	}
	if _, err := c.GetOpenIDConnectProvider(ctx, &iam.GetOpenIDConnectProviderInput{OpenIDConnectProviderArn: aws.String("not-an-arn-at-all-xyz")}); errorCode(err) != "InvalidInput" {
		t.Errorf("a malformed ARN: %v, want InvalidInput", err)
	}
	if _, err := c.DeleteOpenIDConnectProvider(ctx, &iam.DeleteOpenIDConnectProviderInput{OpenIDConnectProviderArn: arn}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetOpenIDConnectProvider(ctx, &iam.GetOpenIDConnectProviderInput{OpenIDConnectProviderArn: arn}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("a deleted provider: %v, want NoSuchEntity", err)
	}
	if _, err := c.DeleteOpenIDConnectProvider(ctx, &iam.DeleteOpenIDConnectProviderInput{OpenIDConnectProviderArn: arn}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("deleting again: %v, want NoSuchEntity", err)
	}
}
