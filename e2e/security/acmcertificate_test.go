package security_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	acmtypes "github.com/aws/aws-sdk-go-v2/service/acm/types"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/certtest"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// certificate returns ACM's description of the certificate arn names.
func (h *harness) certificate(t testing.TB, arn string) *acmtypes.CertificateDetail {
	t.Helper()
	out, err := h.acm.DescribeCertificate(context.Background(), &acm.DescribeCertificateInput{CertificateArn: aws.String(arn)})
	if err != nil {
		t.Fatalf("describe certificate %s: %v", arn, err)
	}
	return out.Certificate
}

// certificateTags returns the tags of the certificate arn names.
func (h *harness) certificateTags(t testing.TB, arn string) map[string]string {
	t.Helper()
	out, err := h.acm.ListTagsForCertificate(context.Background(), &acm.ListTagsForCertificateInput{CertificateArn: aws.String(arn)})
	if err != nil {
		t.Fatalf("list the tags of certificate %s: %v", arn, err)
	}
	tags := map[string]string{}
	for _, tg := range out.Tags {
		tags[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
	}
	return tags
}

// ownedCertificates returns the ARNs of the certificates whose ownership tags name the object
// of uid.
func (h *harness) ownedCertificates(t testing.TB, uid string) []string {
	t.Helper()
	out, err := h.acm.ListCertificates(context.Background(), &acm.ListCertificatesInput{Includes: &acmtypes.Filters{KeyTypes: acmtypes.KeyAlgorithm("").Values()}})
	if err != nil {
		t.Fatal(err)
	}
	var owned []string
	for _, s := range out.CertificateSummaryList {
		if h.certificateTags(t, aws.ToString(s.CertificateArn))[shared.TagOwnerUID] == uid {
			owned = append(owned, aws.ToString(s.CertificateArn))
		}
	}
	return owned
}

// pemCertificate returns the certificate and chain ACM serves for arn.
func (h *harness) pemCertificate(t testing.TB, arn string) (cert, chain string) {
	t.Helper()
	out, err := h.acm.GetCertificate(context.Background(), &acm.GetCertificateInput{CertificateArn: aws.String(arn)})
	if err != nil {
		t.Fatalf("get certificate %s: %v", arn, err)
	}
	return aws.ToString(out.Certificate), aws.ToString(out.CertificateChain)
}

// tlsSecret creates a kubernetes.io/tls Secret named name in ns with data.
func (h *harness) tlsSecret(t testing.TB, ns, name string, data map[string][]byte) *corev1.Secret {
	t.Helper()
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Type: corev1.SecretTypeTLS, Data: data}
	kubetest.Create(t, h.c, s)
	return s
}

// events returns the messages of every event about o.
func (h *harness) events(t testing.TB, o client.Object) []string {
	t.Helper()
	var list corev1.EventList
	if err := h.c.List(context.Background(), &list, client.InNamespace(o.GetNamespace())); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range list.Items {
		if e.InvolvedObject.Name == o.GetName() {
			out = append(out, e.Message)
		}
	}
	return out
}

// acmCalls returns the ACM calls the emulator answered since its counts were last reset.
func (h *harness) acmCalls() map[string]int {
	return kubetest.Calls(h.emu.Calls.Snapshot(), "ACM")
}

// readyMessage returns the message of c's Ready condition and whether it is True.
func readyMessage(c *v1alpha1.ACMCertificate) (string, bool) {
	cond := meta.FindStatusCondition(c.Status.Conditions, condition.TypeReady)
	if cond == nil {
		return "", false
	}
	return cond.Message, cond.Status == metav1.ConditionTrue
}

