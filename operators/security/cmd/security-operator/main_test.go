package main

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/security"
	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestBinary builds the security-operator binary and runs it, as a Deployment would, against a
// real control plane and the AWS emulator: an IAM role becomes Ready (after IAM's propagation
// time), the AWS call metrics count its creation, and the binary exits cleanly on SIGTERM.
func TestBinary(t *testing.T) {
	kubetest.RunBinaryCheck(t, kubetest.BinaryCheck{
		Family: security.Family(),
		AWS:    emulator.New(emulator.Options{}),
		Object: func(ns string) shared.Managed {
			r := &v1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "app"}}
			r.Spec.ProviderRef.Name = "aws"
			r.Spec.RoleName = ns + "-app"
			r.Spec.AssumeRolePolicyDocument = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}]}`
			return r
		},
		Metrics: []string{
			`infra_operator_aws_api_calls_total{operation="CreateRole",outcome="success",service="IAM"} 1`,
			`infra_operator_resources{kind="IAMRole",ready="true"} 1`,
		},
	})
}
