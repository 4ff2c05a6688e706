package compute_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	lambdatypes "github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/compute"
	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// startMappings starts the compute family with the messaging family, whose SQS queues event
// source mappings read, against an emulator with Lambda's default transitions (1s).
func startMappings(t testing.TB) *harness {
	t.Helper()
	emu := emulator.New(emulator.Options{Accounts: map[string]string{testAccessKey: seedAccount}})
	env := families.Start(t, emu, func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond }, compute.Family(), messaging.Family())
	cfg := env.AWSConfig(testAccessKey, testSecretKey)
	return &harness{env: env, emu: emu, lambda: lambda.NewFromConfig(cfg), c: env.Client,
		s3: s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true })}
}

// mappingExample returns the example's mapping, put in namespace ns.
func mappingExample(t testing.TB, ns string) *unstructured.Unstructured {
	t.Helper()
	objs := kubetest.SeedObjects(t, seedPath("lambdaeventsourcemapping.yaml"))
	objs[0].SetNamespace(ns)
	return objs[0]
}

// mappingSources makes, through the SDK, a function and an SQS queue of those names, as made
// outside the cluster, and returns the function's name and the queue's ARN.
func (h *harness) mappingSources(t testing.TB, function, queue string) (string, string) {
	t.Helper()
	ctx := context.Background()
	h.codeObject(t, "lambda-code", "api-handler.zip")
	if _, err := h.lambda.CreateFunction(ctx, &lambda.CreateFunctionInput{FunctionName: aws.String(function), Runtime: "python3.12",
		Handler: aws.String("index.handler"), Role: aws.String(seedRole),
		Code: &lambdatypes.FunctionCode{S3Bucket: aws.String("lambda-code"), S3Key: aws.String("api-handler.zip")}}); err != nil {
		t.Fatalf("create function %s: %v", function, err)
	}
	queues := sqs.NewFromConfig(h.env.AWSConfig(testAccessKey, testSecretKey))
	q, err := queues.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(queue)})
	if err != nil {
		t.Fatalf("create queue %s: %v", queue, err)
	}
	a, err := queues.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: q.QueueUrl, AttributeNames: []sqstypes.QueueAttributeName{"QueueArn"}})
	if err != nil {
		t.Fatalf("read queue %s: %v", queue, err)
	}
	return function, a.Attributes["QueueArn"]
}

// mapping reads a mapping from Lambda.
func (h *harness) mapping(t testing.TB, uuid string) *lambda.GetEventSourceMappingOutput {
	t.Helper()
	out, err := h.lambda.GetEventSourceMapping(context.Background(), &lambda.GetEventSourceMappingInput{UUID: aws.String(uuid)})
	if err != nil {
		t.Fatalf("get event source mapping %s: %v", uuid, err)
	}
	return out
}

