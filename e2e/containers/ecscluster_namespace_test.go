package containers_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// namespaceARN returns the ARN of the default Service Connect namespace of cluster name in ECS.
func (h *harness) namespaceARN(t testing.TB, name string) string {
	t.Helper()
	if d := h.cluster(t, name).ServiceConnectDefaults; d != nil {
		return aws.ToString(d.Namespace)
	}
	return ""
}

// steady resyncs o and fails when the sync calls any of ops of ECS.
func (h *harness) steady(t testing.TB, o *v1alpha1.ECSCluster, ops ...string) {
	t.Helper()
	h.emu.Calls.Reset()
	kubetest.Resync(t, h.c, o)
	testenv.Eventually(t, 30*time.Second, func() string {
		if kubetest.Calls(h.emu.Calls.Snapshot(), "ECS")["DescribeClusters"] == 0 {
			return "no sync yet"
		}
		return ""
	})
	time.Sleep(500 * time.Millisecond)
	calls := kubetest.Calls(h.emu.Calls.Snapshot(), "ECS")
	for _, op := range ops {
		if calls[op] != 0 {
			t.Errorf("a steady sync called %s: %v", op, calls)
		}
	}
}

// TestECSClusterServiceConnectNamespace compares the cluster's Service Connect namespace, which
// ECS reports only as an ARN, with the spec's name or ARN in one form (ARNs): a namespace given
// by name is not set again at every sync; another namespace set behind the operator's back is
// reverted; a namespace given by ARN, and then by name again, is set once each.
func TestECSClusterServiceConnectNamespace(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	ctx := context.Background()
	c := &v1alpha1.ECSCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "orders"}}
	c.Spec.ProviderRef.Name, c.Spec.DeletionPolicy = "production-aws", shared.DeletionPolicyDelete
	c.Spec.ServiceConnectDefaults = &v1alpha1.ECSServiceConnectDefaults{Namespace: "orders"}
	kubetest.Create(t, h.c, c)
	c = kubetest.WaitReady(t, h.c, c)
	orders := h.namespaceARN(t, "orders")
	if orders == "" || c.Status.ServiceConnectNamespaceARN != orders || c.Status.ServiceConnectNamespace != "orders" {
		t.Fatalf("status %+v, namespace in ECS %q", c.Status, orders)
	}
	h.steady(t, c, "UpdateCluster")

	out, err := h.ecs.UpdateCluster(ctx, &ecs.UpdateClusterInput{Cluster: aws.String("orders"),
		ServiceConnectDefaults: &types.ClusterServiceConnectDefaultsRequest{Namespace: aws.String("payments")}})
	if err != nil {
		t.Fatal(err)
	}
	payments := aws.ToString(out.Cluster.ServiceConnectDefaults.Namespace)
	kubetest.ResyncUntil(t, h.c, c, "the namespace reverted", func() bool { return h.namespaceARN(t, "orders") == orders })
	kubetest.WaitEvent(t, h.c, c, condition.ReasonDriftDetected, "serviceConnectDefaults")
	c = kubetest.WaitFor(t, h.c, c, time.Minute, "the status of the reverted namespace", func(c *v1alpha1.ECSCluster) bool {
		return c.Status.ServiceConnectNamespaceARN == orders && isReady(c)
	})

	h.patchSpec(t, c, `{"serviceConnectDefaults":{"namespace":"`+payments+`"}}`)
	c = kubetest.WaitFor(t, h.c, c, time.Minute, "the namespace given by ARN", func(c *v1alpha1.ECSCluster) bool {
		return c.Status.ServiceConnectNamespaceARN == payments && isReady(c) && c.Status.ObservedGeneration == c.Generation
	})
	if got := h.namespaceARN(t, "orders"); got != payments {
		t.Errorf("namespace in ECS %q, want %q", got, payments)
	}
	h.steady(t, c, "UpdateCluster")

	h.patchSpec(t, c, `{"serviceConnectDefaults":{"namespace":"orders"}}`)
	c = kubetest.WaitFor(t, h.c, c, time.Minute, "the namespace given by name again", func(c *v1alpha1.ECSCluster) bool {
		return c.Status.ServiceConnectNamespaceARN == orders && isReady(c) && c.Status.ObservedGeneration == c.Generation
	})
	h.steady(t, c, "UpdateCluster")
	kubetest.Delete(t, h.c, c)
}
