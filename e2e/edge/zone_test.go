package edge_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	networkingv1alpha1 "github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// shopZone creates the public hosted zone shop (shop.example.com) of
// examples/networking/route53.yaml in ns, through which the alias example's certificate is
// validated (hostedZoneRef), and waits until it is Ready.
func (h *harness) shopZone(t testing.TB, ns string) {
	t.Helper()
	z := &networkingv1alpha1.Route53HostedZone{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "shop"}}
	z.Spec.ProviderRef.Name, z.Spec.Name = "production-aws", "shop.example.com"
	kubetest.Create(t, h.c, z)
	kubetest.WaitReady(t, h.c, z)
}
