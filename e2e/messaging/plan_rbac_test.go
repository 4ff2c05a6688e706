package messaging_test

import (
	"context"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/cli/plan"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// planNamespace is the namespace the CI example's RBAC grants plans in.
const planNamespace = "infrastructure"

// TestPlanRBACExample checks the RBAC of the CI example (examples/gitops/ci/rbac.yaml) against
// a real API server and the messaging operator: with the token of its ServiceAccount, infractl
// plan's Run plans a queue (a server-side dry run, a Preview, the operator's answer), while a
// real create of the queue is refused by the example's admission policy and no Secret can be
// read.
func TestPlanRBACExample(t *testing.T) {
	h := start(t)
	ctx := context.Background()
	if err := h.env.Client.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: planNamespace}}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	h.provider(planNamespace, "aws")
	// Until the operator has validated the provider, a plan answers Waiting.
	kubetest.WaitProviderReady(t, h.env.Client, planNamespace, "aws")
	for _, o := range kubetest.SeedObjects(t, "../../examples/gitops/ci/rbac.yaml") {
		kubetest.Create(t, h.env.Client, o)
		if o.GetNamespace() == "" {
			t.Cleanup(func() { _ = h.env.Client.Delete(context.Background(), o) })
		}
	}
	ci := ciClient(t, h.env.Config, h.env.Scheme)

	queue := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "aws-infra-operator.runner.codes/v1alpha1", "kind": "SQSQueue",
		"metadata": map[string]any{"name": "planned", "namespace": planNamespace}, "spec": map[string]any{"providerRef": map[string]any{"name": "aws"}, "queueName": "planned"}}}
	// The admission policy is enforced a moment after its creation: until then the probe, a
	// queue whose provider does not exist (so that nothing reaches AWS), is created, and deleted.
	probe := queue.DeepCopy()
	probe.SetName("probe")
	_ = unstructured.SetNestedField(probe.Object, "missing", "spec", "providerRef", "name")
	deadline := time.Now().Add(kubetest.Timeout)
	for {
		err := ci.Create(ctx, probe.DeepCopy())
		if err != nil && strings.Contains(err.Error(), "may only dry-run") {
			break
		}
		if err == nil {
			kubetest.Delete(t, h.env.Client, probe)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the CI ServiceAccount's create of a queue was not refused by the dry-run-only policy: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	r, err := plan.Run(ctx, ci, plan.Options{Namespace: planNamespace, Objects: []*unstructured.Unstructured{queue},
		Families: map[string]string{"SQSQueue": "messaging"}, Timeout: kubetest.Timeout})
	if err != nil {
		t.Fatalf("plan with the CI ServiceAccount: %v", err)
	}
	if len(r.Objects) != 1 || r.Objects[0].Action != plan.Create {
		t.Errorf("plan with the CI ServiceAccount = %+v, want the queue created", r.Objects)
	}
	if err := ci.Get(ctx, client.ObjectKey{Namespace: planNamespace, Name: "aws-credentials"}, &corev1.Secret{}); !apierrors.IsForbidden(err) {
		t.Errorf("the CI ServiceAccount reads Secrets: %v", err)
	}
}

// ciClient returns a client of the API server that admin reaches, with scheme, authenticated
// with a token of the example's ServiceAccount infractl-plan.
func ciClient(t *testing.T, admin *rest.Config, scheme *runtime.Scheme) client.Client {
	t.Helper()
	cs, err := kubernetes.NewForConfig(admin)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := cs.CoreV1().ServiceAccounts(planNamespace).CreateToken(context.Background(), "infractl-plan",
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := rest.AnonymousClientConfig(admin)
	cfg.BearerToken = tok.Status.Token
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
