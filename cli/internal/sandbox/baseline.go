package sandbox

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/runner-codes/infra-operator/shared/sdkhttp"
)

// The sandbox's emulated account starts with what the seed examples assume the account already
// has and no infra-operator kind manages yet: a DB subnet group and a DB parameter group, named
// as in examples/data, and the Lambda deployment packages examples/compute deploys.
const (
	// SeedAccount is the account the seed examples' ARNs name (arn:aws:sqs:...:123456789012:...);
	// the sandbox's access key belongs to it.
	SeedAccount = "123456789012"

	baselineSubnetGroup    = "production-db-subnet-group"
	baselineParameterGroup = "custom-mysql-params"
)

// baselinePackages are the buckets and keys of the Lambda deployment packages the seed
// examples name.
var baselinePackages = [][2]string{{"my-lambda-code", "api-handler/v1.0.0.zip"}, {"lambda-code", "api-handler.zip"}}

// seedBaseline creates the baseline resources in the emulator through the AWS SDK.
func seedBaseline(ctx context.Context, endpoint, region string) error {
	cfg := aws.Config{
		Region:       region,
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDSANDBOX", "sandbox", ""),
		BaseEndpoint: aws.String(endpoint),
		HTTPClient:   sdkhttp.Client(),
	}
	if err := seedPackages(ctx, s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true })); err != nil {
		return err
	}
	c := rds.NewFromConfig(cfg)
	if _, err := c.CreateDBSubnetGroup(ctx, &rds.CreateDBSubnetGroupInput{
		DBSubnetGroupName:        aws.String(baselineSubnetGroup),
		DBSubnetGroupDescription: aws.String("sandbox baseline for the seed examples"),
		SubnetIds:                []string{"subnet-0a000000000000001", "subnet-0a000000000000002"},
	}); err != nil {
		return fmt.Errorf("create the sandbox's DB subnet group %s: %w", baselineSubnetGroup, err)
	}
	if _, err := c.CreateDBParameterGroup(ctx, &rds.CreateDBParameterGroupInput{
		DBParameterGroupName:   aws.String(baselineParameterGroup),
		DBParameterGroupFamily: aws.String("mysql8.0"),
		Description:            aws.String("sandbox baseline for the seed examples"),
	}); err != nil {
		return fmt.Errorf("create the sandbox's DB parameter group %s: %w", baselineParameterGroup, err)
	}
	return nil
}

// seedPackages puts a small Python deployment package at each of baselinePackages.
func seedPackages(ctx context.Context, c *s3.Client) error {
	pkg, err := handlerPackage()
	if err != nil {
		return err
	}
	for _, p := range baselinePackages {
		if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(p[0])}); err != nil {
			return fmt.Errorf("create the sandbox's bucket %s: %w", p[0], err)
		}
		if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(p[0]), Key: aws.String(p[1]), Body: bytes.NewReader(pkg)}); err != nil {
			return fmt.Errorf("put the sandbox's deployment package s3://%s/%s: %w", p[0], p[1], err)
		}
	}
	return nil
}

// handlerPackage returns a zip holding index.py with the handlers the examples name
// (index.lambda_handler and index.handler).
func handlerPackage() ([]byte, error) {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	f, err := w.Create("index.py")
	if err == nil {
		_, err = f.Write([]byte("def lambda_handler(event, context):\n    return {'statusCode': 200}\n\n\nhandler = lambda_handler\n"))
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("build the sandbox's deployment package: %w", err)
	}
	return buf.Bytes(), nil
}
