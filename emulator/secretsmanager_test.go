package emulator_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// frozenOnSecond freezes an emulator's clock on a whole second, so that the times responses
// carry (to the millisecond) equal the clock's.
func frozenOnSecond(e *emulator.Server) {
	e.Clock.Freeze()
	now := e.Clock.Now()
	e.Clock.Advance(now.Truncate(time.Second).Add(time.Second).Sub(now))
}

// smClient starts an emulator with a clock frozen on a whole second and returns it with a
// Secrets Manager client of us-east-1 and the emulator's URL.
func smClient(t *testing.T) (*emulator.Server, *secretsmanager.Client, string) {
	t.Helper()
	e, url := start(t, emulator.Options{})
	frozenOnSecond(e)
	return e, secretsmanager.NewFromConfig(sdkConfig(t, url, "AKID", 1)), url
}

// smRegion returns a Secrets Manager client of another region of the same account.
func smRegion(t *testing.T, url, region string) *secretsmanager.Client {
	t.Helper()
	return secretsmanager.NewFromConfig(sdkConfig(t, url, "AKID", 1), func(o *secretsmanager.Options) { o.Region = region })
}

// smToken returns a ClientRequestToken of 36 characters that ends with suffix.
func smToken(suffix string) *string {
	return aws.String("00000000-0000-4000-8000-" + strings.Repeat("0", 12-len(suffix)) + suffix)
}

// smStages returns the staging labels of every version of a secret, by version id.
func smStages(t *testing.T, c *secretsmanager.Client, id string) map[string][]string {
	t.Helper()
	out, err := c.DescribeSecret(context.Background(), &secretsmanager.DescribeSecretInput{SecretId: aws.String(id)})
	if err != nil {
		t.Fatalf("describe %s: %v", id, err)
	}
	return out.VersionIdsToStages
}

// smValue returns the string value of a secret's version with a staging label.
func smValue(t *testing.T, c *secretsmanager.Client, id, stage string) string {
	t.Helper()
	out, err := c.GetSecretValue(context.Background(), &secretsmanager.GetSecretValueInput{SecretId: aws.String(id), VersionStage: aws.String(stage)})
	if err != nil {
		t.Fatalf("get %s %s: %v", id, stage, err)
	}
	return aws.ToString(out.SecretString)
}

