package networking_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPolicies runs the shared policy check on a VPC: its outputs in a ConfigMap, DNS
// hostnames turned off outside the operator reported (driftPolicy Report) and then turned on
// again (Enforce), and a second object that only observes the VPC.
func TestPolicies(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	kubetest.RunPolicyCheck(t, h.c, kubetest.PolicyCheck[*v1alpha1.VPC]{
		New: func(name string) *v1alpha1.VPC {
			v := &v1alpha1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
			v.Spec.ProviderRef.Name, v.Spec.CIDRBlock = "aws", "10.42.0.0/16"
			v.Spec.EnableDNSSupport, v.Spec.EnableDNSHostnames = aws.Bool(true), aws.Bool(true)
			v.Spec.Tags = map[string]string{"team": "networking"}
			return v
		},
		Outputs: []string{"vpcID", "cidrBlock"},
		Drift: func(ctx context.Context, v *v1alpha1.VPC) error {
			_, err := h.ec2.ModifyVpcAttribute(ctx, &ec2.ModifyVpcAttributeInput{VpcId: aws.String(v.Status.VPCID),
				EnableDnsHostnames: &types.AttributeBooleanValue{Value: aws.Bool(false)}})
			return err
		},
		DriftField: "enableDnsHostnames",
		Drifted: func(ctx context.Context, v *v1alpha1.VPC) (bool, error) {
			out, err := h.ec2.DescribeVpcAttribute(ctx, &ec2.DescribeVpcAttributeInput{VpcId: aws.String(v.Status.VPCID),
				Attribute: types.VpcAttributeNameEnableDnsHostnames})
			if err != nil {
				return false, err
			}
			return !aws.ToBool(out.EnableDnsHostnames.Value), nil
		},
		Exists: func(ctx context.Context, v *v1alpha1.VPC) (bool, error) {
			out, err := h.ec2.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{VpcIds: []string{v.Status.VPCID}})
			if found, err := kubetest.Found(err); !found {
				return false, err
			}
			return len(out.Vpcs) == 1 && out.Vpcs[0].State != "deleted", nil
		},
	})
}
