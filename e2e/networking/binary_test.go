package networking_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/networking"
	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestBinary builds the networking-operator binary and runs it, as a Deployment would, against
// a real control plane and the AWS emulator: a VPC becomes Ready, the AWS call metrics count
// the calls, and the binary exits cleanly on SIGTERM.
func TestBinary(t *testing.T) {
	kubetest.RunBinaryCheck(t, kubetest.BinaryCheck{
		Family: networking.Family(),
		AWS:    emulator.New(emulator.Options{}),
		Object: func(ns string) shared.Managed {
			vpc := &v1alpha1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "main"}}
			vpc.Spec.ProviderRef.Name = "aws"
			vpc.Spec.CIDRBlock = "10.0.0.0/16"
			return vpc
		},
		Metrics: []string{
			`infra_operator_aws_api_calls_total{operation="CreateVpc",outcome="success",service="EC2"} 1`,
			`infra_operator_resources{kind="VPC",ready="true"} 1`,
		},
	})
}