// TestSecretsManagerLifecycle takes a secret through creation, new values, a description
// change, deletion with a recovery window, restore, and deletion for good when the window ends.
func TestSecretsManagerLifecycle(t *testing.T) {
	e, c, _ := smClient(t)
	ctx := context.Background()
	created := e.Clock.Now()
	out, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("prod/db-password"), SecretString: aws.String("v1"),
		Description: aws.String("the database"), KmsKeyId: aws.String("alias/app"), ClientRequestToken: smToken("1"),
		Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("payments")}}})
	if err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(out.ARN)
	if !regexp.MustCompile(`^arn:aws:secretsmanager:us-east-1:000000000000:secret:prod/db-password-[A-Za-z0-9]{6}$`).MatchString(arn) {
		t.Errorf("ARN %s, want the name and a hyphen with six random characters", arn)
	}
	if aws.ToString(out.VersionId) != *smToken("1") {
		t.Errorf("VersionId %s, want the ClientRequestToken", aws.ToString(out.VersionId))
	}
	d, err := c.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String("prod/db-password")})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(d.ARN) != arn || aws.ToString(d.Description) != "the database" || aws.ToString(d.KmsKeyId) != "alias/app" ||
		aws.ToBool(d.RotationEnabled) || !aws.ToTime(d.CreatedDate).Equal(created) || d.DeletedDate != nil || len(d.Tags) != 1 {
		t.Errorf("DescribeSecret = %+v", d)
	}
	if diff := cmp.Diff(map[string][]string{*smToken("1"): {"AWSCURRENT"}}, d.VersionIdsToStages); diff != "" {
		t.Errorf("VersionIdsToStages\n-want +got:\n%s", diff)
	}
	// A secret is found by name, full ARN and ARN without the random suffix.
	for _, id := range []string{"prod/db-password", arn, arn[:len(arn)-7]} {
		if got := smValue(t, c, id, "AWSCURRENT"); got != "v1" {
			t.Errorf("value by %s = %q", id, got)
		}
	}
	d, _ = c.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String(arn)})
	if want := created.UTC().Truncate(24 * time.Hour); !aws.ToTime(d.LastAccessedDate).Equal(want) {
		t.Errorf("LastAccessedDate %v, want the day of the read %v", d.LastAccessedDate, want)
	}

	e.Clock.Advance(time.Minute)
	put, err := c.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{SecretId: aws.String(arn), SecretString: aws.String("v2"), ClientRequestToken: smToken("2")})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"AWSCURRENT"}, put.VersionStages); diff != "" {
		t.Errorf("PutSecretValue stages\n-want +got:\n%s", diff)
	}
	if got := smValue(t, c, arn, "AWSPREVIOUS"); got != "v1" {
		t.Errorf("AWSPREVIOUS = %q, want v1", got)
	}
	upd, err := c.UpdateSecret(ctx, &secretsmanager.UpdateSecretInput{SecretId: aws.String(arn), SecretString: aws.String("v3"),
		Description: aws.String("still the database"), ClientRequestToken: smToken("3")})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(upd.VersionId) != *smToken("3") {
		t.Errorf("UpdateSecret VersionId %s", aws.ToString(upd.VersionId))
	}
	want := map[string][]string{*smToken("2"): {"AWSPREVIOUS"}, *smToken("3"): {"AWSCURRENT"}}
	if diff := cmp.Diff(want, smStages(t, c, arn)); diff != "" {
		t.Errorf("after UpdateSecret, the first version is deprecated\n-want +got:\n%s", diff)
	}
	versions, err := c.ListSecretVersionIds(ctx, &secretsmanager.ListSecretVersionIdsInput{SecretId: aws.String(arn), IncludeDeprecated: aws.Bool(true)})
	if err != nil || len(versions.Versions) != 3 || len(versions.Versions[0].VersionStages) != 0 {
		t.Errorf("ListSecretVersionIds with deprecated versions = %+v, %v", versions, err)
	}
	byID, err := c.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String(arn), VersionId: smToken("1")})
	if err != nil || aws.ToString(byID.SecretString) != "v1" || len(byID.VersionStages) != 0 {
		t.Errorf("a deprecated version by id = %+v, %v", byID, err)
	}
	// Roll back: AWSCURRENT to the second version; the third becomes AWSPREVIOUS.
	if _, err := c.UpdateSecretVersionStage(ctx, &secretsmanager.UpdateSecretVersionStageInput{SecretId: aws.String(arn),
		VersionStage: aws.String("AWSCURRENT"), MoveToVersionId: smToken("2"), RemoveFromVersionId: smToken("3")}); err != nil {
		t.Fatal(err)
	}
	want = map[string][]string{*smToken("2"): {"AWSCURRENT"}, *smToken("3"): {"AWSPREVIOUS"}}
	if diff := cmp.Diff(want, smStages(t, c, arn)); diff != "" {
		t.Errorf("after moving AWSCURRENT back\n-want +got:\n%s", diff)
	}

	del, err := c.DeleteSecret(ctx, &secretsmanager.DeleteSecretInput{SecretId: aws.String(arn), RecoveryWindowInDays: aws.Int64(7)})
	if err != nil {
		t.Fatal(err)
	}
	deletion := e.Clock.Now().AddDate(0, 0, 7)
	if !aws.ToTime(del.DeletionDate).Equal(deletion) {
		t.Errorf("DeletionDate %v, want 7 days on %v", del.DeletionDate, deletion)
	}
	d, err = c.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String(arn)})
	if err != nil || !aws.ToTime(d.DeletedDate).Equal(deletion) {
		t.Errorf("a secret scheduled for deletion is described with its DeletedDate: %v, %v", d.DeletedDate, err)
	}
	for name, call := range map[string]func() error{
		"GetSecretValue": func() error {
			_, err := c.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String(arn)})
			return err
		},
		"PutSecretValue": func() error {
			_, err := c.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{SecretId: aws.String(arn), SecretString: aws.String("x")})
			return err
		},
		"TagResource": func() error {
			_, err := c.TagResource(ctx, &secretsmanager.TagResourceInput{SecretId: aws.String(arn), Tags: []types.Tag{{Key: aws.String("a"), Value: aws.String("b")}}})
			return err
		},
		"CreateSecretSameName": func() error {
			_, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("prod/db-password"), SecretString: aws.String("x")})
			return err
		},
		"DeleteAgain": func() error {
			_, err := c.DeleteSecret(ctx, &secretsmanager.DeleteSecretInput{SecretId: aws.String(arn)})
			return err
		},
	} {
		if code := errorCode(call()); code != "InvalidRequestException" {
			t.Errorf("%s on a secret scheduled for deletion: %s, want InvalidRequestException", name, code)
		}
	}
	listed, err := c.ListSecrets(ctx, &secretsmanager.ListSecretsInput{})
	if err != nil || len(listed.SecretList) != 0 {
		t.Errorf("ListSecrets lists a secret scheduled for deletion: %+v, %v", listed, err)
	}
	listed, err = c.ListSecrets(ctx, &secretsmanager.ListSecretsInput{IncludePlannedDeletion: aws.Bool(true)})
	if err != nil || len(listed.SecretList) != 1 || listed.SecretList[0].DeletedDate == nil {
		t.Errorf("ListSecrets with IncludePlannedDeletion = %+v, %v", listed, err)
	}
	if _, err := c.RestoreSecret(ctx, &secretsmanager.RestoreSecretInput{SecretId: aws.String(arn)}); err != nil {
		t.Fatal(err)
	}
	if got := smValue(t, c, arn, "AWSCURRENT"); got != "v2" {
		t.Errorf("value after RestoreSecret = %q, want v2", got)
	}
	if _, err := c.DeleteSecret(ctx, &secretsmanager.DeleteSecretInput{SecretId: aws.String(arn)}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(30*24*time.Hour - time.Second)
	if _, err := c.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String(arn)}); err != nil {
		t.Errorf("a second before the 30-day default window ends: %v", err)
	}
	e.Clock.Advance(time.Second)
	if _, err := c.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String(arn)}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("after the recovery window: %v, want ResourceNotFoundException", err)
	}
	again, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("prod/db-password"), SecretString: aws.String("new")})
	if err != nil || aws.ToString(again.ARN) == arn {
		t.Errorf("recreating the name after deletion: %v, %v; want a new ARN", again, err)
	}
}

