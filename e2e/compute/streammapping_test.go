package compute_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/compute"
	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data"
	datav1 "github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestLambdaEventSourceMappingTableRef runs a mapping whose source is a DynamoDBTable of the data
// family by reference, through the real API server: while the table has no stream the mapping
// waits (ReferenceNotReady) and makes no Lambda call; once the table's stream is enabled (a new
// streamARN on a table that was Ready all along) the mapping wakes, is created on that stream
// and is Ready.
func TestLambdaEventSourceMappingTableRef(t *testing.T) {
	emu := emulator.New(emulator.Options{Accounts: map[string]string{testAccessKey: seedAccount}})
	env := families.Start(t, emu, func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond }, compute.Family(), data.Family())
	cfg := env.AWSConfig(testAccessKey, testSecretKey)
	h := &harness{env: env, emu: emu, lambda: lambda.NewFromConfig(cfg), c: env.Client,
		s3: s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true })}
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	function, _ := h.mappingSources(t, "orders-stream-handler", "unused-queue")
	// The function is named by name: it carries the namespace's owner tag, as one of its
	// objects would have made it, so the foreign-write rule lets the mapping use it.
	fn, err := h.lambda.GetFunction(context.Background(), &lambda.GetFunctionInput{FunctionName: aws.String(function)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.lambda.TagResource(context.Background(), &lambda.TagResourceInput{Resource: fn.Configuration.FunctionArn,
		Tags: map[string]string{shared.TagOwnerNamespace: ns}}); err != nil {
		t.Fatal(err)
	}

	table := &datav1.DynamoDBTable{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "orders"}}
	table.Spec.ProviderRef.Name = "production-aws"
	table.Spec.TableName, table.Spec.BillingMode = ns+"-orders", "PAY_PER_REQUEST"
	table.Spec.HashKey = datav1.DynamoDBAttribute{Name: "id", Type: "S"}
	kubetest.Create(t, h.c, table)
	kubetest.WaitReady(t, h.c, table)

	m := &v1alpha1.LambdaEventSourceMapping{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "orders-stream"}}
	m.Spec.ProviderRef.Name = "production-aws"
	m.Spec.FunctionName, m.Spec.TableRef, m.Spec.StartingPosition = function, &shared.Reference{Name: "orders"}, "LATEST"
	h.emu.Calls.Reset()
	kubetest.Create(t, h.c, m)
	kubetest.WaitCondition(t, h.c, m, condition.TypeSynced, "False", condition.ReasonReferenceNotReady)
	if calls := kubetest.Calls(h.emu.Calls.Snapshot(), "Lambda"); calls["CreateEventSourceMapping"] != 0 {
		t.Errorf("a mapping whose table has no stream called Lambda: %v", calls)
	}

	kubetest.Update(t, h.c, table, func(o *datav1.DynamoDBTable) {
		o.Spec.Stream = &datav1.DynamoDBStream{Enabled: true, ViewType: "NEW_AND_OLD_IMAGES"}
	})
	table = kubetest.WaitFor(t, h.c, table, kubetest.Timeout, "a stream", func(o *datav1.DynamoDBTable) bool { return o.Status.StreamARN != "" })
	m = kubetest.WaitReady(t, h.c, m)
	if m.Status.EventSourceARN != table.Status.StreamARN {
		t.Errorf("the mapping reads %s, want the table's stream %s", m.Status.EventSourceARN, table.Status.StreamARN)
	}
	got := h.mapping(t, m.Status.UUID)
	if aws.ToString(got.EventSourceArn) != table.Status.StreamARN || got.StartingPosition != "LATEST" {
		t.Errorf("mapping in Lambda: %+v", got)
	}
	kubetest.Delete(t, h.c, m)
	kubetest.WaitGone(t, h.c, m)
	if _, err := h.lambda.GetEventSourceMapping(context.Background(), &lambda.GetEventSourceMappingInput{UUID: aws.String(m.Status.UUID)}); err == nil {
		t.Error("the mapping is still in Lambda after its object was deleted")
	}
}
