package emulator_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestLambdaFunctionLifecycle creates the seed's function from code in the emulated S3, follows
// it through Pending -> Active and an update, and deletes it.
func TestLambdaFunctionLifecycle(t *testing.T) {
	e, url := start(t, emulator.Options{})
	e.Clock.Freeze()
	ctx := context.Background()
	objects := s3Client(t, url, "AKID", "us-east-1")
	if _, err := objects.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("my-lambda-code")}); err != nil {
		t.Fatal(err)
	}
	if _, err := objects.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("my-lambda-code"), Key: aws.String("api-handler/v1.0.0.zip"), Body: strings.NewReader("PK...")}); err != nil {
		t.Fatal(err)
	}
	c := lambda.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	n := newLambdaNetwork(t, url)
	in := &lambda.CreateFunctionInput{
		FunctionName: aws.String("production-api-handler"), Runtime: types.RuntimePython311, Handler: aws.String("index.lambda_handler"),
		Role:       aws.String("arn:aws:iam::123456789012:role/lambda-execution-role"),
		Code:       &types.FunctionCode{S3Bucket: aws.String("my-lambda-code"), S3Key: aws.String("api-handler/v1.0.0.zip")},
		MemorySize: aws.Int32(512), Timeout: aws.Int32(30),
		Environment: &types.Environment{Variables: map[string]string{"ENV": "production", "LOG_LEVEL": "INFO"}},
		VpcConfig:   &types.VpcConfig{SubnetIds: n.subnets[:1], SecurityGroupIds: []string{n.group}},
		Tags:        map[string]string{"Application": "api"},
	}
	created, err := c.CreateFunction(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if created.State != types.StatePending || aws.ToInt32(created.MemorySize) != 512 || created.Environment.Variables["ENV"] != "production" ||
		aws.ToString(created.VpcConfig.VpcId) != n.vpc {
		t.Errorf("a new function is %+v; want Pending with its settings", created)
	}
	if _, err := c.CreateFunction(ctx, in); errorCode(err) != "ResourceConflictException" {
		t.Errorf("creating it twice gave %v", err)
	}
	e.Clock.Advance(2 * time.Second)
	got, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: aws.String("production-api-handler")})
	if err != nil || got.Configuration.State != types.StateActive || got.Tags["Application"] != "api" {
		t.Fatalf("GetFunction = %+v, %v; want Active with its tags", got, err)
	}
	if _, err := c.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: aws.String("production-api-handler"), Timeout: aws.Int32(60)}); err != nil {
		t.Fatal(err)
	}
	_, err = c.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: aws.String("production-api-handler"), MemorySize: aws.Int32(1024)})
	var conflict *types.ResourceConflictException
	if !errors.As(err, &conflict) {
		t.Errorf("a second update while the first is in progress gave %v, want ResourceConflictException", err)
	}
	e.Clock.Advance(2 * time.Second)
	cfg, err := c.GetFunctionConfiguration(ctx, &lambda.GetFunctionConfigurationInput{FunctionName: aws.String("production-api-handler")})
	if err != nil || cfg.LastUpdateStatus != types.LastUpdateStatusSuccessful || aws.ToInt32(cfg.Timeout) != 60 {
		t.Errorf("after the update: %+v, %v", cfg, err)
	}
	if _, err := c.UpdateFunctionCode(ctx, &lambda.UpdateFunctionCodeInput{FunctionName: aws.String("production-api-handler"),
		S3Bucket: aws.String("my-lambda-code"), S3Key: aws.String("missing.zip")}); errorCode(err) != "InvalidParameterValueException" {
		t.Errorf("code that is not in S3 gave %v", err)
	}
	if _, err := c.UpdateFunctionCode(ctx, &lambda.UpdateFunctionCodeInput{FunctionName: aws.String("production-api-handler"), ZipFile: []byte("new code")}); err != nil {
		t.Fatal(err)
	}
	arn := created.FunctionArn
	if _, err := c.TagResource(ctx, &lambda.TagResourceInput{Resource: arn, Tags: map[string]string{"Environment": "production"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UntagResource(ctx, &lambda.UntagResourceInput{Resource: arn, TagKeys: []string{"Application"}}); err != nil {
		t.Fatal(err)
	}
	tags, err := c.ListTags(ctx, &lambda.ListTagsInput{Resource: arn})
	if err != nil || len(tags.Tags) != 1 || tags.Tags["Environment"] != "production" {
		t.Errorf("tags = %v, %v", tags, err)
	}
	list, err := c.ListFunctions(ctx, &lambda.ListFunctionsInput{})
	if err != nil || len(list.Functions) != 1 {
		t.Errorf("ListFunctions = %+v, %v", list, err)
	}
	e.Clock.Advance(2 * time.Second)
	if _, err := c.DeleteFunction(ctx, &lambda.DeleteFunctionInput{FunctionName: aws.String("production-api-handler")}); err != nil {
		t.Fatal(err)
	}
	_, err = c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: aws.String("production-api-handler")})
	var missing *types.ResourceNotFoundException
	if !errors.As(err, &missing) {
		t.Errorf("a deleted function gave %v, want ResourceNotFoundException", err)
	}
}