// TestSecretsManagerIdempotency checks ClientRequestToken on CreateSecret, PutSecretValue and
// UpdateSecret: the same token and value repeat the version, another value with the token is
// refused.
func TestSecretsManagerIdempotency(t *testing.T) {
	_, c, _ := smClient(t)
	ctx := context.Background()
	create := func(value string, tok *string) (*secretsmanager.CreateSecretOutput, error) {
		return c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("api-key"), SecretString: aws.String(value), ClientRequestToken: tok})
	}
	first, err := create("k1", smToken("a"))
	if err != nil {
		t.Fatal(err)
	}
	repeat, err := create("k1", smToken("a"))
	if err != nil || aws.ToString(repeat.ARN) != aws.ToString(first.ARN) || aws.ToString(repeat.VersionId) != *smToken("a") {
		t.Errorf("repeated CreateSecret = %+v, %v; want the same secret and version", repeat, err)
	}
	if _, err := create("k2", smToken("a")); errorCode(err) != "ResourceExistsException" {
		t.Errorf("the token with another value: %v, want ResourceExistsException", err)
	}
	if _, err := create("k1", smToken("b")); errorCode(err) != "ResourceExistsException" {
		t.Errorf("the name with another token: %v, want ResourceExistsException", err)
	}
	if _, err := create("k1", aws.String("short")); errorCode(err) != "InvalidParameterException" {
		t.Errorf("a token of 5 characters: %v, want InvalidParameterException", err)
	}
	put := func(value string, tok *string) (*secretsmanager.PutSecretValueOutput, error) {
		return c.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{SecretId: aws.String("api-key"), SecretString: aws.String(value), ClientRequestToken: tok})
	}
	if _, err := put("k2", smToken("c")); err != nil {
		t.Fatal(err)
	}
	if again, err := put("k2", smToken("c")); err != nil || aws.ToString(again.VersionId) != *smToken("c") {
		t.Errorf("repeated PutSecretValue = %+v, %v", again, err)
	}
	if _, err := put("k3", smToken("c")); errorCode(err) != "ResourceExistsException" {
		t.Errorf("PutSecretValue reusing a token for another value: %v, want ResourceExistsException", err)
	}
	if _, err := put("k3", smToken("a")); errorCode(err) != "ResourceExistsException" {
		t.Errorf("PutSecretValue with the token of the first version: %v, want ResourceExistsException", err)
	}
	if _, err := c.UpdateSecret(ctx, &secretsmanager.UpdateSecretInput{SecretId: aws.String("api-key"), SecretString: aws.String("k9"), ClientRequestToken: smToken("c")}); errorCode(err) != "ResourceExistsException" {
		t.Errorf("UpdateSecret reusing a token for another value: %v, want ResourceExistsException", err)
	}
	if diff := cmp.Diff(map[string][]string{*smToken("a"): {"AWSPREVIOUS"}, *smToken("c"): {"AWSCURRENT"}}, smStages(t, c, "api-key")); diff != "" {
		t.Errorf("versions after the repeats\n-want +got:\n%s", diff)
	}
	// Without a value, UpdateSecret changes metadata only and answers no version.
	upd, err := c.UpdateSecret(ctx, &secretsmanager.UpdateSecretInput{SecretId: aws.String("api-key"), KmsKeyId: aws.String("")})
	if err != nil || upd.VersionId != nil {
		t.Errorf("UpdateSecret without a value = %+v, %v", upd, err)
	}
	// The AWS managed key named by its alias is omitted, as a key never named is.
	for _, key := range []string{"alias/app", "alias/aws/secretsmanager"} {
		if _, err := c.UpdateSecret(ctx, &secretsmanager.UpdateSecretInput{SecretId: aws.String("api-key"), KmsKeyId: aws.String(key)}); err != nil {
			t.Fatal(err)
		}
	}
	d, err := c.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String("api-key")})
	if err != nil {
		t.Fatal(err)
	}
	if d.KmsKeyId != nil {
		t.Errorf("DescribeSecret after a return to the AWS managed key by its alias: KmsKeyId %s, want none", aws.ToString(d.KmsKeyId))
	}
}

