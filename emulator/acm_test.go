package emulator_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// acmTransition is how long a requested certificate waits for validation by default.
const acmTransition = 3 * time.Second

// acmClient starts an emulator with a clock frozen on a whole second and returns it with an ACM
// client of us-east-1.
func acmClient(t *testing.T, opts emulator.Options) (*emulator.Server, *acm.Client) {
	t.Helper()
	e, url := start(t, opts)
	frozenOnSecond(e)
	return e, acm.NewFromConfig(sdkConfig(t, url, "AKID", 1))
}

// describeCert returns DescribeCertificate's detail, failing the test on an error.
func describeCert(t *testing.T, c *acm.Client, arn *string) *types.CertificateDetail {
	t.Helper()
	out, err := c.DescribeCertificate(context.Background(), &acm.DescribeCertificateInput{CertificateArn: arn})
	if err != nil {
		t.Fatalf("describe %s: %v", aws.ToString(arn), err)
	}
	return out.Certificate
}

// pemCert is a certificate to import: its PEM, the PEM of its key, and the parsed certificate.
type pemCert struct {
	cert, key []byte
	x509      *x509.Certificate
}

// makeCert returns a certificate for names valid from notBefore to notAfter, with a new key
// (RSA of bits, or ECDSA P-256 when bits is 0), signed by parent (self-signed when nil).
func makeCert(t *testing.T, names []string, notBefore, notAfter time.Time, bits int, parent *pemCert, parentKey crypto.Signer) (*pemCert, crypto.Signer) {
	t.Helper()
	var key crypto.Signer
	var err error
	if bits > 0 {
		key, err = rsa.GenerateKey(rand.Reader, bits)
	} else {
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), NotBefore: notBefore, NotAfter: notAfter,
		Subject:     pkix.Name{CommonName: names[0], Organization: []string{"Example Corp"}},
		DNSNames:    names,
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	issuer, signer := tmpl, key
	if parent != nil {
		issuer, signer = parent.x509, parentKey
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, issuer, key.Public(), signer)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	parsed, _ := x509.ParseCertificate(der)
	return &pemCert{cert: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		key: pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), x509: parsed}, key
}

