// Package awsfixture creates, through the AWS SDK, what the seed examples expect to exist in
// AWS before they are applied and that no kind of theirs makes: the deployment package of a
// Lambda function in S3, and a subnet and a security group for the ids a seed names (subnet-xxx,
// sg-xxx). The families whose tests apply those examples (compute, and edge, whose APIs invoke
// the seed's Lambda function) share it.
package awsfixture

import (
	"archive/zip"
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Zip returns a zip archive holding one file, name, with content.
func Zip(t testing.TB, name, content string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	f, err := w.Create(name)
	if err == nil {
		_, err = f.Write([]byte(content))
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// LambdaCode puts a small Python deployment package at s3://bucket/key, creating the bucket
// unless the caller already owns it.
func LambdaCode(t testing.TB, c *s3.Client, bucket, key string) {
	t.Helper()
	ctx := context.Background()
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)}); err != nil && !strings.Contains(err.Error(), "BucketAlreadyOwnedByYou") {
		t.Fatalf("create bucket %s: %v", bucket, err)
	}
	if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(Zip(t, "index.py", "def handler(e, c): return 1"))}); err != nil {
		t.Fatalf("put s3://%s/%s: %v", bucket, key, err)
	}
}

// Network creates a VPC of cidr with a subnet of subnetCIDR in us-east-1a and a security group,
// and returns the ids of the subnet and the group.
func Network(t testing.TB, c *ec2.Client, cidr, subnetCIDR string) (subnet, group string) {
	t.Helper()
	ctx := context.Background()
	vpc, err := c.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String(cidr)})
	if err != nil {
		t.Fatal(err)
	}
	sn, err := c.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, CidrBlock: aws.String(subnetCIDR), AvailabilityZone: aws.String("us-east-1a")})
	if err != nil {
		t.Fatal(err)
	}
	sg, err := c.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{VpcId: vpc.Vpc.VpcId, GroupName: aws.String("web-" + subnetCIDR[:6]),
		Description: aws.String("web servers")})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(sn.Subnet.SubnetId), aws.ToString(sg.GroupId)
}
