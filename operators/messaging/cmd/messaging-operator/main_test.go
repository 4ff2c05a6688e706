package main

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging/crds"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestBinary builds the messaging-operator binary and runs it, as a Deployment would, against a
// real control plane and the AWS emulator: an SQSQueue becomes Ready, the AWS call metrics
// count the calls, and the binary exits cleanly on SIGTERM.
func TestBinary(t *testing.T) {
	env := testenv.Start(t, testenv.Options{
		CRDs:        []fs.FS{crds.FS()},
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme},
		AWS:         emulator.New(emulator.Options{}),
	})
	metrics, probes := testenv.FreeAddress(t), testenv.FreeAddress(t)
	bin := testenv.RunBinary(t, ".",
		"--kubeconfig", env.Kubeconfig(t),
		"--metrics-bind-address", metrics,
		"--health-probe-bind-address", probes,
		"--wait-interval", "500ms",
		"--log-format", "json")
	bin.WaitOK("http://" + probes + "/readyz")

	ns := env.Namespace(t)
	env.Provider(t, ns, "aws", "AKIDBINARY", "binary-secret")
	queue := &v1alpha1.SQSQueue{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "events"}}
	queue.Spec.ProviderRef.Name = "aws"
	queue.Spec.QueueName = "events"
	if err := env.Client.Create(context.Background(), queue); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 60*time.Second, func() string {
		if err := env.Client.Get(context.Background(), client.ObjectKeyFromObject(queue), queue); err != nil {
			return err.Error()
		}
		if !meta.IsStatusConditionTrue(queue.Status.Conditions, "Ready") {
			return "not Ready: " + strings.TrimSpace(strings.Join(kubetest.ConditionTexts(queue.Status.Conditions), "; ")) + "\nlogs:\n" + bin.Logs()
		}
		return ""
	})
	body := testenv.Get(t, "http://"+metrics+"/metrics")
	for _, want := range []string{
		`infra_operator_aws_api_calls_total{operation="CreateQueue",outcome="success",service="SQS"} 1`,
		`infra_operator_resources{kind="SQSQueue",ready="true"} 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	bin.Stop()
}