// TestSecretsManagerValidation checks the requests Secrets Manager refuses.
func TestSecretsManagerValidation(t *testing.T) {
	_, c, _ := smClient(t)
	ctx := context.Background()
	if _, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("exists")}); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		call func() error
		want string
	}{
		"NameWithSpace": {func() error {
			_, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("my secret")})
			return err
		}, "InvalidParameterException"},
		"NameTooLong": {func() error {
			_, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String(strings.Repeat("a", 513))})
			return err
		}, "InvalidParameterException"},
		"StringAndBinary": {func() error {
			_, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("both"), SecretString: aws.String("a"), SecretBinary: []byte("b")})
			return err
		}, "InvalidParameterException"},
		"ValueTooLarge": {func() error {
			_, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("big"), SecretString: aws.String(strings.Repeat("a", 65537))})
			return err
		}, "ValidationException"},
		"DescriptionTooLong": {func() error {
			_, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("long"), Description: aws.String(strings.Repeat("d", 2049))})
			return err
		}, "ValidationException"},
		"PutWithoutValue": {func() error {
			_, err := c.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{SecretId: aws.String("exists")})
			return err
		}, "InvalidRequestException"},
		"GetWithoutVersions": {func() error {
			_, err := c.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String("exists")})
			return err
		}, "ResourceNotFoundException"},
		"GetMissing": {func() error {
			_, err := c.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String("missing")})
			return err
		}, "ResourceNotFoundException"},
		"OtherRegionARN": {func() error {
			_, err := c.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String("arn:aws:secretsmanager:eu-west-1:000000000000:secret:exists")})
			return err
		}, "ResourceNotFoundException"},
		"WindowTooShort": {func() error {
			_, err := c.DeleteSecret(ctx, &secretsmanager.DeleteSecretInput{SecretId: aws.String("exists"), RecoveryWindowInDays: aws.Int64(6)})
			return err
		}, "InvalidParameterException"},
		"WindowTooLong": {func() error {
			_, err := c.DeleteSecret(ctx, &secretsmanager.DeleteSecretInput{SecretId: aws.String("exists"), RecoveryWindowInDays: aws.Int64(31)})
			return err
		}, "InvalidParameterException"},
		"ForceAndWindow": {func() error {
			_, err := c.DeleteSecret(ctx, &secretsmanager.DeleteSecretInput{SecretId: aws.String("exists"), RecoveryWindowInDays: aws.Int64(7), ForceDeleteWithoutRecovery: aws.Bool(true)})
			return err
		}, "InvalidParameterException"},
		"DeleteMissing": {func() error {
			_, err := c.DeleteSecret(ctx, &secretsmanager.DeleteSecretInput{SecretId: aws.String("missing")})
			return err
		}, "ResourceNotFoundException"},
		"RestoreMissing": {func() error {
			_, err := c.RestoreSecret(ctx, &secretsmanager.RestoreSecretInput{SecretId: aws.String("missing")})
			return err
		}, "ResourceNotFoundException"},
		"ListBadPageSize": {func() error {
			_, err := c.ListSecrets(ctx, &secretsmanager.ListSecretsInput{MaxResults: aws.Int32(101)})
			return err
		}, "ValidationException"},
		"ListBadToken": {func() error {
			_, err := c.ListSecrets(ctx, &secretsmanager.ListSecretsInput{NextToken: aws.String("nope")})
			return err
		}, "InvalidNextTokenException"},
		"ListBadFilter": {func() error {
			_, err := c.ListSecrets(ctx, &secretsmanager.ListSecretsInput{Filters: []types.Filter{{Key: "color", Values: []string{"red"}}}})
			return err
		}, "ValidationException"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := errorCode(tc.call()); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	// Forcibly deleting a secret that does not exist succeeds.
	if out, err := c.DeleteSecret(ctx, &secretsmanager.DeleteSecretInput{SecretId: aws.String("missing"), ForceDeleteWithoutRecovery: aws.Bool(true)}); err != nil || aws.ToString(out.Name) != "missing" {
		t.Errorf("force-deleting a missing secret = %+v, %v", out, err)
	}
	if _, err := c.DeleteSecret(ctx, &secretsmanager.DeleteSecretInput{SecretId: aws.String("exists"), ForceDeleteWithoutRecovery: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String("exists")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("a force-deleted secret: %v, want ResourceNotFoundException", err)
	}
}

// TestSecretsManagerBinaryAndStages checks binary values and custom staging labels.
func TestSecretsManagerBinaryAndStages(t *testing.T) {
	_, c, _ := smClient(t)
	ctx := context.Background()
	if _, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("cert"), SecretBinary: []byte{0, 1, 2, 255}, ClientRequestToken: smToken("1")}); err != nil {
		t.Fatal(err)
	}
	out, err := c.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String("cert")})
	if err != nil || string(out.SecretBinary) != "\x00\x01\x02\xff" || out.SecretString != nil {
		t.Fatalf("binary value = %+v, %v", out, err)
	}
	// A version staged only with a label of the caller's own leaves AWSCURRENT where it is.
	put, err := c.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{SecretId: aws.String("cert"), SecretBinary: []byte("next"),
		ClientRequestToken: smToken("2"), VersionStages: []string{"STAGED"}})
	if err != nil || !cmp.Equal(put.VersionStages, []string{"STAGED"}) {
		t.Fatalf("PutSecretValue with a custom stage = %+v, %v", put, err)
	}
	if out, _ := c.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String("cert"), VersionStage: aws.String("STAGED")}); string(out.SecretBinary) != "next" {
		t.Errorf("STAGED = %q", out.SecretBinary)
	}
	if _, err := c.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String("cert"), VersionId: smToken("2"), VersionStage: aws.String("AWSCURRENT")}); errorCode(err) != "InvalidRequestException" {
		t.Errorf("a VersionId and a VersionStage of another version: %v, want InvalidRequestException", err)
	}
	if _, err := c.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String("cert"), VersionId: smToken("9")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("an unknown VersionId: %v, want ResourceNotFoundException", err)
	}
	stage := func(in *secretsmanager.UpdateSecretVersionStageInput) error {
		in.SecretId = aws.String("cert")
		_, err := c.UpdateSecretVersionStage(ctx, in)
		return err
	}
	if err := stage(&secretsmanager.UpdateSecretVersionStageInput{VersionStage: aws.String("AWSCURRENT"), MoveToVersionId: smToken("2")}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("moving AWSCURRENT without naming the version it leaves: %v, want InvalidParameterException", err)
	}
	if err := stage(&secretsmanager.UpdateSecretVersionStageInput{VersionStage: aws.String("AWSCURRENT"), RemoveFromVersionId: smToken("1")}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("removing AWSCURRENT without moving it: %v, want InvalidParameterException", err)
	}
	if err := stage(&secretsmanager.UpdateSecretVersionStageInput{VersionStage: aws.String("STAGED"), MoveToVersionId: smToken("9")}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("moving to an unknown version: %v, want InvalidParameterException", err)
	}
	if err := stage(&secretsmanager.UpdateSecretVersionStageInput{VersionStage: aws.String("STAGED"), RemoveFromVersionId: smToken("1")}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("removing a label the version does not have: %v, want InvalidParameterException", err)
	}
	if err := stage(&secretsmanager.UpdateSecretVersionStageInput{VersionStage: aws.String("STAGED"), RemoveFromVersionId: smToken("2")}); err != nil {
		t.Fatal(err)
	}
	versions, err := c.ListSecretVersionIds(ctx, &secretsmanager.ListSecretVersionIdsInput{SecretId: aws.String("cert")})
	if err != nil || len(versions.Versions) != 1 || aws.ToString(versions.Versions[0].VersionId) != *smToken("1") {
		t.Errorf("ListSecretVersionIds leaves out the version without labels: %+v, %v", versions, err)
	}
}

