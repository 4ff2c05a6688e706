package edge_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	securityv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// certificate creates an ACMCertificate named name in ns for domain, validated by DNS, and
// waits until ACM issued it.
func (h *harness) certificate(t testing.TB, ns, name, domain string) *securityv1alpha1.ACMCertificate {
	t.Helper()
	c := &securityv1alpha1.ACMCertificate{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	c.Spec.ProviderRef = shared.ProviderReference{Name: "aws"}
	c.Spec.DomainName, c.Spec.ValidationMethod = domain, "DNS"
	kubetest.Create(t, h.c, c)
	return kubetest.WaitReady(t, h.c, c)
}

// TestAPIGatewayHTTPCustomDomain serves an HTTP API's stage at a custom domain name with an
// ACMCertificate of the security family: the domain name is created with the certificate and
// the API's mapping at the base path, and the status gives the name DNS must point at; another
// certificate, stage and base path are applied in place; another object naming the same domain
// name is refused with DomainNameTaken; deleting the object deletes the domain name.
func TestAPIGatewayHTTPCustomDomain(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	first := h.certificate(t, ns, "api-cert", "api.shop.example.com")
	second := h.certificate(t, ns, "api-cert-2", "api.shop.example.com")
	route := v1alpha1.Route{RouteKey: "GET /status", Integration: v1alpha1.Integration{URL: "https://status.example.com"}}
	a := httpAPI("shop-api", route)
	a.Namespace = ns
	a.Spec.Stages = []v1alpha1.Stage{{Name: "prod"}, {Name: "beta"}}
	a.Spec.CustomDomain = &v1alpha1.CustomDomain{DomainName: "api.shop.example.com", CertificateRef: &shared.Reference{Name: "api-cert"}, BasePath: "v1"}
	kubetest.Create(t, h.c, a)
	a = kubetest.WaitReady(t, h.c, a)
	d := a.Status.CustomDomain
	if d == nil || d.URL != "https://api.shop.example.com/v1" || !strings.HasSuffix(d.TargetDomainName, ".execute-api.us-east-1.amazonaws.com") || d.HostedZoneID == "" {
		t.Fatalf("status.customDomain = %+v", d)
	}
	h.checkDomain(t, a.Status.APIID, first.Status.ARN, "prod", "v1")

	h.patchSpec(t, a, `{"customDomain":{"domainName":"api.shop.example.com","certificateRef":{"name":"api-cert-2"},"stage":"beta","basePath":"v2"}}`)
	a = kubetest.WaitReady(t, h.c, a)
	h.checkDomain(t, a.Status.APIID, second.Status.ARN, "beta", "v2")
	if a.Status.CustomDomain.URL != "https://api.shop.example.com/v2" {
		t.Errorf("status.customDomain after the update = %+v", a.Status.CustomDomain)
	}

	other := httpAPI("other-api", route)
	other.Namespace = ns
	other.Spec.CustomDomain = &v1alpha1.CustomDomain{DomainName: "api.shop.example.com", CertificateRef: &shared.Reference{Name: "api-cert"}}
	kubetest.Create(t, h.c, other)
	other = kubetest.WaitCondition(t, h.c, other, "Synced", "False", condition.ReasonDomainNameTaken)
	if msg := strings.Join(kubetest.ConditionTexts(other.Status.Conditions), "; "); !strings.Contains(msg, "api.shop.example.com") {
		t.Errorf("conditions = %s, want the domain name", msg)
	}
	kubetest.Delete(t, h.c, other)
	h.checkDomain(t, a.Status.APIID, second.Status.ARN, "beta", "v2")

	kubetest.Delete(t, h.c, a)
	if _, err := h.v2.GetDomainName(context.Background(), &apigatewayv2.GetDomainNameInput{DomainName: aws.String("api.shop.example.com")}); !awserr.IsNotFound(err) {
		t.Errorf("the domain name after its object went: %v", err)
	}
}

// checkDomain checks that api.shop.example.com has certificate cert and maps stage at key of
// API id, and only that.
func (h *harness) checkDomain(t testing.TB, id, cert, stage, key string) {
	t.Helper()
	ctx := context.Background()
	dn, err := h.v2.GetDomainName(ctx, &apigatewayv2.GetDomainNameInput{DomainName: aws.String("api.shop.example.com")})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(dn.DomainNameConfigurations[0].CertificateArn); got != cert {
		t.Errorf("certificate = %s, want %s", got, cert)
	}
	maps, err := h.v2.GetApiMappings(ctx, &apigatewayv2.GetApiMappingsInput{DomainName: aws.String("api.shop.example.com")})
	if err != nil {
		t.Fatal(err)
	}
	if len(maps.Items) != 1 || aws.ToString(maps.Items[0].ApiId) != id || aws.ToString(maps.Items[0].Stage) != stage || aws.ToString(maps.Items[0].ApiMappingKey) != key {
		t.Errorf("mappings = %+v, want stage %s of %s at %q", maps.Items, stage, id, key)
	}
}
