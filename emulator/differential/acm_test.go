package differential

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// certs is one side's ACM client, how it lets validation finish, and the certificates the steps
// follow: requested and imported.
type certs struct {
	acm                 *acm.Client
	settle              func()
	requested, imported *string
}

// keyPair is a certificate and its key in PEM, made once and imported on both sides.
type keyPair struct{ cert, key []byte }

// selfSigned returns a self-signed ECDSA certificate for name, valid from notBefore to notAfter,
// and its key; with key set, it certifies that key instead of a new one.
func selfSigned(t *testing.T, name string, notBefore, notAfter time.Time, key crypto.Signer) (keyPair, crypto.Signer) {
	t.Helper()
	if key == nil {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		key = k
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(notBefore.UnixNano()), Subject: pkix.Name{CommonName: name, Organization: []string{"Diff"}},
		DNSNames: []string{name}, NotBefore: notBefore, NotAfter: notAfter,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return keyPair{cert: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		key: pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})}, key
}

// certSteps is the ACM sequence both sides run: a DNS-validated request with an idempotency
// token, its validation, an import and reimport, tags, listing, deletion, and the errors AWS
// documents.
func certSteps(t *testing.T) []step[*certs] {
	ctx := context.Background()
	now := time.Now()
	site, siteKey := selfSigned(t, "shop.diff.example.com", now.Add(-time.Hour), now.AddDate(1, 0, 0), nil)
	renewed, _ := selfSigned(t, "shop.diff.example.com", now.Add(-time.Minute), now.AddDate(2, 0, 0), siteKey)
	stranger, _ := selfSigned(t, "other.diff.example.com", now.Add(-time.Hour), now.AddDate(1, 0, 0), nil)
	expired, _ := selfSigned(t, "old.diff.example.com", now.AddDate(-2, 0, 0), now.AddDate(-1, 0, 0), nil)
	request := func(c *certs, token string) (*acm.RequestCertificateOutput, error) {
		return c.acm.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("diff.example.com"),
			SubjectAlternativeNames: []string{"www.diff.example.com"}, ValidationMethod: types.ValidationMethodDns, IdempotencyToken: aws.String(token)})
	}
	describe := func(arn func(c *certs) *string) func(c *certs) outcome {
		return func(c *certs) outcome {
			out, err := c.acm.DescribeCertificate(ctx, &acm.DescribeCertificateInput{CertificateArn: arn(c)})
			if err != nil {
				return observe(err, nil)
			}
			d := out.Certificate
			sans := append([]string(nil), d.SubjectAlternativeNames...)
			sort.Strings(sans)
			f := map[string]string{"status": string(d.Status), "type": string(d.Type), "domain": aws.ToString(d.DomainName),
				"sans": strings.Join(sans, ","), "key": string(d.KeyAlgorithm), "validations": strconv.Itoa(len(d.DomainValidationOptions))}
			for _, v := range d.DomainValidationOptions {
				if v.ResourceRecord != nil {
					f["record"] = string(v.ResourceRecord.Type)
				}
				f["method"], f["validation"] = string(v.ValidationMethod), string(v.ValidationStatus)
			}
			if d.NotBefore != nil && d.NotAfter != nil {
				f["days"] = strconv.Itoa(int(d.NotAfter.Sub(*d.NotBefore).Hours() / 24))
			}
			return observe(nil, f)
		}
	}
	requested := func(c *certs) *string { return c.requested }
	imported := func(c *certs) *string { return c.imported }
	other := func(in func(c *certs) error) func(c *certs) outcome {
		return func(c *certs) outcome { return observe(in(c), nil) }
	}
	importCert := func(kp keyPair, chain []byte, arn func(c *certs) *string) func(c *certs) error {
		return func(c *certs) error {
			in := &acm.ImportCertificateInput{Certificate: kp.cert, PrivateKey: kp.key, CertificateChain: chain}
			if arn != nil {
				in.CertificateArn = arn(c)
			}
			_, err := c.acm.ImportCertificate(ctx, in)
			return err
		}
	}
	tagCount := func(c *certs) outcome {
		out, err := c.acm.ListTagsForCertificate(ctx, &acm.ListTagsForCertificateInput{CertificateArn: c.requested})
		if err != nil {
			return observe(err, nil)
		}
		return observe(nil, map[string]string{"tags": strconv.Itoa(len(out.Tags))})
	}
	many := func(n int) []types.Tag {
		var out []types.Tag
		for i := range n {
			out = append(out, types.Tag{Key: aws.String("key" + strconv.Itoa(i)), Value: aws.String("v")})
		}
		return out
	}
	missing := aws.String("arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-4000-8000-000000000000")
	return []step[*certs]{
		{"RequestCertificate", func(c *certs) outcome {
			out, err := request(c, "diffdeploy1")
			if err != nil {
				return observe(err, nil)
			}
			c.requested = out.CertificateArn
			return observe(nil, nil)
		}},
		{"RequestSameToken", func(c *certs) outcome {
			out, err := request(c, "diffdeploy1")
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"sameARN": strconv.FormatBool(aws.ToString(out.CertificateArn) == aws.ToString(c.requested))})
		}},
		{"DescribePending", describe(requested)},
		{"GetPending", other(func(c *certs) error {
			_, err := c.acm.GetCertificate(ctx, &acm.GetCertificateInput{CertificateArn: c.requested})
			return err
		})},
		{"RequestDefaultMethod", func(c *certs) outcome {
			out, err := c.acm.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("mail.diff.example.com")})
			if err != nil {
				return observe(err, nil)
			}
			d, err := c.acm.DescribeCertificate(ctx, &acm.DescribeCertificateInput{CertificateArn: out.CertificateArn})
			if err != nil {
				return observe(err, nil)
			}
			_, _ = c.acm.DeleteCertificate(ctx, &acm.DeleteCertificateInput{CertificateArn: out.CertificateArn})
			return observe(nil, map[string]string{"method": string(d.Certificate.DomainValidationOptions[0].ValidationMethod)})
		}},
		{"DescribeIssued", func(c *certs) outcome {
			c.settle()
			return describe(requested)(c)
		}},
		{"GetIssued", func(c *certs) outcome {
			out, err := c.acm.GetCertificate(ctx, &acm.GetCertificateInput{CertificateArn: c.requested})
			if err != nil {
				return observe(err, nil)
			}
			block, _ := pem.Decode([]byte(aws.ToString(out.Certificate)))
			return observe(nil, map[string]string{"pem": strconv.FormatBool(block != nil && block.Type == "CERTIFICATE")})
		}},
		{"ImportCertificate", func(c *certs) outcome {
			out, err := c.acm.ImportCertificate(ctx, &acm.ImportCertificateInput{Certificate: site.cert, PrivateKey: site.key})
			if err != nil {
				return observe(err, nil)
			}
			c.imported = out.CertificateArn
			return observe(nil, nil)
		}},
		{"DescribeImported", describe(imported)},
		{"Reimport", other(importCert(renewed, nil, imported))},
		{"ListIssued", func(c *certs) outcome {
			out, err := c.acm.ListCertificates(ctx, &acm.ListCertificatesInput{CertificateStatuses: []types.CertificateStatus{types.CertificateStatusIssued},
				Includes: &types.Filters{KeyTypes: []types.KeyAlgorithm{types.KeyAlgorithmRsa2048, types.KeyAlgorithmEcPrime256v1}}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"certificates": strconv.Itoa(len(out.CertificateSummaryList))})
		}},
		{"ListDefaultKeyTypes", func(c *certs) outcome {
			out, err := c.acm.ListCertificates(ctx, &acm.ListCertificatesInput{})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"certificates": strconv.Itoa(len(out.CertificateSummaryList))})
		}},
		{"ImportKeyOfAnother", other(importCert(keyPair{cert: stranger.cert, key: site.key}, nil, nil))},
		{"ImportExpired", other(importCert(expired, nil, nil))},
		{"ImportNotPEM", other(importCert(keyPair{cert: []byte("not a certificate"), key: site.key}, nil, nil))},
		{"ReimportMissing", other(importCert(site, nil, func(*certs) *string { return missing }))},
		{"RequestBadDomain", other(func(c *certs) error {
			_, err := c.acm.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("-bad-.example.com")})
			return err
		})},
		{"AddTags", other(func(c *certs) error {
			_, err := c.acm.AddTagsToCertificate(ctx, &acm.AddTagsToCertificateInput{CertificateArn: c.requested, Tags: []types.Tag{
				{Key: aws.String("team"), Value: aws.String("web")}, {Key: aws.String("env"), Value: aws.String("prod")}}})
			return err
		})},
		{"RemoveTagOtherValue", other(func(c *certs) error {
			_, err := c.acm.RemoveTagsFromCertificate(ctx, &acm.RemoveTagsFromCertificateInput{CertificateArn: c.requested, Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("ops")}}})
			return err
		})},
		{"ListTagsKept", tagCount},
		{"RemoveTag", other(func(c *certs) error {
			_, err := c.acm.RemoveTagsFromCertificate(ctx, &acm.RemoveTagsFromCertificateInput{CertificateArn: c.requested, Tags: []types.Tag{{Key: aws.String("team")}}})
			return err
		})},
		{"ListTagsAfterRemove", tagCount},
		{"AddFiftyMoreTags", other(func(c *certs) error {
			_, err := c.acm.AddTagsToCertificate(ctx, &acm.AddTagsToCertificateInput{CertificateArn: c.requested, Tags: many(50)})
			return err
		})},
		{"AddReservedTag", other(func(c *certs) error {
			_, err := c.acm.AddTagsToCertificate(ctx, &acm.AddTagsToCertificateInput{CertificateArn: c.requested, Tags: []types.Tag{{Key: aws.String("aws:owner"), Value: aws.String("x")}}})
			return err
		})},
		{"DescribeMissing", describe(func(*certs) *string { return missing })},
		{"DescribeMalformedARN", describe(func(*certs) *string { return aws.String("not-an-arn") })},
		{"DeleteRequested", other(func(c *certs) error {
			_, err := c.acm.DeleteCertificate(ctx, &acm.DeleteCertificateInput{CertificateArn: c.requested})
			return err
		})},
		{"DescribeDeleted", describe(requested)},
		{"DeleteImported", other(func(c *certs) error {
			_, err := c.acm.DeleteCertificate(ctx, &acm.DeleteCertificateInput{CertificateArn: c.imported})
			return err
		})},
		{"DeleteAgain", other(func(c *certs) error {
			_, err := c.acm.DeleteCertificate(ctx, &acm.DeleteCertificateInput{CertificateArn: c.imported})
			return err
		})},
	}
}

