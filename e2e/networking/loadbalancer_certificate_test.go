package networking_test

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	secv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestLoadBalancerCertificateRef gives an ALB's HTTPS listener an ACMCertificate of the
// security family by reference. While ACM has not issued the certificate the ALB waits, with a
// condition that names the listener's reference, and nothing is created; once it is issued, the
// listener serves it. The certificate is then in use by the load balancer: its deletion waits,
// with ACM's refusal in its condition, until the ALB is gone. Listeners that name a certificate
// both ways, or none where one is needed, are refused at admission.
func TestLoadBalancerCertificateRef(t *testing.T) {
	transitions := maps.Clone(testTransitions)
	transitions["ACM"] = time.Hour // validated only when the test says so
	h := startWith(t, transitions, func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond })
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	vpc := h.readyVPC(t, ns, "edge", "10.30.0.0/16")
	subnets := []string{h.subnet(t, ns, "edge-a", vpc, "10.30.1.0/24", "us-east-1a"), h.subnet(t, ns, "edge-b", vpc, "10.30.2.0/24", "us-east-1b")}

	newALB := func(name string, listeners ...v1alpha1.Listener) *v1alpha1.ALB {
		b := &v1alpha1.ALB{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		b.Spec.ProviderRef.Name, b.Spec.SubnetIDs, b.Spec.Listeners = "aws", subnets, listeners
		return b
	}
	notFound := v1alpha1.Action{FixedResponse: &v1alpha1.FixedResponseAction{StatusCode: "404"}}
	https := func(arn string, ref *shared.Reference) v1alpha1.Listener {
		return v1alpha1.Listener{Port: 443, Protocol: "HTTPS", CertificateARN: arn, CertificateRef: ref, DefaultAction: notFound}
	}
	for name, tc := range map[string]struct {
		listener v1alpha1.Listener
		text     string
	}{
		"Both":         {https("arn:aws:acm:us-east-1:000000000000:certificate/1", &shared.Reference{Name: "shop"}), "set at most one of certificateARN and certificateRef"},
		"Neither":      {https("", nil), "HTTPS and TLS listeners need certificateARN or certificateRef"},
		"RefOnHTTP":    {v1alpha1.Listener{Port: 80, Protocol: "HTTP", CertificateRef: &shared.Reference{Name: "shop"}, DefaultAction: notFound}, "other protocols take neither"},
		"EmptyRefName": {https("", &shared.Reference{}), "spec.listeners[0].certificateRef.name"},
	} {
		t.Run(name, func(t *testing.T) { kubetest.MustRefuse(t, h.c, newALB("bad", tc.listener), tc.text) })
	}

	cert := &secv1alpha1.ACMCertificate{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "shop"}}
	cert.Spec.ProviderRef.Name, cert.Spec.DomainName = "aws", "shop.example.com"
	kubetest.Create(t, h.c, cert)
	alb := newALB("shop", https("", &shared.Reference{Name: "shop"}))
	kubetest.Create(t, h.c, alb)
	got := kubetest.WaitCondition(t, h.c, alb, "Ready", "False", condition.ReasonReferenceNotReady)
	if msg := meta.FindStatusCondition(got.Status.Conditions, "Ready").Message; !strings.Contains(msg, "spec.listeners[0].certificateRef: ACMCertificate "+ns+"/shop is not Ready") {
		t.Errorf("the waiting condition does not name the reference: %q", msg)
	}
	cert = kubetest.WaitFor(t, h.c, cert, kubetest.Timeout, "requested", func(c *secv1alpha1.ACMCertificate) bool { return c.Status.Status == "PENDING_VALIDATION" })
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "ELBv2")["CreateLoadBalancer"]; n != 0 {
		t.Errorf("%d load balancers created before the certificate was issued", n)
	}

	// ACM issues the certificate: the ALB is created with it.
	h.emu.Clock.Advance(time.Hour)
	cert = kubetest.WaitReady(t, h.c, cert)
	alb = kubetest.WaitReady(t, h.c, alb)
	listener := h.listeners(t, alb.Status.ARN)[443]
	if len(listener.Certificates) != 1 || aws.ToString(listener.Certificates[0].CertificateArn) != cert.Status.ARN {
		t.Errorf("the HTTPS listener serves %+v, want the ACMCertificate's %s", listener.Certificates, cert.Status.ARN)
	}

	// In use by the load balancer: the certificate stays until the ALB goes.
	kubetest.ResyncUntil(t, h.c, cert, "in use by the ALB", func() bool {
		_ = h.c.Get(ctx, client.ObjectKeyFromObject(cert), cert)
		return len(cert.Status.InUseBy) == 1 && cert.Status.InUseBy[0] == alb.Status.ARN
	})
	if err := h.c.Delete(ctx, cert); err != nil {
		t.Fatal(err)
	}
	got2 := kubetest.WaitCondition(t, h.c, cert, "Synced", "False", condition.ReasonReconcileError)
	if msg := meta.FindStatusCondition(got2.Status.Conditions, "Synced").Message; !strings.Contains(msg, "ResourceInUseException") {
		t.Errorf("the deletion's condition does not say the certificate is in use: %q", msg)
	}
	kubetest.Delete(t, h.c, alb)
	kubetest.WaitGone(t, h.c, cert)
	certs := acm.NewFromConfig(h.env.AWSConfig(testAccessKey, testSecretKey))
	if _, err := certs.DescribeCertificate(ctx, &acm.DescribeCertificateInput{CertificateArn: aws.String(cert.Status.ARN)}); err == nil {
		t.Error("the certificate is still in ACM after its object went")
	}
	if out, err := h.elb.DescribeLoadBalancers(ctx, &elb.DescribeLoadBalancersInput{}); err != nil || len(out.LoadBalancers) != 0 {
		t.Errorf("load balancers left in AWS: %v (%v)", out, err)
	}
}