// TestLambdaEventSourceMapping applies examples/compute/lambdaeventsourcemapping.yaml before
// the queue and function it names exist (it waits, with no Lambda call), then the serverless
// stack's queue and function: the mapping becomes Enabled and Ready with the example's
// settings and tags. It changes the batching, the filters and enabled, checks that admission
// refuses a spec naming two sources, a queue with a starting position and a change of the
// source, and that deleting the object deletes the mapping.
func TestLambdaEventSourceMapping(t *testing.T) {
	h := startMappings(t)
	ctx := context.Background()
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	h.codeObject(t, "lambda-code", "api-handler.zip")

	key := metav1.ObjectMeta{Namespace: ns, Name: "processing-queue-to-api-handler"}
	h.emu.Calls.Reset()
	kubetest.Create(t, h.c, mappingExample(t, ns))
	kubetest.WaitCondition(t, h.c, &v1alpha1.LambdaEventSourceMapping{ObjectMeta: key}, "Synced", "False", condition.ReasonReferenceNotFound)
	if n := kubetest.Total(kubetest.Calls(h.emu.Calls.Snapshot(), "Lambda")); n != 0 {
		t.Errorf("waiting for its references, the mapping made %d Lambda calls, want 0", n)
	}

	// The serverless stack: its function (the role's placeholder account made real) and queue.
	fn := kubetest.ApplySeed(t, h.c, seedPath("lambdafunction-serverless.yaml"), ns)
	h.patchSpec(t, fn[0], `{"roleARN":"`+seedRole+`"}`)
	kubetest.ApplySeed(t, h.c, filepath.Join("..", "..", "examples", "messaging", "sqsqueue-serverless.yaml"), ns)

	m := kubetest.WaitReady(t, h.c, &v1alpha1.LambdaEventSourceMapping{ObjectMeta: key})
	s := m.Status
	if s.UUID == "" || s.State != "Enabled" || !strings.HasSuffix(s.FunctionARN, ":function:api-handler") ||
		!strings.HasSuffix(s.EventSourceARN, ":processing-queue") || !strings.Contains(s.EventSourceMappingARN, ":event-source-mapping:"+s.UUID) {
		t.Errorf("status: %+v", s)
	}
	got := h.mapping(t, s.UUID)
	if aws.ToInt32(got.BatchSize) != 10 || len(got.FunctionResponseTypes) != 1 || got.FunctionResponseTypes[0] != "ReportBatchItemFailures" {
		t.Errorf("mapping in Lambda: %+v", got)
	}
	tags, err := h.lambda.ListTags(ctx, &lambda.ListTagsInput{Resource: got.EventSourceMappingArn})
	if err != nil || tags.Tags["Environment"] != "production" || tags.Tags[shared.TagOwnerUID] == "" {
		t.Errorf("tags of the mapping: %v, %v", tags, err)
	}
	list, err := h.lambda.ListEventSourceMappings(ctx, &lambda.ListEventSourceMappingsInput{FunctionName: aws.String("api-handler")})
	if err != nil || len(list.EventSourceMappings) != 1 {
		t.Errorf("the function has %d mappings (%v), want exactly 1", len(list.EventSourceMappings), err)
	}

	// A change of batching, filters and enabled is one UpdateEventSourceMapping; the object is
	// Ready again once the mapping rests Disabled.
	kubetest.Update(t, h.c, m, func(m *v1alpha1.LambdaEventSourceMapping) {
		m.Spec.BatchSize, m.Spec.MaximumBatchingWindowInSeconds = aws.Int32(50), aws.Int32(5)
		m.Spec.FilterCriteria = &v1alpha1.LambdaFilterCriteria{Filters: []v1alpha1.LambdaFilter{{Pattern: `{"body":{"type":["order"]}}`}}}
		m.Spec.Enabled = aws.Bool(false)
	})
	m = kubetest.WaitFor(t, h.c, &v1alpha1.LambdaEventSourceMapping{ObjectMeta: key}, 30*time.Second, "Disabled and Ready", func(m *v1alpha1.LambdaEventSourceMapping) bool {
		return m.Status.State == "Disabled" && m.Status.ObservedGeneration == m.Generation && m.Status.Ready
	})
	got = h.mapping(t, s.UUID)
	if aws.ToInt32(got.BatchSize) != 50 || aws.ToInt32(got.MaximumBatchingWindowInSeconds) != 5 || got.FilterCriteria == nil ||
		len(got.FilterCriteria.Filters) != 1 || aws.ToString(got.State) != "Disabled" {
		t.Errorf("mapping after the update: %+v", got)
	}
	if updates := kubetest.Calls(h.emu.Calls.Snapshot(), "Lambda")["UpdateEventSourceMapping"]; updates != 1 {
		t.Errorf("the change took %d UpdateEventSourceMapping calls, want 1", updates)
	}

	// Admission refuses what cannot work.
	two := mappingExample(t, ns)
	two.SetName("two-sources")
	two.Object["spec"].(map[string]any)["eventSourceARN"] = "arn:aws:sqs:us-east-1:123456789012:other"
	kubetest.MustRefuse(t, h.c, two, "exactly one way")
	positioned := mappingExample(t, ns)
	positioned.SetName("positioned-queue")
	positioned.Object["spec"].(map[string]any)["startingPosition"] = "LATEST"
	kubetest.MustRefuse(t, h.c, positioned, "startingPosition is for streams")
	fifo := mappingExample(t, ns)
	fifo.SetName("fifo-batch")
	delete(fifo.Object["spec"].(map[string]any), "queueRef")
	fifo.Object["spec"].(map[string]any)["eventSourceARN"] = "arn:aws:sqs:us-east-1:123456789012:jobs.fifo"
	fifo.Object["spec"].(map[string]any)["batchSize"] = int64(11)
	kubetest.MustRefuse(t, h.c, fifo, "FIFO queue is at most 10")
	kubetest.MustRefuseUpdate(t, h.c, m, func(m *v1alpha1.LambdaEventSourceMapping) {
		m.Spec.QueueRef, m.Spec.EventSourceARN = nil, "arn:aws:sqs:us-east-1:123456789012:other"
	}, "cannot change")

	kubetest.Delete(t, h.c, m)
	kubetest.WaitGone(t, h.c, m)
	if _, err := h.lambda.GetEventSourceMapping(ctx, &lambda.GetEventSourceMappingInput{UUID: aws.String(s.UUID)}); err == nil || !strings.Contains(err.Error(), "ResourceNotFoundException") {
		t.Errorf("after deletion GetEventSourceMapping gave %v, want ResourceNotFoundException", err)
	}
}
