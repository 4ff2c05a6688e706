package compute_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/compute"
	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestBinary builds the compute-operator binary and runs it, as a Deployment would, against a
// real control plane and the AWS emulator: an EC2 instance in a subnet made beforehand becomes
// Ready, the AWS call metrics count the launch, and the binary exits cleanly on SIGTERM.
func TestBinary(t *testing.T) {
	emu := emulator.New(emulator.Options{})
	subnet := subnetIn(t, emu)
	kubetest.RunBinaryCheck(t, kubetest.BinaryCheck{
		Family: compute.Family(),
		AWS:    emu,
		Object: func(ns string) shared.Managed {
			o := &v1alpha1.EC2Instance{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web"}}
			o.Spec.ProviderRef.Name = "aws"
			o.Spec.InstanceType, o.Spec.ImageID, o.Spec.SubnetID = "t3.micro", "ami-0123456789abcdef0", subnet
			return o
		},
		Metrics: []string{
			`infra_operator_aws_api_calls_total{operation="RunInstances",outcome="success",service="EC2"} 1`,
			`infra_operator_resources{kind="EC2Instance",ready="true"} 1`,
		},
	})
}

// subnetIn makes a VPC and a subnet in the emulator (whose accounts every test key shares) and
// returns the subnet's id.
func subnetIn(t *testing.T, emu *emulator.Server) string {
	t.Helper()
	srv := httptest.NewServer(emu)
	defer srv.Close()
	c := ec2.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("AKIDSETUP", "setup", "")})
	ctx := context.Background()
	vpc, err := c.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.0.0.0/16")})
	if err != nil {
		t.Fatal(err)
	}
	sn, err := c.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, CidrBlock: aws.String("10.0.1.0/24")})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(sn.Subnet.SubnetId)
}