// TestSecretsManagerListSecrets checks paging, filters and sorting.
func TestSecretsManagerListSecrets(t *testing.T) {
	e, c, _ := smClient(t)
	ctx := context.Background()
	for i, s := range []struct{ name, desc, team string }{
		{"app/db", "Database login", "payments"}, {"app/api", "API key", "payments"}, {"ops/pager", "Pager token", "ops"},
		{"app/cache", "", "ops"}, {"legacy", "old", ""},
	} {
		in := &secretsmanager.CreateSecretInput{Name: aws.String(s.name), SecretString: aws.String("x")}
		if s.desc != "" {
			in.Description = aws.String(s.desc)
		}
		if s.team != "" {
			in.Tags = []types.Tag{{Key: aws.String("team"), Value: aws.String(s.team)}}
		}
		if _, err := c.CreateSecret(ctx, in); err != nil {
			t.Fatalf("secret %d: %v", i, err)
		}
		e.Clock.Advance(time.Second)
	}
	list := func(in *secretsmanager.ListSecretsInput) []string {
		t.Helper()
		var names []string
		p := secretsmanager.NewListSecretsPaginator(c, in)
		for p.HasMorePages() {
			out, err := p.NextPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range out.SecretList {
				names = append(names, aws.ToString(s.Name))
			}
		}
		return names
	}
	cases := map[string]struct {
		in   *secretsmanager.ListSecretsInput
		want []string
	}{
		"PagesOfTwo":       {&secretsmanager.ListSecretsInput{MaxResults: aws.Int32(2)}, []string{"app/db", "app/api", "ops/pager", "app/cache", "legacy"}},
		"NamePrefix":       {&secretsmanager.ListSecretsInput{Filters: []types.Filter{{Key: types.FilterNameStringTypeName, Values: []string{"app/"}}}}, []string{"app/db", "app/api", "app/cache"}},
		"NameNegated":      {&secretsmanager.ListSecretsInput{Filters: []types.Filter{{Key: types.FilterNameStringTypeName, Values: []string{"!app/"}}}}, []string{"ops/pager", "legacy"}},
		"TagValue":         {&secretsmanager.ListSecretsInput{Filters: []types.Filter{{Key: types.FilterNameStringTypeTagValue, Values: []string{"pay"}}}}, []string{"app/db", "app/api"}},
		"TagKeyAndName":    {&secretsmanager.ListSecretsInput{Filters: []types.Filter{{Key: types.FilterNameStringTypeTagKey, Values: []string{"team"}}, {Key: types.FilterNameStringTypeName, Values: []string{"ops"}}}}, []string{"ops/pager"}},
		"DescriptionFold":  {&secretsmanager.ListSecretsInput{Filters: []types.Filter{{Key: types.FilterNameStringTypeDescription, Values: []string{"database"}}}}, []string{"app/db"}},
		"AllWords":         {&secretsmanager.ListSecretsInput{Filters: []types.Filter{{Key: types.FilterNameStringTypeAll, Values: []string{"PAGER"}}}}, []string{"ops/pager"}},
		"ByNameDescending": {&secretsmanager.ListSecretsInput{SortBy: types.SortByTypeName, SortOrder: types.SortOrderTypeDesc}, []string{"ops/pager", "legacy", "app/db", "app/cache", "app/api"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, list(tc.in)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
	first, err := c.ListSecrets(ctx, &secretsmanager.ListSecretsInput{MaxResults: aws.Int32(2)})
	if err != nil || first.NextToken == nil || len(first.SecretList) != 2 || first.SecretList[0].SecretVersionsToStages == nil {
		t.Errorf("first page = %+v, %v", first, err)
	}
	for i := range 3 {
		if _, err := c.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{SecretId: aws.String("legacy"), SecretString: aws.String(strings.Repeat("y", i+1))}); err != nil {
			t.Fatal(err)
		}
	}
	v1, err := c.ListSecretVersionIds(ctx, &secretsmanager.ListSecretVersionIdsInput{SecretId: aws.String("legacy"), MaxResults: aws.Int32(1), IncludeDeprecated: aws.Bool(true)})
	if err != nil || len(v1.Versions) != 1 || v1.NextToken == nil {
		t.Fatalf("first page of versions = %+v, %v", v1, err)
	}
	v2, err := c.ListSecretVersionIds(ctx, &secretsmanager.ListSecretVersionIdsInput{SecretId: aws.String("legacy"), NextToken: v1.NextToken, IncludeDeprecated: aws.Bool(true)})
	if err != nil || len(v2.Versions) != 3 || v2.NextToken != nil {
		t.Errorf("rest of the versions = %+v, %v", v2, err)
	}
}

// TestSecretsManagerRotation checks rotation: what the emulator leaves in place of the Lambda
// function's work, the schedule, and cancellation.
func TestSecretsManagerRotation(t *testing.T) {
	e, c, _ := smClient(t)
	ctx := context.Background()
	const fn = "arn:aws:lambda:us-east-1:000000000000:function:rotate-db"
	if _, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("db"), SecretString: aws.String("pw"), ClientRequestToken: smToken("1")}); err != nil {
		t.Fatal(err)
	}
	rotate := func(in *secretsmanager.RotateSecretInput) (*secretsmanager.RotateSecretOutput, error) {
		in.SecretId = aws.String("db")
		return c.RotateSecret(ctx, in)
	}
	if _, err := c.CancelRotateSecret(ctx, &secretsmanager.CancelRotateSecretInput{SecretId: aws.String("db")}); errorCode(err) != "InvalidRequestException" {
		t.Errorf("cancelling rotation never configured: %v, want InvalidRequestException", err)
	}
	if _, err := rotate(&secretsmanager.RotateSecretInput{}); errorCode(err) != "InvalidRequestException" {
		t.Errorf("rotation without a Lambda function: %v, want InvalidRequestException", err)
	}
	for name, rules := range map[string]*types.RotationRulesType{
		"ZeroDays":    {AutomaticallyAfterDays: aws.Int64(0)},
		"DaysAndRate": {AutomaticallyAfterDays: aws.Int64(5), ScheduleExpression: aws.String("rate(5 days)")},
		"TooOften":    {ScheduleExpression: aws.String("rate(2 hours)")},
		"Gibberish":   {ScheduleExpression: aws.String("every day")},
		"LongWindow":  {ScheduleExpression: aws.String("rate(1 day)"), Duration: aws.String("25h")},
	} {
		if _, err := rotate(&secretsmanager.RotateSecretInput{RotationLambdaARN: aws.String(fn), RotationRules: rules}); errorCode(err) != "InvalidParameterException" {
			t.Errorf("%s: %v, want InvalidParameterException", name, err)
		}
	}
	e.Clock.Advance(time.Hour)
	out, err := rotate(&secretsmanager.RotateSecretInput{RotationLambdaARN: aws.String(fn), ClientRequestToken: smToken("2"),
		RotationRules: &types.RotationRulesType{AutomaticallyAfterDays: aws.Int64(30)}})
	if err != nil || aws.ToString(out.VersionId) != *smToken("2") {
		t.Fatalf("RotateSecret = %+v, %v", out, err)
	}
	if diff := cmp.Diff(map[string][]string{*smToken("1"): {"AWSPREVIOUS"}, *smToken("2"): {"AWSCURRENT"}}, smStages(t, c, "db")); diff != "" {
		t.Errorf("after rotation\n-want +got:\n%s", diff)
	}
	if got := smValue(t, c, "db", "AWSCURRENT"); got != "pw" {
		t.Errorf("the rotated version holds %q, want the value it rotated", got)
	}
	d, _ := c.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String("db")})
	now := e.Clock.Now()
	if !aws.ToBool(d.RotationEnabled) || aws.ToString(d.RotationLambdaARN) != fn || !aws.ToTime(d.LastRotatedDate).Equal(now) ||
		!aws.ToTime(d.NextRotationDate).Equal(now.AddDate(0, 0, 30)) || aws.ToInt64(d.RotationRules.AutomaticallyAfterDays) != 30 {
		t.Errorf("DescribeSecret after rotation = %+v", d)
	}
	if again, err := rotate(&secretsmanager.RotateSecretInput{ClientRequestToken: smToken("2")}); err != nil || aws.ToString(again.VersionId) != *smToken("2") {
		t.Errorf("repeating the rotation with its token = %+v, %v", again, err)
	}
	// A schedule without rotating now: no new version.
	later, err := rotate(&secretsmanager.RotateSecretInput{RotateImmediately: aws.Bool(false),
		RotationRules: &types.RotationRulesType{ScheduleExpression: aws.String("rate(10 days)"), Duration: aws.String("3h")}})
	if err != nil || later.VersionId != nil {
		t.Errorf("RotateImmediately false = %+v, %v; want no version", later, err)
	}
	d, _ = c.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String("db")})
	if aws.ToInt64(d.RotationRules.AutomaticallyAfterDays) != 10 || aws.ToString(d.RotationRules.ScheduleExpression) != "rate(10 days)" || len(d.VersionIdsToStages) != 2 {
		t.Errorf("rate(10 days) shows as AutomaticallyAfterDays 10: %+v", d.RotationRules)
	}
	// A rotation function's own first step, AWSPENDING on a new version, is a rotation in progress.
	if _, err := c.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{SecretId: aws.String("db"), SecretString: aws.String("pw2"),
		ClientRequestToken: smToken("3"), VersionStages: []string{"AWSPENDING"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := rotate(&secretsmanager.RotateSecretInput{}); errorCode(err) != "InvalidRequestException" {
		t.Errorf("rotating while AWSPENDING is on another version: %v, want InvalidRequestException", err)
	}
	cancel, err := c.CancelRotateSecret(ctx, &secretsmanager.CancelRotateSecretInput{SecretId: aws.String("db")})
	if err != nil || aws.ToString(cancel.VersionId) != *smToken("3") {
		t.Errorf("CancelRotateSecret = %+v, %v; want the pending version", cancel, err)
	}
	d, _ = c.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String("db")})
	if aws.ToBool(d.RotationEnabled) || d.NextRotationDate != nil {
		t.Errorf("after CancelRotateSecret: RotationEnabled %v, NextRotationDate %v", d.RotationEnabled, d.NextRotationDate)
	}
}

