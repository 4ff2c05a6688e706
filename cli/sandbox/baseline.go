package sandbox

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/runner-codes/infra-operator/shared/sdkhttp"
)

// The sandbox's emulated account starts with what the seed examples assume the account already
// has and no infra-operator kind manages yet: a DB subnet group, a DB parameter group and a
// cache subnet group, named as in examples/data and examples/caching, the Lambda deployment
// packages examples/compute deploys, and a VPC for the networking examples that name one by a
// placeholder id without defining it.
const (
	// SeedAccount is the account the seed examples' ARNs name (arn:aws:sqs:...:123456789012:...);
	// the sandbox's access key belongs to it.
	SeedAccount = "123456789012"

	baselineSubnetGroup      = "production-db-subnet-group"
	baselineParameterGroup   = "custom-mysql-params"
	baselineCacheSubnetGroup = "production-cache-subnet-group"
	// baselineVPCCIDR is the block of the sandbox's own VPC: the seed's, which its subnet
	// examples divide into 10.0.1.0/24, 10.0.2.0/24, ...
	baselineVPCCIDR = "10.0.0.0/16"
)

// baselinePackages are the buckets and keys of the Lambda deployment packages the seed
// examples name.
var baselinePackages = [][2]string{{"my-lambda-code", "api-handler/v1.0.0.zip"}, {"lambda-code", "api-handler.zip"}}

// Baseline holds the ids of the emulated account's resources that the examples' placeholder ids
// stand for.
type Baseline struct {
	// DefaultVPC is the id of the region's default VPC (172.31.0.0/16).
	DefaultVPC string
	// DefaultSubnets are the ids of the default VPC's default subnets, in zone order.
	DefaultSubnets []string
	// DefaultSecurityGroup is the id of the default VPC's default security group.
	DefaultSecurityGroup string
	// VPC is the id of the sandbox's own VPC (10.0.0.0/16, an internet gateway attached), for
	// the examples whose subnets name a VPC by a placeholder id and define none.
	VPC string
}

// seedBaseline creates the baseline resources in the emulator through the AWS SDK and returns
// the ids the examples' placeholders stand for.
func seedBaseline(ctx context.Context, endpoint, region string) (Baseline, error) {
	cfg := aws.Config{
		Region:       region,
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDSANDBOX", "sandbox", ""),
		BaseEndpoint: aws.String(endpoint),
		HTTPClient:   sdkhttp.Client(),
	}
	if err := seedPackages(ctx, s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true })); err != nil {
		return Baseline{}, err
	}
	ec := ec2.NewFromConfig(cfg)
	b, err := defaultNetwork(ctx, ec)
	if err != nil {
		return Baseline{}, err
	}
	if b.VPC, err = ownVPC(ctx, ec); err != nil {
		return Baseline{}, err
	}
	if _, err := elasticache.NewFromConfig(cfg).CreateCacheSubnetGroup(ctx, &elasticache.CreateCacheSubnetGroupInput{
		CacheSubnetGroupName:        aws.String(baselineCacheSubnetGroup),
		CacheSubnetGroupDescription: aws.String("sandbox baseline for the seed examples"),
		SubnetIds:                   b.DefaultSubnets,
	}); err != nil {
		return Baseline{}, fmt.Errorf("create the sandbox's cache subnet group %s: %w", baselineCacheSubnetGroup, err)
	}
	return b, seedDatabase(ctx, rds.NewFromConfig(cfg), b.DefaultSubnets)
}

// defaultNetwork reads the ids of the region's default VPC, its default subnets and its default
// security group.
func defaultNetwork(ctx context.Context, c *ec2.Client) (Baseline, error) {
	var b Baseline
	vpcs, err := c.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{Filters: []ec2types.Filter{{Name: aws.String("is-default"), Values: []string{"true"}}}})
	if err != nil {
		return b, fmt.Errorf("find the emulated account's default VPC: %w", err)
	}
	if len(vpcs.Vpcs) != 1 {
		return b, fmt.Errorf("the emulated account has %d default VPCs, want one", len(vpcs.Vpcs))
	}
	b.DefaultVPC = aws.ToString(vpcs.Vpcs[0].VpcId)
	subnets, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{Filters: []ec2types.Filter{
		{Name: aws.String("vpc-id"), Values: []string{b.DefaultVPC}}, {Name: aws.String("default-for-az"), Values: []string{"true"}}}})
	if err != nil {
		return b, fmt.Errorf("find the default subnets of %s: %w", b.DefaultVPC, err)
	}
	slices.SortFunc(subnets.Subnets, func(x, y ec2types.Subnet) int {
		return strings.Compare(aws.ToString(x.AvailabilityZone), aws.ToString(y.AvailabilityZone))
	})
	for _, s := range subnets.Subnets {
		b.DefaultSubnets = append(b.DefaultSubnets, aws.ToString(s.SubnetId))
	}
	if len(b.DefaultSubnets) < 2 {
		return b, fmt.Errorf("the default VPC %s has %d default subnets, want one per availability zone", b.DefaultVPC, len(b.DefaultSubnets))
	}
	groups, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{Filters: []ec2types.Filter{
		{Name: aws.String("vpc-id"), Values: []string{b.DefaultVPC}}, {Name: aws.String("group-name"), Values: []string{"default"}}}})
	if err != nil || len(groups.SecurityGroups) != 1 {
		return b, fmt.Errorf("find the default security group of %s (%d found): %w", b.DefaultVPC, len(groups.SecurityGroups), err)
	}
	b.DefaultSecurityGroup = aws.ToString(groups.SecurityGroups[0].GroupId)
	return b, nil
}

// ownVPC creates the sandbox's own VPC with an internet gateway attached (public NAT gateways
// need one) and returns its id.
func ownVPC(ctx context.Context, c *ec2.Client) (string, error) {
	name := []ec2types.TagSpecification{{ResourceType: ec2types.ResourceTypeVpc, Tags: []ec2types.Tag{{Key: aws.String("Name"), Value: aws.String("sandbox")}}}}
	vpc, err := c.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String(baselineVPCCIDR), TagSpecifications: name})
	if err != nil {
		return "", fmt.Errorf("create the sandbox's VPC: %w", err)
	}
	id := aws.ToString(vpc.Vpc.VpcId)
	igw, err := c.CreateInternetGateway(ctx, &ec2.CreateInternetGatewayInput{})
	if err != nil {
		return "", fmt.Errorf("create the internet gateway of the sandbox's VPC %s: %w", id, err)
	}
	if _, err := c.AttachInternetGateway(ctx, &ec2.AttachInternetGatewayInput{VpcId: aws.String(id), InternetGatewayId: igw.InternetGateway.InternetGatewayId}); err != nil {
		return "", fmt.Errorf("attach an internet gateway to the sandbox's VPC %s: %w", id, err)
	}
	return id, nil
}

// seedDatabase creates the DB subnet group, of subnets, and the DB parameter group the RDS
// examples name.
func seedDatabase(ctx context.Context, c *rds.Client, subnets []string) error {
	if _, err := c.CreateDBSubnetGroup(ctx, &rds.CreateDBSubnetGroupInput{
		DBSubnetGroupName:        aws.String(baselineSubnetGroup),
		DBSubnetGroupDescription: aws.String("sandbox baseline for the seed examples"),
		SubnetIds:                subnets,
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
