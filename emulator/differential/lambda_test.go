package differential

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// functions is one side's Lambda, S3 and EC2 clients, and the side's VPC, subnet and security
// group for functions' VPC configurations, with a group of another VPC (abroad). settle lets the
// side's lifecycles finish: the emulator's clock moves past its transitions, while moto changes
// nothing over time.
type functions struct {
	lambda                     *lambda.Client
	s3                         *s3.Client
	ec2                        *ec2.Client
	settle                     func()
	vpc, subnet, group, abroad string
}

// lambdaRole is the execution role of the steps' functions. moto's Lambda requires it to exist in
// moto's IAM, in moto's account; the emulator checks its form only.
const lambdaRole = "arn:aws:iam::123456789012:role/diff-lambda"

// lambdaArchive is the deployment package the steps upload: a real ZIP archive.
func lambdaArchive(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	f, err := w.Create("index.py")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("def handler(event, context):\n    return 'ok'\n")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pythonFunction is a CreateFunction request for a Python function of the given code.
func pythonFunction(name string, code *types.FunctionCode) *lambda.CreateFunctionInput {
	return &lambda.CreateFunctionInput{FunctionName: aws.String(name), Runtime: types.RuntimePython312, Handler: aws.String("index.handler"),
		Role: aws.String(lambdaRole), Code: code}
}

// urlForm is the form of a function URL (Lambda Developer Guide, Creating and managing function
// URLs), with the trailing slash AWS answers with.
var urlForm = regexp.MustCompile(`^https://[a-z0-9]{32}\.lambda-url\.us-east-1\.on\.aws/$`)

// configFields are what the steps compare of a function's configuration: the ARN without its
// account, which differs between the sides.
func configFields(cfg types.FunctionConfiguration) map[string]string {
	arn := aws.ToString(cfg.FunctionArn)
	return map[string]string{"arn": arn[strings.Index(arn, ":function:")+1:], "version": aws.ToString(cfg.Version),
		"memory": strconv.Itoa(int(aws.ToInt32(cfg.MemorySize))), "codeSize": strconv.FormatInt(cfg.CodeSize, 10), "codeSha256": aws.ToString(cfg.CodeSha256)}
}

// lambdaSteps is the sequence both sides run: functions from each kind of package with the
// configuration an operator sets, updates, versions, reserved concurrency, a function URL, a
// resource-based policy and deletion, with the errors AWS documents on the way.
func lambdaSteps(t *testing.T) []step[*functions] {
	ctx := context.Background()
	archive := lambdaArchive(t)
	sum := sha256.Sum256(archive)
	archiveSha := base64.StdEncoding.EncodeToString(sum[:])
	bucket, key := aws.String("diff-lambda-code"), aws.String("orders/v1.zip")
	name := aws.String("diff-orders")
	image := "123456789012.dkr.ecr.us-east-1.amazonaws.com/orders:v1"
	imageSum := sha256.Sum256([]byte(image))
	create := func(in *lambda.CreateFunctionInput) func(c *functions) outcome {
		return func(c *functions) outcome {
			out, err := c.lambda.CreateFunction(ctx, in)
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"version": aws.ToString(out.Version), "packageType": string(out.PackageType)})
		}
	}
	get := func(qualifier *string) func(c *functions) outcome {
		return func(c *functions) outcome {
			c.settle()
			out, err := c.lambda.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: name, Qualifier: qualifier})
			if err != nil {
				return observe(err, nil)
			}
			f := configFields(*out.Configuration)
			for k, v := range out.Tags {
				f["tag:"+k] = v
			}
			if out.Concurrency != nil {
				f["concurrency"] = strconv.Itoa(int(aws.ToInt32(out.Concurrency.ReservedConcurrentExecutions)))
			}
			return observe(nil, f)
		}
	}
	publish := func(in *lambda.PublishVersionInput) func(c *functions) outcome {
		return func(c *functions) outcome {
			c.settle()
			out, err := c.lambda.PublishVersion(ctx, in)
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"version": aws.ToString(out.Version)})
		}
	}
	versions := func(c *functions) outcome {
		out, err := c.lambda.ListVersionsByFunction(ctx, &lambda.ListVersionsByFunctionInput{FunctionName: name})
		if err != nil {
			return observe(err, nil)
		}
		var list []string
		for _, v := range out.Versions {
			list = append(list, aws.ToString(v.Version))
		}
		return observe(nil, map[string]string{"versions": strings.Join(list, ",")})
	}
	concurrency := func(n int32) func(c *functions) outcome {
		return func(c *functions) outcome {
			out, err := c.lambda.PutFunctionConcurrency(ctx, &lambda.PutFunctionConcurrencyInput{FunctionName: name, ReservedConcurrentExecutions: aws.Int32(n)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"reserved": strconv.Itoa(int(aws.ToInt32(out.ReservedConcurrentExecutions)))})
		}
	}
	getConcurrency := func(c *functions) outcome {
		out, err := c.lambda.GetFunctionConcurrency(ctx, &lambda.GetFunctionConcurrencyInput{FunctionName: name})
		if err != nil {
			return observe(err, nil)
		}
		return observe(nil, map[string]string{"reserved": strconv.Itoa(int(aws.ToInt32(out.ReservedConcurrentExecutions)))})
	}
	urlFields := func(u, auth, mode string) map[string]string {
		return map[string]string{"urlForm": strconv.FormatBool(urlForm.MatchString(u)), "authType": auth, "invokeMode": mode}
	}
	createURL := func(c *functions) outcome {
		out, err := c.lambda.CreateFunctionUrlConfig(ctx, &lambda.CreateFunctionUrlConfigInput{FunctionName: name, AuthType: types.FunctionUrlAuthTypeNone,
			Cors: &types.Cors{AllowOrigins: []string{"https://example.com"}}})
		if err != nil {
			return observe(err, nil)
		}
		return observe(nil, urlFields(aws.ToString(out.FunctionUrl), string(out.AuthType), string(out.InvokeMode)))
	}
	getURL := func(c *functions) outcome {
		out, err := c.lambda.GetFunctionUrlConfig(ctx, &lambda.GetFunctionUrlConfigInput{FunctionName: name})
		if err != nil {
			return observe(err, nil)
		}
		return observe(nil, urlFields(aws.ToString(out.FunctionUrl), string(out.AuthType), string(out.InvokeMode)))
	}
	addPermission := func(c *functions) outcome {
		out, err := c.lambda.AddPermission(ctx, &lambda.AddPermissionInput{FunctionName: name, StatementId: aws.String("FunctionURLAllowPublicAccess"),
			Action: aws.String("lambda:InvokeFunctionUrl"), Principal: aws.String("*"), FunctionUrlAuthType: types.FunctionUrlAuthTypeNone})
		if err != nil {
			return observe(err, nil)
		}
		var s map[string]any
		if err := json.Unmarshal([]byte(aws.ToString(out.Statement)), &s); err != nil {
			return observe(err, nil)
		}
		condition, _ := json.Marshal(s["Condition"])
		return observe(nil, map[string]string{"sid": s["Sid"].(string), "effect": s["Effect"].(string), "action": s["Action"].(string),
			"principal": s["Principal"].(string), "condition": string(condition)})
	}
	getPolicy := func(c *functions) outcome {
		out, err := c.lambda.GetPolicy(ctx, &lambda.GetPolicyInput{FunctionName: name})
		if err != nil {
			return observe(err, nil)
		}
		var p struct {
			Version   string
			Statement []struct{ Sid string }
		}
		if err := json.Unmarshal([]byte(aws.ToString(out.Policy)), &p); err != nil {
			return observe(err, nil)
		}
		var sids []string
		for _, s := range p.Statement {
			sids = append(sids, s.Sid)
		}
		return observe(nil, map[string]string{"version": p.Version, "sids": strings.Join(sids, ",")})
	}
	removePermission := func(sid string) func(c *functions) outcome {
		return func(c *functions) outcome {
			_, err := c.lambda.RemovePermission(ctx, &lambda.RemovePermissionInput{FunctionName: name, StatementId: aws.String(sid)})
			return observe(err, nil)
		}
	}
	inVPC := func(name string, config func(c *functions) *types.VpcConfig) func(c *functions) outcome {
		return func(c *functions) outcome {
			in := pythonFunction(name, &types.FunctionCode{ZipFile: archive})
			in.VpcConfig = config(c)
			out, err := c.lambda.CreateFunction(ctx, in)
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"subnets": strconv.Itoa(len(out.VpcConfig.SubnetIds)), "groups": strconv.Itoa(len(out.VpcConfig.SecurityGroupIds)),
				"vpcOfSubnets": strconv.FormatBool(aws.ToString(out.VpcConfig.VpcId) == c.vpc)})
		}
	}
	configured := pythonFunction("diff-orders", &types.FunctionCode{ZipFile: archive})
	configured.Publish = true
	configured.Architectures = []types.Architecture{types.ArchitectureArm64}
	configured.Environment = &types.Environment{Variables: map[string]string{"STAGE": "prod"}}
	configured.TracingConfig = &types.TracingConfig{Mode: types.TracingModeActive}
	configured.EphemeralStorage = &types.EphemeralStorage{Size: aws.Int32(1024)}
	configured.Tags = map[string]string{"team": "orders"}
	return []step[*functions]{
		{"PutPackageInS3", func(c *functions) outcome {
			if _, err := c.s3.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: bucket}); err != nil {
				return observe(err, nil)
			}
			if _, err := c.s3.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: bucket,
				VersioningConfiguration: &s3types.VersioningConfiguration{Status: s3types.BucketVersioningStatusEnabled}}); err != nil {
				return observe(err, nil)
			}
			_, err := c.s3.PutObject(ctx, &s3.PutObjectInput{Bucket: bucket, Key: key, Body: bytes.NewReader(archive)})
			return observe(err, nil)
		}},
		{"CreateFromS3", func(c *functions) outcome {
			out, err := c.lambda.CreateFunction(ctx, pythonFunction("diff-from-s3", &types.FunctionCode{S3Bucket: bucket, S3Key: key}))
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"shaOfPackage": strconv.FormatBool(aws.ToString(out.CodeSha256) == archiveSha),
				"codeSize": strconv.FormatInt(out.CodeSize, 10)})
		}},
		{"CreateFromMissingS3Key", create(pythonFunction("diff-missing-key", &types.FunctionCode{S3Bucket: bucket, S3Key: aws.String("nope.zip")}))},
		{"CreateFromMissingS3Version", create(pythonFunction("diff-missing-version", &types.FunctionCode{S3Bucket: bucket, S3Key: key,
			S3ObjectVersion: aws.String("3sL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY")}))},
		{"CreateConfiguredAndPublish", func(c *functions) outcome {
			out, err := c.lambda.CreateFunction(ctx, configured)
			if err != nil {
				return observe(err, nil)
			}
			f := map[string]string{"version": aws.ToString(out.Version), "shaOfPackage": strconv.FormatBool(aws.ToString(out.CodeSha256) == archiveSha),
				"architecture": string(out.Architectures[0]), "ephemeral": strconv.Itoa(int(aws.ToInt32(out.EphemeralStorage.Size)))}
			if out.TracingConfig != nil {
				f["tracing"] = string(out.TracingConfig.Mode)
			}
			if out.Environment != nil {
				f["env"] = out.Environment.Variables["STAGE"]
			}
			return observe(nil, f)
		}},
		{"CreateExisting", create(configured)},
		{"CreateFromImage", func(c *functions) outcome {
			out, err := c.lambda.CreateFunction(ctx, &lambda.CreateFunctionInput{FunctionName: aws.String("diff-image"), PackageType: types.PackageTypeImage,
				Role: aws.String(lambdaRole), Code: &types.FunctionCode{ImageUri: aws.String(image)}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"packageType": string(out.PackageType), "codeSize": strconv.FormatInt(out.CodeSize, 10),
				"shaOfURI": strconv.FormatBool(aws.ToString(out.CodeSha256) == hex.EncodeToString(imageSum[:]))})
		}},
		{"CreateImageWithRuntime", create(&lambda.CreateFunctionInput{FunctionName: aws.String("diff-image-runtime"), PackageType: types.PackageTypeImage,
			Runtime: types.RuntimePython312, Handler: aws.String("index.handler"), Role: aws.String(lambdaRole), Code: &types.FunctionCode{ImageUri: aws.String(image)}})},
		{"CreateZipWithoutHandler", create(&lambda.CreateFunctionInput{FunctionName: aws.String("diff-no-handler"), Runtime: types.RuntimePython312,
			Role: aws.String(lambdaRole), Code: &types.FunctionCode{ZipFile: archive}})},
		{"CreateTwoArchitectures", func(c *functions) outcome {
			in := pythonFunction("diff-two-archs", &types.FunctionCode{ZipFile: archive})
			in.Architectures = []types.Architecture{types.ArchitectureX8664, types.ArchitectureArm64}
			return create(in)(c)
		}},
		{"CreateEphemeralTooLarge", func(c *functions) outcome {
			in := pythonFunction("diff-ephemeral", &types.FunctionCode{ZipFile: archive})
			in.EphemeralStorage = &types.EphemeralStorage{Size: aws.Int32(20480)}
			return create(in)(c)
		}},
		{"CreateMalformedLayer", func(c *functions) outcome {
			in := pythonFunction("diff-layer", &types.FunctionCode{ZipFile: archive})
			in.Layers = []string{"deps"}
			return create(in)(c)
		}},
		{"CreateDeadLetterToS3", func(c *functions) outcome {
			in := pythonFunction("diff-dlq", &types.FunctionCode{ZipFile: archive})
			in.DeadLetterConfig = &types.DeadLetterConfig{TargetArn: aws.String("arn:aws:s3:::diff-lambda-code")}
			return create(in)(c)
		}},
		{"CreateNetwork", func(c *functions) outcome {
			vpc, err := c.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.0.0.0/16")})
			if err != nil {
				return observe(err, nil)
			}
			subnet, err := c.ec2.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, CidrBlock: aws.String("10.0.1.0/24")})
			if err != nil {
				return observe(err, nil)
			}
			group, err := c.ec2.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{VpcId: vpc.Vpc.VpcId, GroupName: aws.String("functions"), Description: aws.String("functions")})
			if err != nil {
				return observe(err, nil)
			}
			other, err := c.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.1.0.0/16")})
			if err != nil {
				return observe(err, nil)
			}
			abroad, err := c.ec2.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{VpcId: other.Vpc.VpcId, GroupName: aws.String("abroad"), Description: aws.String("elsewhere")})
			if err != nil {
				return observe(err, nil)
			}
			c.vpc, c.subnet, c.group, c.abroad = aws.ToString(vpc.Vpc.VpcId), aws.ToString(subnet.Subnet.SubnetId), aws.ToString(group.GroupId), aws.ToString(abroad.GroupId)
			return observe(nil, nil)
		}},
		{"CreateInVpc", inVPC("diff-in-vpc", func(c *functions) *types.VpcConfig {
			return &types.VpcConfig{SubnetIds: []string{c.subnet}, SecurityGroupIds: []string{c.group}}
		})},
		{"CreateInUnknownSubnet", inVPC("diff-unknown-subnet", func(c *functions) *types.VpcConfig {
			return &types.VpcConfig{SubnetIds: []string{"subnet-0123456789abcdef0"}, SecurityGroupIds: []string{c.group}}
		})},
		{"CreateWithUnknownGroup", inVPC("diff-unknown-group", func(c *functions) *types.VpcConfig {
			return &types.VpcConfig{SubnetIds: []string{c.subnet}, SecurityGroupIds: []string{"sg-0123456789abcdef0"}}
		})},
		{"CreateWithGroupOfAnotherVpc", inVPC("diff-group-abroad", func(c *functions) *types.VpcConfig {
			return &types.VpcConfig{SubnetIds: []string{c.subnet}, SecurityGroupIds: []string{c.abroad}}
		})},
		{"CreateWithSubnetsOnly", inVPC("diff-subnets-only", func(c *functions) *types.VpcConfig {
			return &types.VpcConfig{SubnetIds: []string{c.subnet}}
		})},
		{"GetFunction", get(nil)},
		{"GetVersion1", get(aws.String("1"))},
		{"GetUnknownVersion", get(aws.String("9"))},
		{"UpdateWithStaleRevision", func(c *functions) outcome {
			_, err := c.lambda.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: name, MemorySize: aws.Int32(256),
				RevisionId: aws.String("00000000-0000-4000-8000-000000000000")})
			return observe(err, nil)
		}},
		{"UpdateConfiguration", func(c *functions) outcome {
			c.settle()
			out, err := c.lambda.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: name, MemorySize: aws.Int32(256),
				Description: aws.String("orders API")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"memory": strconv.Itoa(int(aws.ToInt32(out.MemorySize))), "description": aws.ToString(out.Description)})
		}},
		{"UpdateWhileUpdating", func(c *functions) outcome {
			_, err := c.lambda.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: name, Timeout: aws.Int32(30)})
			return observe(err, nil)
		}},
		{"PublishVersion", publish(&lambda.PublishVersionInput{FunctionName: name})},
		{"PublishUnchanged", publish(&lambda.PublishVersionInput{FunctionName: name})},
		{"PublishOtherCodeSha256", publish(&lambda.PublishVersionInput{FunctionName: name, CodeSha256: aws.String("c3RhbGU=")})},
		{"UpdateCodeAndPublish", func(c *functions) outcome {
			c.settle()
			out, err := c.lambda.UpdateFunctionCode(ctx, &lambda.UpdateFunctionCodeInput{FunctionName: name, S3Bucket: bucket, S3Key: key, Publish: true})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"version": aws.ToString(out.Version), "shaOfPackage": strconv.FormatBool(aws.ToString(out.CodeSha256) == archiveSha)})
		}},
		{"ListVersions", versions},
		{"ListVersionsPage", func(c *functions) outcome {
			out, err := c.lambda.ListVersionsByFunction(ctx, &lambda.ListVersionsByFunctionInput{FunctionName: name, MaxItems: aws.Int32(2)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"page": strconv.Itoa(len(out.Versions)), "more": strconv.FormatBool(out.NextMarker != nil)})
		}},
		{"DeleteVersion2", func(c *functions) outcome {
			_, err := c.lambda.DeleteFunction(ctx, &lambda.DeleteFunctionInput{FunctionName: name, Qualifier: aws.String("2")})
			return observe(err, nil)
		}},
		{"ListVersionsAfterDelete", versions},
		{"PutConcurrency", concurrency(100)},
		{"GetConcurrency", getConcurrency},
		{"GetFunctionWithConcurrency", get(nil)},
		{"PutConcurrencyBeyondUnreserved", concurrency(901)},
		{"DeleteConcurrency", func(c *functions) outcome {
			_, err := c.lambda.DeleteFunctionConcurrency(ctx, &lambda.DeleteFunctionConcurrencyInput{FunctionName: name})
			return observe(err, nil)
		}},
		{"GetConcurrencyAfterDelete", getConcurrency},
		{"CreateFunctionURL", createURL},
		{"CreateFunctionURLAgain", createURL},
		{"UpdateFunctionURL", func(c *functions) outcome {
			out, err := c.lambda.UpdateFunctionUrlConfig(ctx, &lambda.UpdateFunctionUrlConfigInput{FunctionName: name, AuthType: types.FunctionUrlAuthTypeAwsIam})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, urlFields(aws.ToString(out.FunctionUrl), string(out.AuthType), string(out.InvokeMode)))
		}},
		{"GetFunctionURL", getURL},
		{"ListFunctionURLs", func(c *functions) outcome {
			out, err := c.lambda.ListFunctionUrlConfigs(ctx, &lambda.ListFunctionUrlConfigsInput{FunctionName: name})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"urls": strconv.Itoa(len(out.FunctionUrlConfigs))})
		}},
		{"DeleteFunctionURL", func(c *functions) outcome {
			_, err := c.lambda.DeleteFunctionUrlConfig(ctx, &lambda.DeleteFunctionUrlConfigInput{FunctionName: name})
			return observe(err, nil)
		}},
		{"GetDeletedFunctionURL", getURL},
		{"GetPolicyOfNone", getPolicy},
		{"AddPermission", addPermission},
		{"AddPermissionAgain", addPermission},
		{"AddS3Permission", func(c *functions) outcome {
			_, err := c.lambda.AddPermission(ctx, &lambda.AddPermissionInput{FunctionName: name, StatementId: aws.String("s3"), Action: aws.String("lambda:InvokeFunction"),
				Principal: aws.String("s3.amazonaws.com"), SourceArn: aws.String("arn:aws:s3:::diff-lambda-code")})
			return observe(err, nil)
		}},
		{"GetPolicy", getPolicy},
		{"RemovePermission", removePermission("FunctionURLAllowPublicAccess")},
		{"RemoveMissingPermission", removePermission("nope")},
		{"GetPolicyAfterRemove", getPolicy},
		{"ListTags", func(c *functions) outcome {
			fn, err := c.lambda.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: name})
			if err != nil {
				return observe(err, nil)
			}
			out, err := c.lambda.ListTags(ctx, &lambda.ListTagsInput{Resource: fn.Configuration.FunctionArn})
			if err != nil {
				return observe(err, nil)
			}
			keys := slices.Sorted(func(yield func(string) bool) {
				for k := range out.Tags {
					if !yield(k + "=" + out.Tags[k]) {
						return
					}
				}
			})
			return observe(nil, map[string]string{"tags": strings.Join(keys, ",")})
		}},
		{"DeleteFunction", func(c *functions) outcome {
			_, err := c.lambda.DeleteFunction(ctx, &lambda.DeleteFunctionInput{FunctionName: name})
			return observe(err, nil)
		}},
		{"GetDeletedFunction", get(nil)},
		{"GetVersionOfDeletedFunction", get(aws.String("1"))},
		// Last, as moto loses the function's $LATEST where AWS refuses.
		{"DeleteLatest", func(c *functions) outcome {
			_, err := c.lambda.DeleteFunction(ctx, &lambda.DeleteFunctionInput{FunctionName: aws.String("diff-from-s3"), Qualifier: aws.String("$LATEST")})
			return observe(err, nil)
		}},
	}
}