// TestACMRequestLifecycle requests a DNS-validated certificate and follows it from
// PENDING_VALIDATION, with its CNAME records, to ISSUED, its PEM, and deletion.
func TestACMRequestLifecycle(t *testing.T) {
	e, c := acmClient(t, emulator.Options{})
	ctx := context.Background()
	requested := e.Clock.Now()
	out, err := c.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("example.com"),
		SubjectAlternativeNames: []string{"*.example.com", "www.example.org", "example.com"}, ValidationMethod: types.ValidationMethodDns,
		Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("web")}}})
	if err != nil {
		t.Fatal(err)
	}
	arn := out.CertificateArn
	if !regexp.MustCompile(`^arn:aws:acm:us-east-1:000000000000:certificate/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(aws.ToString(arn)) {
		t.Errorf("ARN %s", aws.ToString(arn))
	}
	d := describeCert(t, c, arn)
	if d.Status != types.CertificateStatusPendingValidation || d.Type != types.CertificateTypeAmazonIssued || d.KeyAlgorithm != types.KeyAlgorithmRsa2048 ||
		!aws.ToTime(d.CreatedAt).Equal(requested) || d.IssuedAt != nil || d.NotAfter != nil || d.InUseBy == nil {
		t.Errorf("pending certificate = %+v", d)
	}
	if diff := cmp.Diff([]string{"example.com", "*.example.com", "www.example.org"}, d.SubjectAlternativeNames); diff != "" {
		t.Errorf("SubjectAlternativeNames, the domain first and no repeats\n-want +got:\n%s", diff)
	}
	if len(d.DomainValidationOptions) != 3 {
		t.Fatalf("%d domain validations, want 3", len(d.DomainValidationOptions))
	}
	apex, wildcard, other := d.DomainValidationOptions[0], d.DomainValidationOptions[1], d.DomainValidationOptions[2]
	for _, v := range d.DomainValidationOptions {
		rr := v.ResourceRecord
		if v.ValidationMethod != types.ValidationMethodDns || v.ValidationStatus != types.DomainStatusPendingValidation || rr == nil || rr.Type != types.RecordTypeCname ||
			!regexp.MustCompile(`^_[0-9a-f]{32}\.`+regexp.QuoteMeta(strings.TrimPrefix(aws.ToString(v.DomainName), "*."))+`\.$`).MatchString(aws.ToString(rr.Name)) ||
			!regexp.MustCompile(`^_[0-9a-f]{32}\.[a-z]{10}\.acm-validations\.aws\.$`).MatchString(aws.ToString(rr.Value)) {
			t.Errorf("validation of %s = %+v, record %+v", aws.ToString(v.DomainName), v, rr)
		}
	}
	if !cmp.Equal(apex.ResourceRecord.Name, wildcard.ResourceRecord.Name) || cmp.Equal(apex.ResourceRecord.Name, other.ResourceRecord.Name) {
		t.Errorf("a wildcard shares its base domain's record, other domains have their own: %s %s %s",
			aws.ToString(apex.ResourceRecord.Name), aws.ToString(wildcard.ResourceRecord.Name), aws.ToString(other.ResourceRecord.Name))
	}
	if _, err := c.GetCertificate(ctx, &acm.GetCertificateInput{CertificateArn: arn}); errorCode(err) != "RequestInProgressException" {
		t.Errorf("GetCertificate of a pending certificate: %v, want RequestInProgressException", err)
	}
	list, err := c.ListCertificates(ctx, &acm.ListCertificatesInput{CertificateStatuses: []types.CertificateStatus{types.CertificateStatusIssued}})
	if err != nil || len(list.CertificateSummaryList) != 0 {
		t.Errorf("ISSUED certificates while pending = %+v, %v", list, err)
	}

	e.Clock.Advance(acmTransition)
	d = describeCert(t, c, arn)
	issued := requested.Add(acmTransition)
	if d.Status != types.CertificateStatusIssued || !aws.ToTime(d.IssuedAt).Equal(issued) || !aws.ToTime(d.NotBefore).Equal(issued) ||
		!aws.ToTime(d.NotAfter).Equal(issued.Add(395*24*time.Hour)) || aws.ToString(d.Issuer) != "Amazon" || aws.ToString(d.Subject) != "CN=example.com" ||
		!regexp.MustCompile(`^([0-9a-f]{2}:){15}[0-9a-f]{2}$`).MatchString(aws.ToString(d.Serial)) || aws.ToString(d.SignatureAlgorithm) != "SHA256WITHRSA" {
		t.Errorf("issued certificate = %+v", d)
	}
	for _, v := range d.DomainValidationOptions {
		if v.ValidationStatus != types.DomainStatusSuccess {
			t.Errorf("%s: %s, want SUCCESS", aws.ToString(v.DomainName), v.ValidationStatus)
		}
	}
	got, err := c.GetCertificate(ctx, &acm.GetCertificateInput{CertificateArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode([]byte(aws.ToString(got.Certificate)))
	chainBlock, _ := pem.Decode([]byte(aws.ToString(got.CertificateChain)))
	if block == nil || chainBlock == nil {
		t.Fatalf("GetCertificate returned no PEM: %+v", got)
	}
	leaf, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(chainBlock.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if err := leaf.CheckSignatureFrom(ca); err != nil {
		t.Errorf("the chain did not sign the certificate: %v", err)
	}
	if !cmp.Equal(leaf.DNSNames, d.SubjectAlternativeNames) || !leaf.NotAfter.Equal(aws.ToTime(d.NotAfter)) || leaf.Subject.CommonName != "example.com" {
		t.Errorf("the PEM says %v until %v, the description %v until %v", leaf.DNSNames, leaf.NotAfter, d.SubjectAlternativeNames, d.NotAfter)
	}
	if again, _ := c.GetCertificate(ctx, &acm.GetCertificateInput{CertificateArn: arn}); aws.ToString(again.Certificate) != aws.ToString(got.Certificate) {
		t.Error("GetCertificate made another certificate")
	}
	if _, err := c.DeleteCertificate(ctx, &acm.DeleteCertificateInput{CertificateArn: arn}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeCertificate(ctx, &acm.DescribeCertificateInput{CertificateArn: arn}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("a deleted certificate: %v, want ResourceNotFoundException", err)
	}
}

// TestACMEmailAndExpiry checks email validation, the default method, an EC key, and expiry
// after 13 months.
func TestACMEmailAndExpiry(t *testing.T) {
	e, c := acmClient(t, emulator.Options{})
	ctx := context.Background()
	out, err := c.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("*.app.example.com"), KeyAlgorithm: types.KeyAlgorithmEcPrime256v1,
		DomainValidationOptions: []types.DomainValidationOption{{DomainName: aws.String("*.app.example.com"), ValidationDomain: aws.String("example.com")}}})
	if err != nil {
		t.Fatal(err)
	}
	d := describeCert(t, c, out.CertificateArn)
	v := d.DomainValidationOptions[0]
	want := []string{"admin@example.com", "administrator@example.com", "hostmaster@example.com", "postmaster@example.com", "webmaster@example.com"}
	if v.ValidationMethod != types.ValidationMethodEmail || aws.ToString(v.ValidationDomain) != "example.com" || v.ResourceRecord != nil || !cmp.Equal(v.ValidationEmails, want) {
		t.Errorf("email validation = %+v", v)
	}
	e.Clock.Advance(acmTransition)
	if d := describeCert(t, c, out.CertificateArn); d.Status != types.CertificateStatusIssued || aws.ToString(d.SignatureAlgorithm) != "SHA256WITHECDSA" {
		t.Errorf("EC certificate = %s %s", d.Status, aws.ToString(d.SignatureAlgorithm))
	}
	got, err := c.GetCertificate(ctx, &acm.GetCertificateInput{CertificateArn: out.CertificateArn})
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode([]byte(aws.ToString(got.Certificate)))
	if leaf, err := x509.ParseCertificate(block.Bytes); err != nil || leaf.PublicKeyAlgorithm != x509.ECDSA {
		t.Errorf("EC certificate's PEM: %v, %v", leaf.PublicKeyAlgorithm, err)
	}
	e.Clock.Advance(395 * 24 * time.Hour)
	if d := describeCert(t, c, out.CertificateArn); d.Status != types.CertificateStatusExpired {
		t.Errorf("after 395 days: %s, want EXPIRED", d.Status)
	}
}

// TestACMIdempotencyToken checks that a token names one certificate for an hour.
func TestACMIdempotencyToken(t *testing.T) {
	e, c := acmClient(t, emulator.Options{})
	ctx := context.Background()
	request := func(tok string) string {
		t.Helper()
		out, err := c.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("example.com"), ValidationMethod: types.ValidationMethodDns,
			IdempotencyToken: aws.String(tok)})
		if err != nil {
			t.Fatal(err)
		}
		return aws.ToString(out.CertificateArn)
	}
	first := request("deploy1")
	e.Clock.Advance(59 * time.Minute)
	if again := request("deploy1"); again != first {
		t.Errorf("the token within the hour requested %s, want %s", again, first)
	}
	if other := request("deploy2"); other == first {
		t.Error("another token requested the same certificate")
	}
	e.Clock.Advance(time.Minute)
	if later := request("deploy1"); later == first {
		t.Error("the token after an hour still named the first certificate")
	}
	list, err := c.ListCertificates(ctx, &acm.ListCertificatesInput{})
	if err != nil || len(list.CertificateSummaryList) != 3 {
		t.Errorf("%d certificates, want 3: %v", len(list.CertificateSummaryList), err)
	}
	if _, err := c.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("example.com"), IdempotencyToken: aws.String("not-a-word")}); errorCode(err) != "ValidationException" {
		t.Errorf("a token with a hyphen: %v, want ValidationException", err)
	}
}

// TestACMValidation checks the requests ACM refuses.
func TestACMValidation(t *testing.T) {
	_, c := acmClient(t, emulator.Options{})
	ctx := context.Background()
	request := func(change func(*acm.RequestCertificateInput)) func() error {
		return func() error {
			in := &acm.RequestCertificateInput{DomainName: aws.String("example.com"), ValidationMethod: types.ValidationMethodDns}
			change(in)
			_, err := c.RequestCertificate(ctx, in)
			return err
		}
	}
	missing := aws.String("arn:aws:acm:us-east-1:000000000000:certificate/00000000-0000-4000-8000-000000000000")
	cases := map[string]struct {
		call func() error
		want string
	}{
		"SingleLabel":   {request(func(in *acm.RequestCertificateInput) { in.DomainName = aws.String("localhost") }), "ValidationException"},
		"LeadingHyphen": {request(func(in *acm.RequestCertificateInput) { in.DomainName = aws.String("-bad.example.com") }), "ValidationException"},
		"DomainOver64": {request(func(in *acm.RequestCertificateInput) {
			in.DomainName = aws.String(strings.Repeat("a", 60) + ".example.com")
		}), "ValidationException"},
		"BadSAN":        {request(func(in *acm.RequestCertificateInput) { in.SubjectAlternativeNames = []string{"bad_name.example.com"} }), "ValidationException"},
		"ImportOnlyKey": {request(func(in *acm.RequestCertificateInput) { in.KeyAlgorithm = types.KeyAlgorithmRsa4096 }), "ValidationException"},
		"UnknownMethod": {request(func(in *acm.RequestCertificateInput) { in.ValidationMethod = "FAX" }), "ValidationException"},
		"TooManyTags":   {request(func(in *acm.RequestCertificateInput) { in.Tags = acmTags(51) }), "TooManyTagsException"},
		"ReservedTag":   {request(func(in *acm.RequestCertificateInput) { in.Tags = []types.Tag{{Key: aws.String("aws:x")}} }), "InvalidTagException"},
		"ValidationOther": {request(func(in *acm.RequestCertificateInput) {
			in.DomainValidationOptions = []types.DomainValidationOption{{DomainName: aws.String("example.com"), ValidationDomain: aws.String("example.org")}}
		}), "InvalidDomainValidationOptionsException"},
		"MalformedARN": {func() error {
			_, err := c.DescribeCertificate(ctx, &acm.DescribeCertificateInput{CertificateArn: aws.String("not-an-arn")})
			return err
		}, "InvalidArnException"},
		"DescribeMissing": {func() error {
			_, err := c.DescribeCertificate(ctx, &acm.DescribeCertificateInput{CertificateArn: missing})
			return err
		}, "ResourceNotFoundException"},
		"DeleteMissing": {func() error {
			_, err := c.DeleteCertificate(ctx, &acm.DeleteCertificateInput{CertificateArn: missing})
			return err
		}, "ResourceNotFoundException"},
		"ListTagsMissing": {func() error {
			_, err := c.ListTagsForCertificate(ctx, &acm.ListTagsForCertificateInput{CertificateArn: missing})
			return err
		}, "ResourceNotFoundException"},
		"ListBadStatus": {func() error {
			_, err := c.ListCertificates(ctx, &acm.ListCertificatesInput{CertificateStatuses: []types.CertificateStatus{"GOOD"}})
			return err
		}, "ValidationException"},
		"ListBadPageSize": {func() error {
			_, err := c.ListCertificates(ctx, &acm.ListCertificatesInput{MaxItems: aws.Int32(0)})
			return err
		}, "ValidationException"},
		"ListBadToken": {func() error {
			_, err := c.ListCertificates(ctx, &acm.ListCertificatesInput{NextToken: aws.String("x")})
			return err
		}, "InvalidArgsException"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := errorCode(tc.call()); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// acmTags returns n tags k0=v ... k<n-1>=v.
func acmTags(n int) []types.Tag {
	var out []types.Tag
	for i := range n {
		out = append(out, types.Tag{Key: aws.String("k" + strings.Repeat("x", i)), Value: aws.String("v")})
	}
	return out
}

// TestACMImport imports and reimports certificates and checks what ImportCertificate refuses.
func TestACMImport(t *testing.T) {
	e, c := acmClient(t, emulator.Options{})
	ctx := context.Background()
	now := e.Clock.Now()
	root, rootKey := makeCert(t, []string{"Example Root"}, now.Add(-time.Hour), now.AddDate(5, 0, 0), 0, nil, nil)
	leaf, _ := makeCert(t, []string{"shop.example.com", "www.shop.example.com"}, now.Add(-time.Hour), now.AddDate(0, 3, 0), 2048, root, rootKey)
	out, err := c.ImportCertificate(ctx, &acm.ImportCertificateInput{Certificate: leaf.cert, PrivateKey: leaf.key, CertificateChain: root.cert,
		Tags: []types.Tag{{Key: aws.String("source"), Value: aws.String("vault")}}})
	if err != nil {
		t.Fatal(err)
	}
	arn := out.CertificateArn
	d := describeCert(t, c, arn)
	if d.Status != types.CertificateStatusIssued || d.Type != types.CertificateTypeImported || d.KeyAlgorithm != types.KeyAlgorithmRsa2048 ||
		aws.ToString(d.DomainName) != "shop.example.com" || !cmp.Equal(d.SubjectAlternativeNames, []string{"shop.example.com", "www.shop.example.com"}) ||
		!aws.ToTime(d.NotAfter).Equal(leaf.x509.NotAfter) || !aws.ToTime(d.ImportedAt).Equal(now) || d.CreatedAt != nil ||
		aws.ToString(d.Issuer) != "Example Corp" || aws.ToString(d.SignatureAlgorithm) != "SHA256WITHECDSA" || d.DomainValidationOptions != nil {
		t.Errorf("imported certificate = %+v", d)
	}
	got, err := c.GetCertificate(ctx, &acm.GetCertificateInput{CertificateArn: arn})
	if err != nil || aws.ToString(got.Certificate) != string(leaf.cert) || aws.ToString(got.CertificateChain) != string(root.cert) {
		t.Errorf("GetCertificate of an imported certificate = %+v, %v", got, err)
	}
	// Reimport a renewed certificate into the same ARN; the tags stay.
	e.Clock.Advance(24 * time.Hour)
	renewed, _ := makeCert(t, []string{"shop.example.com"}, now, now.AddDate(1, 0, 0), 2048, root, rootKey)
	re, err := c.ImportCertificate(ctx, &acm.ImportCertificateInput{CertificateArn: arn, Certificate: renewed.cert, PrivateKey: renewed.key})
	if err != nil || aws.ToString(re.CertificateArn) != aws.ToString(arn) {
		t.Fatalf("reimport = %+v, %v", re, err)
	}
	d = describeCert(t, c, arn)
	if !aws.ToTime(d.NotAfter).Equal(renewed.x509.NotAfter) || d.KeyAlgorithm != types.KeyAlgorithmRsa2048 || len(d.SubjectAlternativeNames) != 1 {
		t.Errorf("after reimport = %+v", d)
	}
	if tags, err := c.ListTagsForCertificate(ctx, &acm.ListTagsForCertificateInput{CertificateArn: arn}); err != nil || len(tags.Tags) != 1 {
		t.Errorf("tags after reimport = %+v, %v", tags, err)
	}
	if got, _ := c.GetCertificate(ctx, &acm.GetCertificateInput{CertificateArn: arn}); got.CertificateChain != nil {
		t.Errorf("a reimport without a chain kept the old chain")
	}
	requested, err := c.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("example.com"), ValidationMethod: types.ValidationMethodDns})
	if err != nil {
		t.Fatal(err)
	}
	other, _ := makeCert(t, []string{"other.example.com"}, now.Add(-time.Hour), now.AddDate(1, 0, 0), 0, nil, nil)
	expired, _ := makeCert(t, []string{"old.example.com"}, now.AddDate(-1, 0, 0), now.Add(time.Hour), 0, nil, nil)
	future, _ := makeCert(t, []string{"new.example.com"}, now.AddDate(0, 1, 0), now.AddDate(1, 0, 0), 0, nil, nil)
	cases := map[string]struct {
		in   *acm.ImportCertificateInput
		want string
	}{
		"KeyOfAnother":   {&acm.ImportCertificateInput{Certificate: leaf.cert, PrivateKey: other.key}, "ValidationException"},
		"TwoInCertField": {&acm.ImportCertificateInput{Certificate: append(other.cert, root.cert...), PrivateKey: other.key}, "ValidationException"},
		"NotPEM":         {&acm.ImportCertificateInput{Certificate: []byte("hello"), PrivateKey: other.key}, "ValidationException"},
		"Expired":        {&acm.ImportCertificateInput{Certificate: expired.cert, PrivateKey: expired.key}, "ValidationException"},
		"NotYetValid":    {&acm.ImportCertificateInput{Certificate: future.cert, PrivateKey: future.key}, "ValidationException"},
		"BadChain":       {&acm.ImportCertificateInput{Certificate: other.cert, PrivateKey: other.key, CertificateChain: []byte("junk")}, "ValidationException"},
		"ReimportTags": {&acm.ImportCertificateInput{CertificateArn: arn, Certificate: other.cert, PrivateKey: other.key,
			Tags: []types.Tag{{Key: aws.String("a"), Value: aws.String("b")}}}, "ValidationException"},
		// Reimporting: "The key type and size cannot be changed" (other is ECDSA P-256, arn RSA 2048).
		"ReimportOtherKey":  {&acm.ImportCertificateInput{CertificateArn: arn, Certificate: other.cert, PrivateKey: other.key}, "ValidationException"},
		"ReimportRequested": {&acm.ImportCertificateInput{CertificateArn: requested.CertificateArn, Certificate: other.cert, PrivateKey: other.key}, "ValidationException"},
		"ReimportMissing": {&acm.ImportCertificateInput{CertificateArn: aws.String("arn:aws:acm:us-east-1:000000000000:certificate/00000000-0000-4000-8000-000000000000"),
			Certificate: other.cert, PrivateKey: other.key}, "ResourceNotFoundException"},
	}
	e.Clock.Advance(2 * time.Hour) // expired is now past its NotAfter
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := c.ImportCertificate(ctx, tc.in); errorCode(err) != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
	// An imported certificate expires at its NotAfter.
	e.Clock.Advance(400 * 24 * time.Hour)
	if d := describeCert(t, c, arn); d.Status != types.CertificateStatusExpired {
		t.Errorf("past NotAfter: %s, want EXPIRED", d.Status)
	}
}

// TestACMListCertificates checks paging, the status filter and the default key types.
func TestACMListCertificates(t *testing.T) {
	e, c := acmClient(t, emulator.Options{})
	ctx := context.Background()
	var rsaARNs []string
	for i := range 5 {
		out, err := c.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("site" + string(rune('a'+i)) + ".example.com"), ValidationMethod: types.ValidationMethodDns})
		if err != nil {
			t.Fatal(err)
		}
		rsaARNs = append(rsaARNs, aws.ToString(out.CertificateArn))
		e.Clock.Advance(time.Second)
	}
	ec, err := c.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("ec.example.com"), KeyAlgorithm: types.KeyAlgorithmEcSecp384r1})
	if err != nil {
		t.Fatal(err)
	}
	list := func(in *acm.ListCertificatesInput) []string {
		t.Helper()
		var arns []string
		p := acm.NewListCertificatesPaginator(c, in)
		for p.HasMorePages() {
			out, err := p.NextPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range out.CertificateSummaryList {
				arns = append(arns, aws.ToString(s.CertificateArn))
			}
		}
		return arns
	}
	if diff := cmp.Diff(rsaARNs, list(&acm.ListCertificatesInput{MaxItems: aws.Int32(2)})); diff != "" {
		t.Errorf("pages of two, RSA_2048 only by default, oldest first\n-want +got:\n%s", diff)
	}
	if got := list(&acm.ListCertificatesInput{Includes: &types.Filters{KeyTypes: []types.KeyAlgorithm{types.KeyAlgorithmEcSecp384r1}}}); !cmp.Equal(got, []string{aws.ToString(ec.CertificateArn)}) {
		t.Errorf("EC_secp384r1 = %v", got)
	}
	if got := list(&acm.ListCertificatesInput{CertificateStatuses: []types.CertificateStatus{types.CertificateStatusIssued}}); len(got) != 3 {
		t.Errorf("%d ISSUED certificates, want the 3 whose validation time has passed", len(got))
	}
	desc := list(&acm.ListCertificatesInput{SortBy: types.SortByCreatedAt, SortOrder: types.SortOrderDescending})
	if len(desc) != 5 || desc[0] != rsaARNs[4] {
		t.Errorf("newest first = %v", desc)
	}
	out, err := c.ListCertificates(ctx, &acm.ListCertificatesInput{Includes: &types.Filters{ExtendedKeyUsage: []types.ExtendedKeyUsageName{types.ExtendedKeyUsageNameTlsWebServerAuthentication}}})
	if err != nil || len(out.CertificateSummaryList) != 3 || out.CertificateSummaryList[0].Status != types.CertificateStatusIssued || aws.ToBool(out.CertificateSummaryList[0].InUse) {
		t.Errorf("issued certificates by extended key usage = %+v, %v", out, err)
	}
}

// TestACMTags checks AddTagsToCertificate, RemoveTagsFromCertificate and ListTagsForCertificate.
func TestACMTags(t *testing.T) {
	_, c := acmClient(t, emulator.Options{})
	ctx := context.Background()
	out, err := c.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("example.com"), Tags: []types.Tag{{Key: aws.String("env"), Value: aws.String("prod")}}})
	if err != nil {
		t.Fatal(err)
	}
	arn := out.CertificateArn
	if _, err := c.AddTagsToCertificate(ctx, &acm.AddTagsToCertificateInput{CertificateArn: arn, Tags: []types.Tag{
		{Key: aws.String("team"), Value: aws.String("web")}, {Key: aws.String("flag")}}}); err != nil {
		t.Fatal(err)
	}
	tags, err := c.ListTagsForCertificate(ctx, &acm.ListTagsForCertificateInput{CertificateArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	want := []types.Tag{{Key: aws.String("env"), Value: aws.String("prod")}, {Key: aws.String("flag")}, {Key: aws.String("team"), Value: aws.String("web")}}
	if diff := cmp.Diff(want, tags.Tags, cmp.AllowUnexported(types.Tag{})); diff != "" {
		t.Errorf("tags\n-want +got:\n%s", diff)
	}
	// A value given removes the tag only when it matches.
	if _, err := c.RemoveTagsFromCertificate(ctx, &acm.RemoveTagsFromCertificateInput{CertificateArn: arn, Tags: []types.Tag{
		{Key: aws.String("env"), Value: aws.String("dev")}, {Key: aws.String("team")}, {Key: aws.String("flag"), Value: aws.String("")}}}); err != nil {
		t.Fatal(err)
	}
	tags, _ = c.ListTagsForCertificate(ctx, &acm.ListTagsForCertificateInput{CertificateArn: arn})
	if len(tags.Tags) != 1 || aws.ToString(tags.Tags[0].Key) != "env" {
		t.Errorf("after removal = %+v", tags.Tags)
	}
	if _, err := c.AddTagsToCertificate(ctx, &acm.AddTagsToCertificateInput{CertificateArn: arn, Tags: acmTags(50)}); errorCode(err) != "TooManyTagsException" {
		t.Errorf("50 more tags on one: %v, want TooManyTagsException", err)
	}
	if _, err := c.AddTagsToCertificate(ctx, &acm.AddTagsToCertificateInput{CertificateArn: arn, Tags: []types.Tag{{Key: aws.String("AWS:x"), Value: aws.String("y")}}}); errorCode(err) != "InvalidTagException" {
		t.Errorf("an aws: key: %v, want InvalidTagException", err)
	}
	if _, err := c.RemoveTagsFromCertificate(ctx, &acm.RemoveTagsFromCertificateInput{CertificateArn: arn, Tags: []types.Tag{{Key: aws.String("aws:x")}}}); errorCode(err) != "InvalidTagException" {
		t.Errorf("removing an aws: key: %v, want InvalidTagException", err)
	}
}

// TestACMTransitionAndReadDelay checks Options.Transitions["ACM"] and the read-after-create
// fault.
func TestACMTransitionAndReadDelay(t *testing.T) {
	e, c := acmClient(t, emulator.Options{Transitions: map[string]time.Duration{"ACM": 0}})
	ctx := context.Background()
	e.Faults.Set("ACM.RequestCertificate", emulator.Fault{ReadAfterCreateDelay: emulator.Duration(5 * time.Second)})
	out, err := c.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("example.com")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeCertificate(ctx, &acm.DescribeCertificateInput{CertificateArn: out.CertificateArn}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("right after the request: %v, want ResourceNotFoundException", err)
	}
	e.Clock.Advance(5 * time.Second)
	if d := describeCert(t, c, out.CertificateArn); d.Status != types.CertificateStatusIssued {
		t.Errorf("with a zero transition: %s, want ISSUED", d.Status)
	}
}
