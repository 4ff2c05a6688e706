package messaging_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/messaging"
	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/security"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// Test credentials for the emulator: the key belongs to the account the seed examples' ARNs
// name.
const (
	testAccessKey = "AKIDMESSAGINGTEST"
	testSecretKey = "messaging-test-secret"
	testAccount   = "123456789012"
)

// harness is a control plane, an emulated AWS and the messaging family's controllers (with the
// security family's, for KMSKeys, when started by startWithKeys).
type harness struct {
	t   testing.TB
	env *testenv.Env
	emu *emulator.Server
	sqs *sqs.Client
	sns *sns.Client
}

// start starts the harness with short waits.
func start(t testing.TB) *harness {
	t.Helper()
	return startWith(t, shortWaits)
}

// shortWaits is the operator's options of tests: short waits, so that tests do not sleep for
// the production intervals.
func shortWaits(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond }

// startWithKeys starts the harness with short waits and the security family too, whose
// KMSKeys the kmsKeyRef fields name.
func startWithKeys(t testing.TB) *harness {
	t.Helper()
	return launch(t, shortWaits, true)
}

// startWith starts the control plane with the messaging family's CRDs, the emulator (whose
// test key belongs to account 123456789012) and the family's controllers with the operator's
// options as tune leaves them.
func startWith(t testing.TB, tune func(*operator.Options)) *harness {
	t.Helper()
	return launch(t, tune, false)
}

// launch is startWith, with the security family's CRDs and controllers as well when keys is
// set.
func launch(t testing.TB, tune func(*operator.Options), keys bool) *harness {
	t.Helper()
	emu := emulator.New(emulator.Options{Accounts: map[string]string{testAccessKey: testAccount}})
	run := []operator.Family{messaging.Family()}
	if keys {
		run = append(run, security.Family())
	}
	env := families.Start(t, emu, tune, run...)
	cfg := env.AWSConfig(testAccessKey, testSecretKey)
	return &harness{t: t, env: env, emu: emu, sqs: sqs.NewFromConfig(cfg), sns: sns.NewFromConfig(cfg)}
}

// provider creates a Secret with the test keys and an AWSProvider named name in ns.
func (h *harness) provider(ns, name string) {
	h.t.Helper()
	h.env.Provider(h.t, ns, name, testAccessKey, testSecretKey)
}

// namespace creates a namespace with the AWSProvider "aws" in it.
func (h *harness) namespace() string {
	h.t.Helper()
	ns := h.env.Namespace(h.t)
	h.provider(ns, "aws")
	return ns
}

// create creates o, failing the test when the API server refuses it.
func (h *harness) create(o client.Object) {
	h.t.Helper()
	kubetest.Create(h.t, h.env.Client, o)
}

// seed applies the seed example file of examples/messaging into namespace ns.
func (h *harness) seed(file, ns string) []*unstructured.Unstructured {
	h.t.Helper()
	return kubetest.ApplySeed(h.t, h.env.Client, filepath.Join("..", "..", "examples", "messaging", file), ns)
}

// calls returns how many calls the emulator answered for service, by operation.
func (h *harness) calls(service string) map[string]int {
	return kubetest.Calls(h.emu.Calls.Snapshot(), service)
}

// queue returns an SQSQueue named name in ns with the given queue name.
func queue(ns, name, queueName string) *v1alpha1.SQSQueue {
	q := &v1alpha1.SQSQueue{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	q.Spec.ProviderRef.Name = "aws"
	q.Spec.QueueName = queueName
	q.Spec.FifoQueue = filepath.Ext(queueName) == ".fifo"
	return q
}

// topic returns an SNSTopic named name in ns with the given topic name.
func topic(ns, name, topicName string) *v1alpha1.SNSTopic {
	t := &v1alpha1.SNSTopic{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	t.Spec.ProviderRef.Name = "aws"
	t.Spec.TopicName = topicName
	t.Spec.FifoTopic = filepath.Ext(topicName) == ".fifo"
	return t
}

// attributes returns every attribute of the queue with the given URL.
func (h *harness) attributes(url string) map[string]string {
	h.t.Helper()
	out, err := h.sqs.GetQueueAttributes(context.Background(), &sqs.GetQueueAttributesInput{QueueUrl: aws.String(url),
		AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameAll}})
	if err != nil {
		h.t.Fatalf("get the attributes of %s: %v", url, err)
	}
	return out.Attributes
}

// sqsQueueURL creates a queue through the SDK, outside the operator, and returns its URL.
func (h *harness) sqsQueueURL(name string, attrs map[string]string) string {
	h.t.Helper()
	out, err := h.sqs.CreateQueue(context.Background(), &sqs.CreateQueueInput{QueueName: aws.String(name), Attributes: attrs})
	if err != nil {
		h.t.Fatalf("create queue %s: %v", name, err)
	}
	return aws.ToString(out.QueueUrl)
}

// confirmationTokens returns the confirmation tokens of the pending subscriptions, by
// endpoint, from the emulator's state (AWS would send them to the endpoint).
func (h *harness) confirmationTokens() map[string]string {
	h.t.Helper()
	resp, err := http.Get(h.env.AWSEndpoint + "/_emulator/state")
	if err != nil {
		h.t.Fatalf("read the emulator's state: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var state map[string]json.RawMessage
	var topics map[string]json.RawMessage
	if err := json.Unmarshal(body, &state); err != nil || json.Unmarshal(state["SNS"], &topics) != nil {
		h.t.Fatalf("decode the emulator's state: %v\n%s", err, body)
	}
	out := map[string]string{}
	for _, raw := range topics {
		var attrs map[string]string
		if json.Unmarshal(raw, &attrs) == nil && attrs["ConfirmationToken"] != "" {
			out[attrs["Endpoint"]] = attrs["ConfirmationToken"]
		}
	}
	return out
}

// waitReady waits until o is Ready for its current generation.
func waitReady[O shared.Managed](h *harness, o O) O {
	h.t.Helper()
	return kubetest.WaitReady(h.t, h.env.Client, o)
}

// waitFor polls o until ok holds.
func waitFor[O shared.Managed](h *harness, o O, what string, ok func(O) bool) O {
	h.t.Helper()
	return kubetest.WaitFor(h.t, h.env.Client, o, kubetest.Timeout, what, ok)
}
