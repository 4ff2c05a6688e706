package emulator_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/smithy-go"

	"github.com/runner-codes/infra-operator/emulator"
)

// lambdaNetwork is what functions' VPC configurations name in the emulated EC2: a VPC with two
// subnets and a security group, and a subnet and a group of another VPC.
type lambdaNetwork struct {
	vpc, group                     string
	subnets                        []string
	other, otherSubnet, otherGroup string
}

// newLambdaNetwork creates a lambdaNetwork in the emulator at url, in the account of the
// access key AKID in us-east-1.
func newLambdaNetwork(t *testing.T, url string) lambdaNetwork {
	t.Helper()
	c := ec2.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	n := lambdaNetwork{vpc: createVpc(t, c, "10.0.0.0/16"), other: createVpc(t, c, "10.1.0.0/16")}
	n.subnets = []string{createSubnet(t, c, n.vpc, "10.0.1.0/24"), createSubnet(t, c, n.vpc, "10.0.2.0/24")}
	n.group = createGroup(t, c, n.vpc, "functions")
	n.otherSubnet, n.otherGroup = createSubnet(t, c, n.other, "10.1.1.0/24"), createGroup(t, c, n.other, "elsewhere")
	return n
}

// errorMessage returns the message of an AWS error, or "" for none.
func errorMessage(err error) string {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorMessage()
	}
	return ""
}

// TestLambdaVPCConfiguration checks functions' subnets and security groups against the emulated
// EC2 as Lambda does: they are reported with the VPC they share, moved to another VPC and
// detached by update, and refused with InvalidParameterValueException, on create and update
// alike, when one does not exist, when they span VPCs, or when only one of the lists is given.
func TestLambdaVPCConfiguration(t *testing.T) {
	e, c, url := lambdaEmulator(t)
	ctx := context.Background()
	n := newLambdaNetwork(t, url)
	in := zipFunction(t, "in-vpc")
	in.VpcConfig = &types.VpcConfig{SubnetIds: n.subnets, SecurityGroupIds: []string{n.group}}
	created, err := c.CreateFunction(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(created.VpcConfig.VpcId); got != n.vpc {
		t.Errorf("CreateFunction answered VpcId %q, want the subnets' %s", got, n.vpc)
	}

	const subnetMissing = "Error occurred while DescribeSubnets. EC2 Error Code: InvalidSubnetID.NotFound. EC2 Error Message: The subnet ID 'subnet-0123456789abcdef0' does not exist"
	const groupMissing = "Error occurred while DescribeSecurityGroups. EC2 Error Code: InvalidGroup.NotFound. EC2 Error Message: The security group 'sg-0123456789abcdef0' does not exist"
	refused := map[string]struct {
		vpc  *types.VpcConfig
		want string
	}{
		"UnknownSubnet": {&types.VpcConfig{SubnetIds: []string{n.subnets[0], "subnet-0123456789abcdef0"}, SecurityGroupIds: []string{n.group}}, subnetMissing},
		"UnknownGroup":  {&types.VpcConfig{SubnetIds: n.subnets, SecurityGroupIds: []string{"sg-0123456789abcdef0"}}, groupMissing},
		"GroupOfAnotherVpc": {&types.VpcConfig{SubnetIds: n.subnets, SecurityGroupIds: []string{n.group, n.otherGroup}},
			"Security Groups are required to be in the same VPC"},
		"SubnetsOfTwoVpcs": {&types.VpcConfig{SubnetIds: []string{n.subnets[0], n.otherSubnet}, SecurityGroupIds: []string{n.group}},
			"Subnets are required to be in the same VPC"},
		"SubnetsWithoutGroups": {&types.VpcConfig{SubnetIds: n.subnets}, "SubnetIds and SecurityIds must coexist or be both empty list."},
		"GroupsWithoutSubnets": {&types.VpcConfig{SecurityGroupIds: []string{n.group}}, "SubnetIds and SecurityIds must coexist or be both empty list."},
	}
	for name, tc := range refused {
		t.Run(name, func(t *testing.T) {
			in := zipFunction(t, "refused")
			in.VpcConfig = tc.vpc
			_, err := c.CreateFunction(ctx, in)
			if errorCode(err) != "InvalidParameterValueException" || errorMessage(err) != tc.want {
				t.Errorf("CreateFunction gave %v, want InvalidParameterValueException: %s", err, tc.want)
			}
			_, err = c.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: aws.String("in-vpc"), VpcConfig: tc.vpc})
			if errorCode(err) != "InvalidParameterValueException" || errorMessage(err) != tc.want {
				t.Errorf("UpdateFunctionConfiguration gave %v, want InvalidParameterValueException: %s", err, tc.want)
			}
		})
	}
	if _, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: aws.String("refused")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("a refused function exists: %v", err)
	}

	e.Clock.Advance(2 * time.Second)
	moved := updateVPC(t, c, e, &types.VpcConfig{SubnetIds: []string{n.otherSubnet}, SecurityGroupIds: []string{n.otherGroup}})
	if aws.ToString(moved.VpcId) != n.other || strings.Join(moved.SubnetIds, ",") != n.otherSubnet {
		t.Errorf("moved to another VPC, VpcConfig is %+v; want VpcId %s with subnet %s", moved, n.other, n.otherSubnet)
	}
	unchanged := updateVPC(t, c, e, nil)
	if aws.ToString(unchanged.VpcId) != n.other {
		t.Errorf("an update without VpcConfig changed it to %+v", unchanged)
	}
	if detached := updateVPC(t, c, e, &types.VpcConfig{SubnetIds: []string{}, SecurityGroupIds: []string{}}); detached != nil {
		t.Errorf("empty lists left VpcConfig %+v; want the function detached", detached)
	}
}

// updateVPC updates the VPC configuration of the function in-vpc (and its description, so
// that a nil vpc still makes an update), lets the update finish, and returns the VpcConfig that
// GetFunctionConfiguration then reports.
func updateVPC(t *testing.T, c *lambda.Client, e *emulator.Server, vpc *types.VpcConfig) *types.VpcConfigResponse {
	t.Helper()
	ctx := context.Background()
	if _, err := c.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: aws.String("in-vpc"),
		VpcConfig: vpc, Description: aws.String(e.Clock.Now().String())}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Second)
	cfg, err := c.GetFunctionConfiguration(ctx, &lambda.GetFunctionConfigurationInput{FunctionName: aws.String("in-vpc")})
	if err != nil {
		t.Fatal(err)
	}
	return cfg.VpcConfig
}