// TestSecretsManagerTags checks TagResource and UntagResource within Secrets Manager's limits.
func TestSecretsManagerTags(t *testing.T) {
	_, c, _ := smClient(t)
	ctx := context.Background()
	if _, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("tagged")}); err != nil {
		t.Fatal(err)
	}
	tags := func(from, n int) []types.Tag {
		var out []types.Tag
		for i := from; i < from+n; i++ {
			out = append(out, types.Tag{Key: aws.String("k" + string(rune('a'+i/26)) + string(rune('a'+i%26))), Value: aws.String("v")})
		}
		return out
	}
	if _, err := c.TagResource(ctx, &secretsmanager.TagResourceInput{SecretId: aws.String("tagged"), Tags: tags(0, 50)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TagResource(ctx, &secretsmanager.TagResourceInput{SecretId: aws.String("tagged"), Tags: tags(50, 1)}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("a 51st tag: %v, want InvalidParameterException", err)
	}
	if _, err := c.TagResource(ctx, &secretsmanager.TagResourceInput{SecretId: aws.String("tagged"), Tags: []types.Tag{{Key: aws.String("aws:owner"), Value: aws.String("x")}}}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("an aws: key: %v, want InvalidParameterException", err)
	}
	if _, err := c.UntagResource(ctx, &secretsmanager.UntagResourceInput{SecretId: aws.String("tagged"), TagKeys: []string{"kaa", "kab", "missing"}}); err != nil {
		t.Fatal(err)
	}
	d, _ := c.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String("tagged")})
	if len(d.Tags) != 48 {
		t.Errorf("%d tags after removing two, want 48", len(d.Tags))
	}
	if _, err := c.TagResource(ctx, &secretsmanager.TagResourceInput{SecretId: aws.String("missing"), Tags: tags(0, 1)}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("tagging a missing secret: %v", err)
	}
}