// TestACMAgainstMoto compares ACM with moto's, moto validating requests after a second
// (MOTO_ACM_VALIDATION_WAIT) and the emulator after its transition.
func TestACMAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t, "MOTO_ACM_VALIDATION_WAIT=1")
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	emuSide := &certs{acm: acm.NewFromConfig(sdkConfig(t, emu.URL)), settle: func() { e.Clock.Advance(time.Minute) }}
	peerSide := &certs{acm: acm.NewFromConfig(sdkConfig(t, peerURL)), settle: func() { time.Sleep(1500 * time.Millisecond) }}
	compare(t, emuSide, peerSide, "moto "+motoVersion, certSteps(t), map[string]string{
		"DescribePending": "moto gives a certificate pending validation a validity period; AWS has issued none yet and reports no NotBefore or NotAfter",
		"GetPending":      "moto returns a certificate before validation; AWS answers RequestInProgressException until it is issued (GetCertificate)",
		"RequestDefaultMethod": "moto validates by DNS when the request names no method; the emulator takes EMAIL, AWS's default " +
			"(AWS::CertificateManager::Certificate, ValidationMethod: if not specified, defaults to EMAIL)",
		"DescribeIssued":       "moto issues for 365 days; ACM's public certificates are valid for 13 months (395 days)",
		"ListDefaultKeyTypes":  "moto lists every key type; AWS lists only RSA_1024 and RSA_2048 certificates unless Includes.keyTypes names others (ListCertificates, Filters)",
		"ImportKeyOfAnother":   "moto imports a private key that does not match the certificate; AWS requires the key that matches it (ImportCertificate) and answers ValidationException",
		"RequestBadDomain":     "moto accepts a label starting with a hyphen; AWS's DomainName pattern refuses it with ValidationException",
		"AddReservedTag":       "moto answers ValidationException; AWS answers InvalidTagException for a key starting with aws: (InvalidTagException)",
		"DescribeMalformedARN": "moto answers ResourceNotFoundException for a string that is not an ARN; AWS answers InvalidArnException",
	})
}
