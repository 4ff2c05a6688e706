package messaging_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/provider"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestClusterAWSProvider applies the tenancy example (a ClusterAWSProvider and a queue that
// uses it) with the example's namespaces and placeholders swapped for the test's: the queue is
// created through the administrator's provider; a namespace the provider does not list may not
// use it; the provider carries the family's in-use finalizer.
func TestClusterAWSProvider(t *testing.T) {
	h := start(t)
	ctx := context.Background()
	admin, team, other := h.env.Namespace(t), h.env.Namespace(t), h.env.Namespace(t)
	objs := kubetest.SeedObjects(t, filepath.Join("..", "..", "examples", "tenancy", "clusterawsprovider.yaml"))
	var queue *unstructured.Unstructured
	for _, o := range objs {
		switch o.GetKind() {
		case "Secret":
			o.SetNamespace(admin)
			_ = unstructured.SetNestedStringMap(o.Object, map[string]string{"access-key-id": testAccessKey, "secret-access-key": testSecretKey}, "stringData")
		case "ClusterAWSProvider":
			o.SetName(o.GetName() + "-" + admin)
			_ = unstructured.SetNestedField(o.Object, admin, "spec", "secretNamespace")
			_ = unstructured.SetNestedField(o.Object, h.env.AWSEndpoint, "spec", "endpoint")
			_ = unstructured.SetNestedStringSlice(o.Object, []string{team}, "spec", "allowedNamespaces")
		case "SQSQueue":
			o.SetNamespace(team)
			_ = unstructured.SetNestedField(o.Object, "shared-production-"+admin, "spec", "providerRef", "name")
			queue = o
		}
		if err := h.env.Client.Create(ctx, o); err != nil {
			t.Fatalf("create %s %s: %v", o.GetKind(), o.GetName(), err)
		}
	}
	got := kubetest.WaitReady(t, h.env.Client, queueObject(team, queue.GetName()))
	if got.Status.QueueURL == "" {
		t.Errorf("the queue has no URL: %+v", got.Status)
	}
	cp := &shared.ClusterAWSProvider{}
	if err := h.env.Client.Get(ctx, types.NamespacedName{Name: "shared-production-" + admin}, cp); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(cp.Finalizers, provider.InUseFinalizer("messaging")) {
		t.Errorf("the ClusterAWSProvider has finalizers %v; want the messaging family's in-use finalizer", cp.Finalizers)
	}

	outsider := queue.DeepCopy()
	outsider.SetNamespace(other)
	outsider.SetResourceVersion("")
	if err := h.env.Client.Create(ctx, outsider); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitCondition(t, h.env.Client, queueObject(other, outsider.GetName()), condition.TypeReady, string(metav1.ConditionFalse), condition.ReasonProviderNotAllowed)
}

// queueObject names the SQSQueue ns/name.
func queueObject(ns, name string) *v1alpha1.SQSQueue {
	return &v1alpha1.SQSQueue{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}