// TestSecretsManagerReplication checks replicas in other regions: read-only copies that follow
// the primary, failures for names taken, and removal.
func TestSecretsManagerReplication(t *testing.T) {
	_, c, url := smClient(t)
	ctx := context.Background()
	west := smRegion(t, url, "us-west-2")
	eu := smRegion(t, url, "eu-west-1")
	if _, err := west.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("shared"), SecretString: aws.String("west's own")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("shared"),
		AddReplicaRegions: []types.ReplicaRegionType{{Region: aws.String("us-east-1")}}}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("replicating to the secret's own region: %v, want InvalidParameterException", err)
	}
	out, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("shared"), SecretString: aws.String("v1"),
		AddReplicaRegions: []types.ReplicaRegionType{{Region: aws.String("eu-west-1"), KmsKeyId: aws.String("alias/eu")}}})
	if err != nil || len(out.ReplicationStatus) != 1 || out.ReplicationStatus[0].Status != types.StatusTypeInSync {
		t.Fatalf("CreateSecret with a replica = %+v, %v", out, err)
	}
	arn := aws.ToString(out.ARN)
	replicaARN := strings.Replace(arn, "us-east-1", "eu-west-1", 1)
	r, err := eu.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String(replicaARN)})
	if err != nil || aws.ToString(r.PrimaryRegion) != "us-east-1" || r.ReplicationStatus != nil {
		t.Fatalf("the replica = %+v, %v", r, err)
	}
	if _, err := c.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{SecretId: aws.String(arn), SecretString: aws.String("v2")}); err != nil {
		t.Fatal(err)
	}
	if got := smValue(t, eu, "shared", "AWSCURRENT"); got != "v2" {
		t.Errorf("the replica's value = %q, want the primary's new value", got)
	}
	if _, err := eu.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{SecretId: aws.String("shared"), SecretString: aws.String("x")}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("changing a replica: %v, want InvalidParameterException", err)
	}
	rep, err := c.ReplicateSecretToRegions(ctx, &secretsmanager.ReplicateSecretToRegionsInput{SecretId: aws.String("shared"),
		AddReplicaRegions: []types.ReplicaRegionType{{Region: aws.String("us-west-2")}}})
	if err != nil || len(rep.ReplicationStatus) != 2 || rep.ReplicationStatus[1].Status != types.StatusTypeFailed {
		t.Fatalf("replicating onto a name taken = %+v, %v; want a Failed status", rep, err)
	}
	if got := smValue(t, west, "shared", "AWSCURRENT"); got != "west's own" {
		t.Errorf("the failed replication changed us-west-2's secret: %q", got)
	}
	if _, err := c.DeleteSecret(ctx, &secretsmanager.DeleteSecretInput{SecretId: aws.String("shared")}); errorCode(err) != "InvalidRequestException" {
		t.Errorf("deleting a primary with replicas: %v, want InvalidRequestException", err)
	}
	rm, err := c.RemoveRegionsFromReplication(ctx, &secretsmanager.RemoveRegionsFromReplicationInput{SecretId: aws.String("shared"), RemoveReplicaRegions: []string{"eu-west-1", "us-west-2"}})
	if err != nil || len(rm.ReplicationStatus) != 0 {
		t.Fatalf("RemoveRegionsFromReplication = %+v, %v", rm, err)
	}
	if _, err := eu.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String("shared")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("the removed replica: %v, want ResourceNotFoundException", err)
	}
	if _, err := c.DeleteSecret(ctx, &secretsmanager.DeleteSecretInput{SecretId: aws.String("shared")}); err != nil {
		t.Errorf("deleting the primary once its replicas are gone: %v", err)
	}
}