func TestLambdaCreateValidation(t *testing.T) {
	_, url := start(t, emulator.Options{})
	c := lambda.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	base := func(mutate func(*lambda.CreateFunctionInput)) *lambda.CreateFunctionInput {
		in := &lambda.CreateFunctionInput{FunctionName: aws.String("fn"), Runtime: types.RuntimePython311, Handler: aws.String("index.handler"),
			Role: aws.String("arn:aws:iam::123456789012:role/r"), Code: &types.FunctionCode{ZipFile: []byte("zip")}}
		mutate(in)
		return in
	}
	cases := map[string]struct {
		reason string
		args   *lambda.CreateFunctionInput
		want   string
	}{
		"Memory":    {reason: "Memory is 128 to 10240 MB.", args: base(func(in *lambda.CreateFunctionInput) { in.MemorySize = aws.Int32(64) }), want: "ValidationException"},
		"Timeout":   {reason: "Timeout is 1 to 900 s.", args: base(func(in *lambda.CreateFunctionInput) { in.Timeout = aws.Int32(901) }), want: "ValidationException"},
		"Role":      {reason: "The role is an IAM role ARN.", args: base(func(in *lambda.CreateFunctionInput) { in.Role = aws.String("my-role") }), want: "ValidationException"},
		"NoHandler": {reason: "Zip packages need a handler.", args: base(func(in *lambda.CreateFunctionInput) { in.Handler = nil }), want: "InvalidParameterValueException"},
		"NoBucket": {reason: "S3 code must exist.", args: base(func(in *lambda.CreateFunctionInput) {
			in.Code = &types.FunctionCode{S3Bucket: aws.String("nope"), S3Key: aws.String("k")}
		}), want: "InvalidParameterValueException"},
		"Name": {reason: "Names are letters, digits, - and _.", args: base(func(in *lambda.CreateFunctionInput) { in.FunctionName = aws.String("bad name") }), want: "ValidationException"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := c.CreateFunction(context.Background(), tc.args); errorCode(err) != tc.want {
				t.Errorf("%s: got %v, want %s", tc.reason, err, tc.want)
			}
		})
	}
}

// lambdaEmulator starts an emulator with its clock frozen and returns it with a Lambda client.
func lambdaEmulator(t *testing.T) (*emulator.Server, *lambda.Client, string) {
	t.Helper()
	e, url := start(t, emulator.Options{})
	e.Clock.Freeze()
	return e, lambda.NewFromConfig(sdkConfig(t, url, "AKID", 1)), url
}

