package messaging_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/messaging"
	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestBinary builds the messaging-operator binary and runs it, as a Deployment would, against
// a real control plane and the AWS emulator: an SQSQueue becomes Ready, the AWS call metrics
// count the calls, and the binary exits cleanly on SIGTERM.
func TestBinary(t *testing.T) {
	kubetest.RunBinaryCheck(t, kubetest.BinaryCheck{
		Family: messaging.Family(),
		AWS:    emulator.New(emulator.Options{}),
		Object: func(ns string) shared.Managed {
			queue := &v1alpha1.SQSQueue{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "events"}}
			queue.Spec.ProviderRef.Name = "aws"
			queue.Spec.QueueName = "events"
			return queue
		},
		Metrics: []string{
			`infra_operator_aws_api_calls_total{operation="CreateQueue",outcome="success",service="SQS"} 1`,
			`infra_operator_resources{kind="SQSQueue",ready="true"} 1`,
		},
	})
}