// TestSecretsManagerRandomPassword checks GetRandomPassword's length and character classes.
func TestSecretsManagerRandomPassword(t *testing.T) {
	_, c, _ := smClient(t)
	ctx := context.Background()
	out, err := c.GetRandomPassword(ctx, &secretsmanager.GetRandomPasswordInput{})
	if err != nil || len(aws.ToString(out.RandomPassword)) != 32 {
		t.Fatalf("default password = %+v, %v", out, err)
	}
	out, err = c.GetRandomPassword(ctx, &secretsmanager.GetRandomPasswordInput{PasswordLength: aws.Int64(20), ExcludePunctuation: aws.Bool(true), ExcludeCharacters: aws.String("0Oo")})
	if err != nil {
		t.Fatal(err)
	}
	pw := aws.ToString(out.RandomPassword)
	if len(pw) != 20 || !regexp.MustCompile(`^[A-Za-z1-9]+$`).MatchString(pw) || strings.ContainsAny(pw, "0Oo") ||
		!regexp.MustCompile(`[a-z]`).MatchString(pw) || !regexp.MustCompile(`[A-Z]`).MatchString(pw) || !regexp.MustCompile(`[0-9]`).MatchString(pw) {
		t.Errorf("password %q breaks the request", pw)
	}
	if _, err := c.GetRandomPassword(ctx, &secretsmanager.GetRandomPasswordInput{PasswordLength: aws.Int64(3)}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("3 characters for 4 required types: %v, want InvalidParameterException", err)
	}
	if _, err := c.GetRandomPassword(ctx, &secretsmanager.GetRandomPasswordInput{PasswordLength: aws.Int64(4097)}); errorCode(err) != "ValidationException" {
		t.Errorf("4097 characters: %v, want ValidationException", err)
	}
}
