package data_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/data"
	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestBinary builds the data-operator binary and runs it, as a Deployment would, against a
// real control plane and the AWS emulator: a DynamoDBTable becomes Ready, the AWS call metrics
// count the calls, and the binary exits cleanly on SIGTERM.
func TestBinary(t *testing.T) {
	kubetest.RunBinaryCheck(t, kubetest.BinaryCheck{
		Family: data.Family(),
		AWS:    emulator.New(emulator.Options{}),
		Object: func(ns string) shared.Managed {
			tbl := &v1alpha1.DynamoDBTable{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "events"}}
			tbl.Spec.ProviderRef.Name = "aws"
			tbl.Spec.TableName = "events"
			tbl.Spec.HashKey = v1alpha1.DynamoDBAttribute{Name: "id", Type: "S"}
			return tbl
		},
		Metrics: []string{
			`infra_operator_aws_api_calls_total{operation="CreateTable",outcome="success",service="DynamoDB"} 1`,
			`infra_operator_resources{kind="DynamoDBTable",ready="true"} 1`,
		},
	})
}