// TestACMCertificateValidationFlow applies the DNS example while ACM cannot validate yet (the
// emulator's clock stands still): the certificate is requested once, PENDING_VALIDATION and not
// Ready, with its CNAME records in the status and the condition, and looked at again until ACM
// issues it; then Ready. An email-validated one names the domain mailed. The transparency
// preference changes in place, a tag added in ACM is removed, the names cannot change, and
// deleting the object deletes the certificate.
func TestACMCertificateValidationFlow(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	ctx := context.Background()
	h.emu.Clock.Freeze()
	h.emu.Calls.Reset()
	h.apply(t, "acmcertificate-dns.yaml", ns)
	c := kubetest.WaitFor(t, h.c, &v1alpha1.ACMCertificate{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "storefront-cert"}}, kubetest.Timeout,
		"pending validation with its records", func(c *v1alpha1.ACMCertificate) bool {
			msg, ready := readyMessage(c)
			return c.Status.Status == "PENDING_VALIDATION" && !ready && strings.Contains(msg, "create the DNS records")
		})
	s := c.Status
	if s.Type != "AMAZON_ISSUED" || s.DomainName != "shop.example.org" || s.KeyAlgorithm != "EC_prime256v1" || len(s.DomainValidationOptions) != 3 ||
		strings.Join(s.SubjectAlternativeNames, ",") != "shop.example.org,www.shop.example.org,*.api.example.org" {
		t.Fatalf("pending status: %+v", s)
	}
	msg, _ := readyMessage(c)
	for _, v := range s.DomainValidationOptions {
		r := v.ResourceRecord
		if v.ValidationMethod != "DNS" || v.ValidationStatus != "PENDING_VALIDATION" || r == nil || r.Type != "CNAME" ||
			!strings.HasSuffix(r.Name, "."+strings.TrimPrefix(v.DomainName, "*.")+".") || !strings.Contains(msg, "CNAME "+r.Name+" with value "+r.Value) {
			t.Errorf("validation of %s: %+v (record %+v); condition %q", v.DomainName, v, r, msg)
		}
	}
	cert := h.certificate(t, s.ARN)
	if cert.KeyAlgorithm != acmtypes.KeyAlgorithmEcPrime256v1 || cert.Options.CertificateTransparencyLoggingPreference != acmtypes.CertificateTransparencyLoggingPreferenceEnabled {
		t.Errorf("certificate in ACM: %+v", cert)
	}
	if tags := h.certificateTags(t, s.ARN); tags["Application"] != "storefront" || tags[shared.TagOwnerUID] != string(c.UID) {
		t.Errorf("tags: %v", tags)
	}
	if c.Annotations[shared.AnnotationExternalName] != s.ARN {
		t.Errorf("recorded ARN %q, status %q", c.Annotations[shared.AnnotationExternalName], s.ARN)
	}

	// An email-validated certificate waits for the mail to the domain it names.
	mail := &v1alpha1.ACMCertificate{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "mail-cert"}}
	mail.Spec.ProviderRef.Name = "production-aws"
	mail.Spec.DomainName, mail.Spec.ValidationMethod = "www.example.net", "EMAIL"
	mail.Spec.DomainValidationOptions = []v1alpha1.CertificateDomainValidationOption{{DomainName: "www.example.net", ValidationDomain: "example.net"}}
	kubetest.Create(t, h.c, mail)
	mail = kubetest.WaitFor(t, h.c, mail, kubetest.Timeout, "waiting for the mail", func(c *v1alpha1.ACMCertificate) bool {
		msg, _ := readyMessage(c)
		return strings.Contains(msg, "answer the validation mail ACM sent to the administrative addresses of example.net")
	})
	if v := mail.Status.DomainValidationOptions; len(v) != 1 || v[0].ValidationMethod != "EMAIL" || v[0].ValidationDomain != "example.net" ||
		len(v[0].ValidationEmails) == 0 || v[0].ValidationEmails[0] != "admin@example.net" {
		t.Errorf("email validation: %+v", v)
	}

	// Still pending: looked at again (several descriptions), never requested again.
	kubetest.WaitFor(t, h.c, c, kubetest.Timeout, "looked at again", func(*v1alpha1.ACMCertificate) bool { return h.acmCalls()["DescribeCertificate"] >= 6 })
	if _, ready := readyMessage(c); ready || h.acmCalls()["RequestCertificate"] != 2 {
		t.Errorf("while pending: Ready %v, %d requests for two certificates", ready, h.acmCalls()["RequestCertificate"])
	}

	// ACM validates the names: Ready, without anyone poking the object.
	h.emu.Clock.Advance(time.Minute)
	h.emu.Clock.Thaw()
	c = kubetest.WaitReady(t, h.c, c)
	mail = kubetest.WaitReady(t, h.c, mail)
	if s := c.Status; s.Status != "ISSUED" || s.NotAfter == nil || s.NotBefore == nil || s.Serial == "" || s.DomainValidationOptions[0].ValidationStatus != "SUCCESS" {
		t.Errorf("issued status: %+v", s)
	}

	// The transparency preference changes in place.
	h.patchSpec(t, c, `{"certificateTransparencyLoggingPreference":"DISABLED"}`)
	kubetest.WaitFor(t, h.c, c, kubetest.Timeout, "logging disabled", func(x *v1alpha1.ACMCertificate) bool {
		return x.Status.ObservedGeneration == x.Generation &&
			h.certificate(t, s.ARN).Options.CertificateTransparencyLoggingPreference == acmtypes.CertificateTransparencyLoggingPreferenceDisabled
	})
	// A tag added in ACM goes.
	if _, err := h.acm.AddTagsToCertificate(ctx, &acm.AddTagsToCertificateInput{CertificateArn: aws.String(s.ARN),
		Tags: []acmtypes.Tag{{Key: aws.String("added-by"), Value: aws.String("hand")}}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, c, "the tag removed", func() bool { _, ok := h.certificateTags(t, s.ARN)["added-by"]; return !ok })
	kubetest.WaitEvent(t, h.c, c, condition.ReasonDriftDetected, "tags")

	// What ACM cannot change is refused at admission, with the way out.
	for _, spec := range []string{`{"domainName":"store.example.org"}`, `{"subjectAlternativeNames":["www.shop.example.org"]}`,
		`{"validationMethod":"EMAIL"}`, `{"keyAlgorithm":null}`, `{"domainName":null,"subjectAlternativeNames":null,"validationMethod":null,"keyAlgorithm":null,"certificateTransparencyLoggingPreference":null,"importFrom":{"secretRef":{"name":"tls"}}}`} {
		err := h.c.Patch(ctx, c, client.RawPatch(k8stypes.MergePatchType, []byte(`{"spec":`+spec+`}`)))
		if err == nil || !strings.Contains(err.Error(), "create a new ACMCertificate") {
			t.Errorf("patch %s: %v, want a refusal that says to create a new ACMCertificate", spec, err)
		}
	}

	kubetest.Delete(t, h.c, c)
	if _, err := h.acm.DescribeCertificate(ctx, &acm.DescribeCertificateInput{CertificateArn: aws.String(s.ARN)}); err == nil {
		t.Error("the certificate is still in ACM after its object went")
	}
}

