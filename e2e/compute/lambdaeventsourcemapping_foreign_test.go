package compute_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/compute"
	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging"
	messagingv1 "github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestLambdaEventSourceMappingForeignSource tries, as a hostile tenant would, to consume a
// queue its namespace does not own by naming it by ARN: the mapping is refused with
// ForeignWriteNotAllowed before any Lambda write, and is created once the administrator lets
// the namespace write into resources it does not own.
func TestLambdaEventSourceMappingForeignSource(t *testing.T) {
	for _, allowed := range []bool{false, true} {
		h := startWith(t, testTransitions, func(o *operator.Options) {
			o.WaitInterval = 200 * time.Millisecond
			if allowed {
				o.ForeignWriteNamespaces = []string{"*"}
			}
		})
		ns := h.env.Namespace(t)
		h.provider(t, ns, "aws")
		function, queue := h.mappingSources(t, ns+"-consumer", ns+"-victim")
		m := mappingExample(t, ns)
		spec := m.Object["spec"].(map[string]any)
		delete(spec, "functionRef")
		delete(spec, "queueRef")
		spec["providerRef"] = map[string]any{"name": "aws"}
		spec["functionName"], spec["eventSourceARN"] = function, queue
		h.emu.Calls.Reset()
		kubetest.Create(t, h.c, m)
		o := &v1alpha1.LambdaEventSourceMapping{}
		o.SetNamespace(ns)
		o.SetName(m.GetName())
		if !allowed {
			kubetest.WaitCondition(t, h.c, o, condition.TypeSynced, "False", condition.ReasonForeignWriteNotAllowed)
			if n := kubetest.Calls(h.emu.Calls.Snapshot(), "Lambda")["CreateEventSourceMapping"]; n != 0 {
				t.Errorf("a mapping of a foreign queue made %d CreateEventSourceMapping calls", n)
			}
			continue
		}
		kubetest.WaitReady(t, h.c, o)
	}
}

// TestLambdaEventSourceMappingForeignFunction tries to attach the namespace's own queue (a
// real SQSQueue of the messaging family) to a function the namespace does not own, named by
// name: the mapping is refused with ForeignWriteNotAllowed before any Lambda write.
func TestLambdaEventSourceMappingForeignFunction(t *testing.T) {
	emu := emulator.New(emulator.Options{Transitions: testTransitions, Accounts: map[string]string{testAccessKey: seedAccount}})
	env := families.Start(t, emu, func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond }, compute.Family(), messaging.Family())
	cfg := env.AWSConfig(testAccessKey, testSecretKey)
	h := &harness{env: env, emu: emu, lambda: lambda.NewFromConfig(cfg), s3: s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true }), c: env.Client}
	ns := env.Namespace(t)
	h.provider(t, ns, "aws")
	function, _ := h.mappingSources(t, ns+"-foreign", ns+"-unused")
	q := &messagingv1.SQSQueue{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "own"}}
	q.Spec.ProviderRef.Name, q.Spec.QueueName = "aws", ns+"-own"
	kubetest.Create(t, h.c, q)
	kubetest.WaitReady(t, h.c, q)

	m := mappingExample(t, ns)
	spec := m.Object["spec"].(map[string]any)
	delete(spec, "functionRef")
	spec["providerRef"] = map[string]any{"name": "aws"}
	spec["functionName"], spec["queueRef"] = function, map[string]any{"name": "own"}
	h.emu.Calls.Reset()
	kubetest.Create(t, h.c, m)
	o := &v1alpha1.LambdaEventSourceMapping{}
	o.SetNamespace(ns)
	o.SetName(m.GetName())
	got := kubetest.WaitCondition(t, h.c, o, condition.TypeSynced, "False", condition.ReasonForeignWriteNotAllowed)
	if msg := meta.FindStatusCondition(got.Status.Conditions, condition.TypeSynced).Message; !strings.Contains(msg, "Lambda function "+function) {
		t.Errorf("the refusal %q does not name the function", msg)
	}
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "Lambda")["CreateEventSourceMapping"]; n != 0 {
		t.Errorf("a mapping to a foreign function made %d CreateEventSourceMapping calls", n)
	}
}