// createMotoRole creates lambdaRole in moto's IAM with a signed IAM query request: moto's Lambda
// refuses a role that does not exist, and the emulator module has no IAM client.
func createMotoRole(t *testing.T, peerURL string) {
	t.Helper()
	trust := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"lambda.amazonaws.com"},"Action":"sts:AssumeRole"}]}`
	form := url.Values{"Action": {"CreateRole"}, "Version": {"2010-05-08"}, "RoleName": {"diff-lambda"}, "AssumeRolePolicyDocument": {trust}}.Encode()
	req, err := http.NewRequest(http.MethodPost, peerURL+"/", strings.NewReader(form))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	creds, err := credentials.NewStaticCredentialsProvider(accessKey, secretKey, "").Retrieve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	payload := sha256.Sum256([]byte(form))
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, req, hex.EncodeToString(payload[:]), "iam", "us-east-1", time.Now()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if body, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK {
		t.Fatalf("creating the role in moto's IAM: %s: %s", resp.Status, body)
	}
}

// TestLambdaAgainstMoto compares Lambda functions, versions, concurrency, URLs and permissions
// with moto's Lambda.
func TestLambdaAgainstMoto(t *testing.T) {
	// moto enforces the account's concurrency limit only when told it.
	peerURL := motoPeer(t, "MOTO_LAMBDA_CONCURRENCY_QUOTA=1000")
	createMotoRole(t, peerURL)
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	side := func(url string, settle func()) *functions {
		cfg := sdkConfig(t, url)
		return &functions{lambda: lambda.NewFromConfig(cfg), s3: s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true }), ec2: ec2.NewFromConfig(cfg),
			settle: settle}
	}
	// moto has no transitions, RevisionIds or update conflicts: its functions are Active and
	// updated at once, where AWS takes time and refuses a second update meanwhile
	// (UpdateFunctionConfiguration: ResourceConflictException).
	const noURLs = "moto 5.2.1 writes function URLs without the trailing slash and with InvokeMode Buffered; AWS answers https://<id>.lambda-url.<region>.on.aws/ and BUFFERED (the InvokeMode enum)"
	const noVPCLookup = "moto 5.2.1 does not look VpcConfig up in its EC2; AWS answers InvalidParameterValueException"
	const duplicateSid = "moto adds a statement whose id the policy already has; AWS answers ResourceConflictException (AddPermission), so its policy holds the id once"
	compare(t, side(emu.URL, func() { e.Clock.Advance(time.Minute) }), side(peerURL, func() {}), "moto "+motoVersion, lambdaSteps(t), map[string]string{
		"CreateFromMissingS3Key":      "moto creates a function from an S3 key that does not exist; AWS answers InvalidParameterValueException (Error occurred while GetObject. S3 Error Code: NoSuchKey)",
		"CreateFromMissingS3Version":  "moto ignores S3ObjectVersion; AWS reads that version of the object and answers InvalidParameterValueException when it does not exist",
		"CreateImageWithRuntime":      "moto accepts Runtime and Handler for an image function; AWS answers InvalidParameterValueException (they are for .zip packages only)",
		"CreateZipWithoutHandler":     "moto creates a .zip function without a handler; AWS requires Runtime and Handler for .zip packages (CreateFunction) and answers InvalidParameterValueException",
		"CreateMalformedLayer":        "moto fails with HTTP 500 on a layer that is not a layer version ARN; AWS answers ValidationException (the Layers pattern)",
		"CreateDeadLetterToS3":        "moto accepts any dead-letter target; AWS takes an SQS queue or SNS topic ARN only (DeadLetterConfig) and answers InvalidParameterValueException",
		"CreateInVpc":                 "moto reports the fixed VpcId vpc-123abc; AWS reports the VPC of the function's subnets (VpcConfigResponse)",
		"CreateInUnknownSubnet":       noVPCLookup + " (Error occurred while DescribeSubnets. EC2 Error Code: InvalidSubnetID.NotFound)",
		"CreateWithUnknownGroup":      noVPCLookup + " (Error occurred while DescribeSecurityGroups. EC2 Error Code: InvalidGroup.NotFound)",
		"CreateWithGroupOfAnotherVpc": noVPCLookup + " (Security Groups are required to be in the same VPC)",
		"CreateWithSubnetsOnly":       "moto fails with HTTP 500 on subnets without security groups; AWS answers InvalidParameterValueException (SubnetIds and SecurityIds must coexist or be both empty list.)",
		"UpdateWithStaleRevision":     "moto ignores RevisionId; AWS answers PreconditionFailedException when it is not the function's current one",
		"UpdateWhileUpdating":         "moto updates at once and never refuses; AWS answers ResourceConflictException while the previous update is InProgress",
		"PublishOtherCodeSha256":      "moto ignores PublishVersion's CodeSha256; AWS refuses to publish when it is not $LATEST's (InvalidParameterValueException)",
		"ListVersionsPage":            "moto ignores MaxItems and answers every version at once; AWS pages ListVersionsByFunction by MaxItems with NextMarker",
		"CreateFunctionURL":           noURLs,
		"CreateFunctionURLAgain":      "moto replaces the function's URL; AWS allows one and answers ResourceConflictException (FunctionUrlConfig exists for this Lambda function)",
		"UpdateFunctionURL":           noURLs,
		"GetFunctionURL":              noURLs,
		"ListFunctionURLs":            "moto 5.2.1 does not implement ListFunctionUrlConfigs (HTTP 404)",
		"AddPermission":               "moto leaves out the lambda:FunctionUrlAuthType condition that AWS writes for FunctionUrlAuthType",
		"AddPermissionAgain":          duplicateSid,
		"GetPolicy":                   duplicateSid,
		"GetPolicyAfterRemove":        duplicateSid + "; RemovePermission then removes one of the two",
		"DeleteLatest":                "moto deletes $LATEST; AWS answers InvalidParameterValueException ($LATEST version cannot be deleted without deleting the function)",
	})
}