// TestACMCertificateImport applies the imported example (a TLS Secret and the certificate):
// imported once and Ready, the key nowhere in the status or the events. A renewed certificate
// in the Secret is imported again into the same ARN; so is a chain added as ca.crt. A key of
// another algorithm is refused with the way out and no import; putting a good certificate back
// recovers, and deleting the object deletes the certificate.
func TestACMCertificateImport(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	ctx := context.Background()
	h.emu.Calls.Reset()
	h.apply(t, "acmcertificate-imported.yaml", ns)
	c := kubetest.WaitReady(t, h.c, &v1alpha1.ACMCertificate{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "internal-cert"}})
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "internal-tls"}}
	if err := h.c.Get(ctx, client.ObjectKeyFromObject(secret), secret); err != nil {
		t.Fatal(err)
	}
	s := c.Status
	if s.Type != "IMPORTED" || s.Status != "ISSUED" || s.DomainName != "internal.example.com" || s.KeyAlgorithm != "EC_prime256v1" ||
		!strings.HasPrefix(s.ImportedFingerprint, "sha256:") || s.NotAfter == nil || s.NotAfter.Year() != 2125 {
		t.Fatalf("imported status: %+v", s)
	}
	if got, _ := h.pemCertificate(t, s.ARN); strings.TrimSpace(got) != strings.TrimSpace(string(secret.Data["tls.crt"])) {
		t.Errorf("ACM serves\n%s\nnot the Secret's certificate", got)
	}
	if n := h.acmCalls()["ImportCertificate"]; n != 1 {
		t.Errorf("%d imports, want 1", n)
	}
	keyLines := strings.Split(strings.TrimSpace(string(secret.Data["tls.key"])), "\n")
	status, err := json.Marshal(c.Status)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range append(h.events(t, c), string(status)) {
		if strings.Contains(text, "PRIVATE KEY") || strings.Contains(text, keyLines[1]) {
			t.Errorf("key material in %q", text)
		}
	}

	// A renewed certificate in the Secret: imported again into the same ARN.
	reimport := func(what string, data map[string][]byte) *v1alpha1.ACMCertificate {
		t.Helper()
		before := c.Status.ImportedFingerprint
		h.emu.Calls.Reset()
		kubetest.Update(t, h.c, secret, func(s *corev1.Secret) { s.Data = data })
		got := kubetest.WaitFor(t, h.c, c, kubetest.Timeout, what+" imported", func(x *v1alpha1.ACMCertificate) bool {
			_, ready := readyMessage(x)
			return ready && x.Status.ImportedFingerprint != before
		})
		if got.Status.ARN != s.ARN || h.acmCalls()["ImportCertificate"] != 1 || len(h.ownedCertificates(t, string(c.UID))) != 1 {
			t.Errorf("%s: ARN %s (was %s), %d imports, certificates %v", what, got.Status.ARN, s.ARN, h.acmCalls()["ImportCertificate"], h.ownedCertificates(t, string(c.UID)))
		}
		return got
	}
	renewed := certtest.New(t, "internal.example.com", certtest.Options{})
	c = reimport("the renewed certificate", map[string][]byte{"tls.crt": renewed.CertPEM, "tls.key": renewed.KeyPEM})
	if got, _ := h.pemCertificate(t, s.ARN); got != string(renewed.CertPEM) || c.Status.NotAfter.Unix() != renewed.X509.NotAfter.Unix() {
		t.Errorf("after the renewal ACM serves\n%s\nuntil %v", got, c.Status.NotAfter)
	}
	ca := certtest.New(t, "Example Internal CA", certtest.Options{})
	signed := certtest.New(t, "internal.example.com", certtest.Options{Parent: ca})
	c = reimport("the certificate with its chain", map[string][]byte{"tls.crt": signed.CertPEM, "tls.key": signed.KeyPEM, "ca.crt": ca.CertPEM})
	if _, chain := h.pemCertificate(t, s.ARN); chain != string(ca.CertPEM) {
		t.Errorf("chain in ACM:\n%s", chain)
	}

	// A key of another algorithm: ACM would refuse to import it into this certificate.
	h.emu.Calls.Reset()
	other := certtest.New(t, "internal.example.com", certtest.Options{RSABits: 2048})
	kubetest.Update(t, h.c, secret, func(s *corev1.Secret) {
		s.Data = map[string][]byte{"tls.crt": other.CertPEM, "tls.key": other.KeyPEM}
	})
	got := kubetest.WaitCondition(t, h.c, c, "Synced", "False", condition.ReasonSecretValueInvalid)
	if text := strings.Join(kubetest.ConditionTexts(got.Status.Conditions), " "); !strings.Contains(text, "RSA_2048 key") || !strings.Contains(text, "create a new ACMCertificate") {
		t.Errorf("conditions: %s", text)
	}
	if n := h.acmCalls()["ImportCertificate"]; n != 0 {
		t.Errorf("%d imports of a key ACM refuses", n)
	}
	kubetest.Update(t, h.c, secret, func(s *corev1.Secret) {
		s.Data = map[string][]byte{"tls.crt": renewed.CertPEM, "tls.key": renewed.KeyPEM}
	})
	c = kubetest.WaitFor(t, h.c, c, kubetest.Timeout, "Ready again", func(x *v1alpha1.ACMCertificate) bool {
		_, ready := readyMessage(x)
		return ready && meta.IsStatusConditionTrue(x.Status.Conditions, condition.TypeSynced)
	})

	kubetest.Delete(t, h.c, c)
	if _, err := h.acm.DescribeCertificate(ctx, &acm.DescribeCertificateInput{CertificateArn: aws.String(s.ARN)}); err == nil {
		t.Error("the certificate is still in ACM after its object went")
	}
}