// zipArchive returns a real ZIP archive holding one file, index.py, with the given source.
func zipArchive(t *testing.T, source string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	f, err := w.Create("index.py")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte(source)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// codeSha256 is Lambda's CodeSha256 of a deployment package: the base64 SHA-256 of its bytes.
func codeSha256(b []byte) string {
	sum := sha256.Sum256(b)
	return base64.StdEncoding.EncodeToString(sum[:])
}

// zipFunction returns a CreateFunction request for a small Python function uploaded as a ZIP
// archive.
func zipFunction(t *testing.T, name string) *lambda.CreateFunctionInput {
	return &lambda.CreateFunctionInput{FunctionName: aws.String(name), Runtime: types.RuntimePython312, Handler: aws.String("index.handler"),
		Role: aws.String("arn:aws:iam::123456789012:role/lambda-execution-role"),
		Code: &types.FunctionCode{ZipFile: zipArchive(t, "def handler(event, context):\n    return 'ok'\n")}}
}

// TestLambdaCodeSources creates functions from each kind of deployment package and checks that
// CodeSha256 and CodeSize are those of the package: an uploaded archive, an object in the
// emulated S3 (a given version of it, or the latest), and a container image.
func TestLambdaCodeSources(t *testing.T) {
	e, c, url := lambdaEmulator(t)
	ctx := context.Background()
	archive := zipArchive(t, "print('v1')")
	in := zipFunction(t, "uploaded")
	in.Code.ZipFile = archive
	created, err := c.CreateFunction(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(created.CodeSha256) != codeSha256(archive) || created.CodeSize != int64(len(archive)) {
		t.Errorf("an uploaded archive gives CodeSha256 %s and CodeSize %d, want %s and %d", aws.ToString(created.CodeSha256), created.CodeSize, codeSha256(archive), len(archive))
	}

	objects := s3Client(t, url, "AKID", "us-east-1")
	bucket := aws.String("lambda-code")
	if _, err := objects.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: bucket}); err != nil {
		t.Fatal(err)
	}
	if _, err := objects.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: bucket,
		VersioningConfiguration: &s3types.VersioningConfiguration{Status: s3types.BucketVersioningStatusEnabled}}); err != nil {
		t.Fatal(err)
	}
	first, second := zipArchive(t, "print('first')"), zipArchive(t, "print('second')")
	put, err := objects.PutObject(ctx, &s3.PutObjectInput{Bucket: bucket, Key: aws.String("app.zip"), Body: bytes.NewReader(first)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := objects.PutObject(ctx, &s3.PutObjectInput{Bucket: bucket, Key: aws.String("app.zip"), Body: bytes.NewReader(second)}); err != nil {
		t.Fatal(err)
	}
	in = zipFunction(t, "from-s3")
	in.Code = &types.FunctionCode{S3Bucket: bucket, S3Key: aws.String("app.zip"), S3ObjectVersion: put.VersionId}
	created, err = c.CreateFunction(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(created.CodeSha256) != codeSha256(first) || created.CodeSize != int64(len(first)) {
		t.Errorf("S3 code of version %s gives CodeSha256 %s, want that of the first upload %s", aws.ToString(put.VersionId), aws.ToString(created.CodeSha256), codeSha256(first))
	}
	e.Clock.Advance(2 * time.Second)
	updated, err := c.UpdateFunctionCode(ctx, &lambda.UpdateFunctionCodeInput{FunctionName: aws.String("from-s3"), S3Bucket: bucket, S3Key: aws.String("app.zip")})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(updated.CodeSha256) != codeSha256(second) {
		t.Errorf("S3 code without a version gives CodeSha256 %s, want that of the latest upload %s", aws.ToString(updated.CodeSha256), codeSha256(second))
	}
	in = zipFunction(t, "missing-version")
	in.Code = &types.FunctionCode{S3Bucket: bucket, S3Key: aws.String("app.zip"), S3ObjectVersion: aws.String("v999999999999")}
	if _, err := c.CreateFunction(ctx, in); errorCode(err) != "InvalidParameterValueException" {
		t.Errorf("an S3 object version that does not exist gave %v, want InvalidParameterValueException", err)
	}

	digest := strings.Repeat("ab", 32)
	image := "123456789012.dkr.ecr.us-east-1.amazonaws.com/api@sha256:" + digest
	created, err = c.CreateFunction(ctx, &lambda.CreateFunctionInput{FunctionName: aws.String("image"), PackageType: types.PackageTypeImage,
		Role: in.Role, Code: &types.FunctionCode{ImageUri: aws.String(image)}})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(created.CodeSha256) != digest || created.CodeSize != 0 || created.Runtime != "" {
		t.Errorf("an image function reports CodeSha256 %s CodeSize %d Runtime %q, want the digest, 0 and no runtime", aws.ToString(created.CodeSha256), created.CodeSize, created.Runtime)
	}
	got, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: aws.String("image")})
	if err != nil || aws.ToString(got.Code.RepositoryType) != "ECR" || aws.ToString(got.Code.ImageUri) != image ||
		aws.ToString(got.Code.ResolvedImageUri) != "123456789012.dkr.ecr.us-east-1.amazonaws.com/api@sha256:"+digest {
		t.Errorf("GetFunction of an image function = %+v, %v", got, err)
	}
	e.Clock.Advance(2 * time.Second)

	refused := map[string]struct {
		call func() error
		want string
	}{
		"ImageWithRuntime": {func() error {
			_, err := c.CreateFunction(ctx, &lambda.CreateFunctionInput{FunctionName: aws.String("bad"), PackageType: types.PackageTypeImage, Runtime: types.RuntimePython312,
				Role: in.Role, Code: &types.FunctionCode{ImageUri: aws.String(image)}})
			return err
		}, "InvalidParameterValueException"},
		"ImageNotInECR": {func() error {
			_, err := c.CreateFunction(ctx, &lambda.CreateFunctionInput{FunctionName: aws.String("bad"), PackageType: types.PackageTypeImage,
				Role: in.Role, Code: &types.FunctionCode{ImageUri: aws.String("docker.io/library/python:3.12")}})
			return err
		}, "InvalidParameterValueException"},
		"ZipWithImageUri": {func() error {
			bad := zipFunction(t, "bad")
			bad.Code = &types.FunctionCode{ImageUri: aws.String(image)}
			_, err := c.CreateFunction(ctx, bad)
			return err
		}, "InvalidParameterValueException"},
		"NoSource": {func() error {
			bad := zipFunction(t, "bad")
			bad.Code = &types.FunctionCode{}
			_, err := c.CreateFunction(ctx, bad)
			return err
		}, "InvalidParameterValueException"},
		"ArchiveForImageFunction": {func() error {
			_, err := c.UpdateFunctionCode(ctx, &lambda.UpdateFunctionCodeInput{FunctionName: aws.String("image"), ZipFile: archive})
			return err
		}, "InvalidParameterValueException"},
		"ImageForZipFunction": {func() error {
			_, err := c.UpdateFunctionCode(ctx, &lambda.UpdateFunctionCodeInput{FunctionName: aws.String("uploaded"), ImageUri: aws.String(image)})
			return err
		}, "InvalidParameterValueException"},
		"StaleRevision": {func() error {
			_, err := c.UpdateFunctionCode(ctx, &lambda.UpdateFunctionCodeInput{FunctionName: aws.String("uploaded"), ZipFile: archive, RevisionId: aws.String("stale")})
			return err
		}, "PreconditionFailedException"},
	}
	for name, tc := range refused {
		t.Run(name, func(t *testing.T) {
			if err := tc.call(); errorCode(err) != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
}

// TestLambdaConfiguration sets every configuration an operator would at creation, reads it back,
// checks the validation of each, and removes the optional ones by update.
func TestLambdaConfiguration(t *testing.T) {
	e, c, url := lambdaEmulator(t)
	ctx := context.Background()
	n := newLambdaNetwork(t, url)
	layer := "arn:aws:lambda:us-east-1:123456789012:layer:deps:3"
	in := zipFunction(t, "configured")
	in.Architectures = []types.Architecture{types.ArchitectureArm64}
	in.Layers = []string{layer}
	in.DeadLetterConfig = &types.DeadLetterConfig{TargetArn: aws.String("arn:aws:sqs:us-east-1:123456789012:failed")}
	in.Environment = &types.Environment{Variables: map[string]string{"STAGE": "prod"}}
	in.VpcConfig = &types.VpcConfig{SubnetIds: n.subnets, SecurityGroupIds: []string{n.group}}
	in.EphemeralStorage = &types.EphemeralStorage{Size: aws.Int32(2048)}
	in.TracingConfig = &types.TracingConfig{Mode: types.TracingModeActive}
	in.Description = aws.String("orders API")
	in.KMSKeyArn = aws.String("arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab")
	in.Tags = map[string]string{"team": "orders"}
	created, err := c.CreateFunction(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Second)
	got, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: aws.String("configured")})
	if err != nil {
		t.Fatal(err)
	}
	cfg := got.Configuration
	want := map[string]string{
		"architecture": "arm64", "layer": layer, "layerSize": "0", "deadLetter": "arn:aws:sqs:us-east-1:123456789012:failed",
		"env": "prod", "subnets": strings.Join(n.subnets, ","), "groups": n.group, "vpc": n.vpc, "ephemeral": "2048", "tracing": "Active",
		"description": "orders API", "kms": aws.ToString(in.KMSKeyArn), "tag": "orders",
	}
	have := map[string]string{
		"architecture": string(cfg.Architectures[0]), "layer": aws.ToString(cfg.Layers[0].Arn), "layerSize": strconv.FormatInt(cfg.Layers[0].CodeSize, 10),
		"deadLetter": aws.ToString(cfg.DeadLetterConfig.TargetArn), "env": cfg.Environment.Variables["STAGE"],
		"subnets": strings.Join(cfg.VpcConfig.SubnetIds, ","), "groups": strings.Join(cfg.VpcConfig.SecurityGroupIds, ","), "vpc": aws.ToString(cfg.VpcConfig.VpcId),
		"ephemeral": strconv.Itoa(int(aws.ToInt32(cfg.EphemeralStorage.Size))), "tracing": string(cfg.TracingConfig.Mode),
		"description": aws.ToString(cfg.Description), "kms": aws.ToString(cfg.KMSKeyArn), "tag": got.Tags["team"],
	}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Errorf("GetFunction (-want +got):\n%s", diff)
	}
	if aws.ToString(cfg.RevisionId) == aws.ToString(created.RevisionId) {
		t.Errorf("the RevisionId stayed %s when the function became Active", aws.ToString(cfg.RevisionId))
	}
	tags, err := c.ListTags(ctx, &lambda.ListTagsInput{Resource: created.FunctionArn})
	if err != nil || tags.Tags["team"] != "orders" {
		t.Errorf("ListTags of a function tagged at creation = %v, %v", tags, err)
	}

	if _, err := c.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: aws.String("configured"),
		Timeout: aws.Int32(10), RevisionId: created.RevisionId}); errorCode(err) != "PreconditionFailedException" {
		t.Errorf("an update with a stale RevisionId gave %v, want PreconditionFailedException", err)
	}
	updated, err := c.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: aws.String("configured"),
		RevisionId: cfg.RevisionId, Layers: []string{}, DeadLetterConfig: &types.DeadLetterConfig{TargetArn: aws.String("")},
		VpcConfig: &types.VpcConfig{SubnetIds: []string{}, SecurityGroupIds: []string{}}, Environment: &types.Environment{Variables: map[string]string{}},
		KMSKeyArn: aws.String("")})
	if err != nil {
		t.Fatal(err)
	}
	if updated.Layers != nil || updated.DeadLetterConfig != nil || updated.VpcConfig != nil || updated.Environment != nil || updated.KMSKeyArn != nil {
		t.Errorf("empty settings did not remove them: %+v", updated)
	}
	if aws.ToString(updated.RevisionId) == aws.ToString(cfg.RevisionId) || updated.LastUpdateStatus != types.LastUpdateStatusInProgress {
		t.Errorf("an update answered RevisionId %s (was %s) and LastUpdateStatus %s", aws.ToString(updated.RevisionId), aws.ToString(cfg.RevisionId), updated.LastUpdateStatus)
	}

	refused := map[string]struct {
		change func(*lambda.CreateFunctionInput)
		want   string
	}{
		"TwoArchitectures":    {func(in *lambda.CreateFunctionInput) { in.Architectures = []types.Architecture{"x86_64", "arm64"} }, "ValidationException"},
		"UnknownArchitecture": {func(in *lambda.CreateFunctionInput) { in.Architectures = []types.Architecture{"sparc"} }, "ValidationException"},
		"MalformedLayer":      {func(in *lambda.CreateFunctionInput) { in.Layers = []string{"deps"} }, "ValidationException"},
		"SixLayers": {func(in *lambda.CreateFunctionInput) {
			for i := range 6 {
				in.Layers = append(in.Layers, fmt.Sprintf("arn:aws:lambda:us-east-1:123456789012:layer:l%d:1", i))
			}
		}, "InvalidParameterValueException"},
		"TwoVersionsOfALayer": {func(in *lambda.CreateFunctionInput) {
			in.Layers = []string{layer, strings.TrimSuffix(layer, "3") + "4"}
		}, "InvalidParameterValueException"},
		"LayerElsewhere": {func(in *lambda.CreateFunctionInput) {
			in.Layers = []string{"arn:aws:lambda:eu-west-1:123456789012:layer:deps:3"}
		}, "InvalidParameterValueException"},
		"DeadLetterToS3": {func(in *lambda.CreateFunctionInput) {
			in.DeadLetterConfig = &types.DeadLetterConfig{TargetArn: aws.String("arn:aws:s3:::bucket")}
		}, "InvalidParameterValueException"},
		"ReservedVariable": {func(in *lambda.CreateFunctionInput) {
			in.Environment = &types.Environment{Variables: map[string]string{"AWS_REGION": "eu-west-1"}}
		}, "InvalidParameterValueException"},
		"LargeEnvironment": {func(in *lambda.CreateFunctionInput) {
			in.Environment = &types.Environment{Variables: map[string]string{"BIG": strings.Repeat("x", 4100)}}
		}, "InvalidParameterValueException"},
		"SmallEphemeral": {func(in *lambda.CreateFunctionInput) {
			in.EphemeralStorage = &types.EphemeralStorage{Size: aws.Int32(256)}
		}, "ValidationException"},
		"TracingMode":     {func(in *lambda.CreateFunctionInput) { in.TracingConfig = &types.TracingConfig{Mode: "Loud"} }, "ValidationException"},
		"KMSKey":          {func(in *lambda.CreateFunctionInput) { in.KMSKeyArn = aws.String("my-key") }, "ValidationException"},
		"LongDescription": {func(in *lambda.CreateFunctionInput) { in.Description = aws.String(strings.Repeat("d", 257)) }, "ValidationException"},
		"SeventeenSubnets": {func(in *lambda.CreateFunctionInput) {
			in.VpcConfig = &types.VpcConfig{SubnetIds: slices.Repeat(n.subnets[:1], 17), SecurityGroupIds: []string{n.group}}
		}, "ValidationException"},
	}
	for name, tc := range refused {
		t.Run(name, func(t *testing.T) {
			in := zipFunction(t, "refused")
			tc.change(in)
			if _, err := c.CreateFunction(ctx, in); errorCode(err) != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
}
