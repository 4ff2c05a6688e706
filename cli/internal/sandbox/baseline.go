package sandbox

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/shared/sdkhttp"
)

// The sandbox's emulated account starts with what the seed examples assume the account already
// has and no infra-operator kind manages yet: a DB subnet group and a DB parameter group, named
// as in examples/data.
const (
	// SeedAccount is the account the seed examples' ARNs name (arn:aws:sqs:...:123456789012:...);
	// the sandbox's access key belongs to it.
	SeedAccount = "123456789012"

	baselineSubnetGroup    = "production-db-subnet-group"
	baselineParameterGroup = "custom-mysql-params"
)

// seedBaseline creates the baseline resources in the emulator through the AWS SDK.
func seedBaseline(ctx context.Context, endpoint, region string) error {
	c := rds.NewFromConfig(aws.Config{
		Region:       region,
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDSANDBOX", "sandbox", ""),
		BaseEndpoint: aws.String(endpoint),
		HTTPClient:   sdkhttp.Client(),
	})
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