// TestACMCertificateBadInput refuses at admission what the schema can tell is wrong, and
// before any AWS call too many names, a Secret without its key and a Secret that is not a
// certificate (without quoting it); correcting the Secret recovers, and deleting the object
// with deletionPolicy Orphan leaves the certificate untagged. An import whose answer was lost
// is found by its tags, not imported twice.
func TestACMCertificateBadInput(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	newCert := func(name string, mutate func(*v1alpha1.ACMCertificate)) *v1alpha1.ACMCertificate {
		c := &v1alpha1.ACMCertificate{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		c.Spec.ProviderRef.Name = "aws"
		c.Spec.DomainName = "www.example.com"
		mutate(c)
		return c
	}
	importing := func(secret string) func(*v1alpha1.ACMCertificate) {
		return func(c *v1alpha1.ACMCertificate) {
			c.Spec.DomainName = ""
			c.Spec.ImportFrom = &v1alpha1.ACMCertificateImport{SecretRef: v1alpha1.ACMCertificateSecretReference{Name: secret}}
		}
	}
	for name, tc := range map[string]struct {
		mutate func(*v1alpha1.ACMCertificate)
		text   string
	}{
		"Neither":          {func(c *v1alpha1.ACMCertificate) { c.Spec.DomainName = "" }, "set exactly one of domainName"},
		"Both":             {func(c *v1alpha1.ACMCertificate) { importing("tls")(c); c.Spec.DomainName = "www.example.com" }, "set exactly one of domainName"},
		"NotADomain":       {func(c *v1alpha1.ACMCertificate) { c.Spec.DomainName = "not a domain" }, "spec.domainName"},
		"DomainTooLong":    {func(c *v1alpha1.ACMCertificate) { c.Spec.DomainName = strings.Repeat("a", 60) + ".example.com" }, "spec.domainName"},
		"BadAltName":       {func(c *v1alpha1.ACMCertificate) { c.Spec.SubjectAlternativeNames = []string{"-bad-.example.com"} }, "spec.subjectAlternativeNames"},
		"HTTPValidation":   {func(c *v1alpha1.ACMCertificate) { c.Spec.ValidationMethod = "HTTP" }, "spec.validationMethod"},
		"RSA4096Requested": {func(c *v1alpha1.ACMCertificate) { c.Spec.KeyAlgorithm = "RSA_4096" }, "spec.keyAlgorithm"},
		"ImportWithKeyAlgorithm": {func(c *v1alpha1.ACMCertificate) { importing("tls")(c); c.Spec.KeyAlgorithm = "RSA_2048" },
			"an imported certificate takes none of"},
		"MailOptionsForDNS": {func(c *v1alpha1.ACMCertificate) {
			c.Spec.DomainValidationOptions = []v1alpha1.CertificateDomainValidationOption{{DomainName: "www.example.com", ValidationDomain: "example.com"}}
		}, "domainValidationOptions are for validationMethod EMAIL only"},
		"MailOptionsOtherName": {func(c *v1alpha1.ACMCertificate) {
			c.Spec.ValidationMethod = "EMAIL"
			c.Spec.DomainValidationOptions = []v1alpha1.CertificateDomainValidationOption{{DomainName: "api.example.com", ValidationDomain: "example.com"}}
		}, "each domainValidationOptions entry names domainName"},
		"MailDomainNotAbove": {func(c *v1alpha1.ACMCertificate) {
			c.Spec.ValidationMethod = "EMAIL"
			c.Spec.DomainValidationOptions = []v1alpha1.CertificateDomainValidationOption{{DomainName: "www.example.com", ValidationDomain: "example.org"}}
		}, "validationDomain is the name itself"},
	} {
		t.Run(name, func(t *testing.T) { kubetest.MustRefuse(t, h.c, newCert("bad", tc.mutate), tc.text) })
	}

	h.emu.Calls.Reset()
	tooMany := newCert("too-many", func(c *v1alpha1.ACMCertificate) {
		for i := range 100 {
			c.Spec.SubjectAlternativeNames = append(c.Spec.SubjectAlternativeNames, "n"+strings.Repeat("x", i%3)+string(rune('a'+i%26))+string(rune('a'+i/26))+".example.com")
		}
	})
	kubetest.Create(t, h.c, tooMany)
	got := kubetest.WaitCondition(t, h.c, tooMany, "Synced", "False", condition.ReasonInvalidSpec)
	if text := strings.Join(kubetest.ConditionTexts(got.Status.Conditions), " "); !strings.Contains(text, "101 names") {
		t.Errorf("conditions: %s", text)
	}

	leaf := certtest.New(t, "app.example.com", certtest.Options{})
	kubetest.Create(t, h.c, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "no-key"}, Data: map[string][]byte{"tls.crt": leaf.CertPEM}})
	noKey := newCert("no-key", importing("no-key"))
	kubetest.Create(t, h.c, noKey)
	kubetest.WaitCondition(t, h.c, noKey, "Ready", "False", condition.ReasonSecretKeyNotFound)

	const leaked = "not-a-key-but-secret"
	garbage := h.tlsSecret(t, ns, "garbage", map[string][]byte{"tls.crt": []byte("hello"), "tls.key": []byte(leaked)})
	bad := newCert("garbage", importing("garbage"))
	kubetest.Create(t, h.c, bad)
	got = kubetest.WaitCondition(t, h.c, bad, "Synced", "False", condition.ReasonSecretValueInvalid)
	for _, text := range append(kubetest.ConditionTexts(got.Status.Conditions), h.events(t, bad)...) {
		if strings.Contains(text, leaked) {
			t.Errorf("the Secret's value in %q", text)
		}
	}
	if n := kubetest.Total(h.acmCalls()); n != 0 {
		t.Errorf("%d ACM calls for specs and Secrets refused before any: %v", n, h.acmCalls())
	}
	kubetest.Update(t, h.c, garbage, func(s *corev1.Secret) { s.Data = map[string][]byte{"tls.crt": leaf.CertPEM, "tls.key": leaf.KeyPEM} })
	bad = kubetest.WaitReady(t, h.c, bad)

	// Orphaned: the certificate stays in ACM without the ownership tags.
	kubetest.Update(t, h.c, bad, func(c *v1alpha1.ACMCertificate) { c.Spec.DeletionPolicy = shared.DeletionPolicyOrphan })
	kubetest.Delete(t, h.c, bad)
	if tags := h.certificateTags(t, bad.Status.ARN); tags[shared.TagOwnerUID] != "" || tags[shared.TagOwnerName] != "" {
		t.Errorf("an orphaned certificate keeps the ownership tags: %v", tags)
	}

	// The answer of the import is lost: the certificate is found by its tags, and not imported
	// again.
	h.emu.Faults.Set("ACM.ImportCertificate", emulator.Fault{ErrorAfterRate: 1})
	h.tlsSecret(t, ns, "lost", map[string][]byte{"tls.crt": leaf.CertPEM, "tls.key": leaf.KeyPEM})
	lost := newCert("lost", importing("lost"))
	kubetest.Create(t, h.c, lost)
	lost = kubetest.WaitReady(t, h.c, lost)
	h.emu.Faults.Set("ACM.ImportCertificate", emulator.Fault{})
	if owned := h.ownedCertificates(t, string(lost.UID)); len(owned) != 1 || owned[0] != lost.Annotations[shared.AnnotationExternalName] {
		t.Errorf("certificates of the lost import: %v, recorded %q", owned, lost.Annotations[shared.AnnotationExternalName])
	}
}
