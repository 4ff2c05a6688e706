package acm

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"
)

// validity is how long a certificate ACM issues is valid: 13 months (395 days).
const validity = 395 * 24 * time.Hour

// certificate is one ACM certificate, requested or imported.
type certificate struct {
	arn        string
	account    string
	typ        types.CertificateType
	status     types.CertificateStatus
	domain     string
	sans       []string // the domain first, then the other names
	method     types.ValidationMethod
	validateAt map[string]string // validation domain by domain name, for email validation
	algorithm  types.KeyAlgorithm
	options    types.CertificateOptions
	created    *time.Time // CreatedAt, of requested certificates
	imported   *time.Time
	issued     *time.Time
	issueAt    time.Time // when a pending certificate is validated
	readableAt time.Time
	notBefore  *time.Time
	notAfter   *time.Time
	serial     string
	subject    string
	issuer     string
	signature  string
	keyUsages  []types.KeyUsageName
	extUsages  []types.ExtendedKeyUsage
	certPEM    []byte // the certificate; made on first GetCertificate for issued ones
	chainPEM   []byte
	inUseBy    []string
	dns        DNS             // the emulated public DNS a DNS-validated request is checked against; nil for none
	validated  map[string]bool // the names whose validation record the emulated DNS holds
}

// settle brings the certificate's status up to date: a pending certificate is issued once its
// validation time has come and every name the emulated DNS answers for holds its validation
// record (see DNS), and an issued one expires at its NotAfter.
func (c *certificate) settle(now time.Time) {
	if c.status == types.CertificateStatusPendingValidation && !now.Before(c.issueAt) {
		if found, through := c.recordsFound(); found {
			if through {
				// Validated through the emulated DNS: issued when the records were seen.
				c.issueAt = now
			}
			c.issue()
		}
	}
	if c.status == types.CertificateStatusIssued && c.notAfter != nil && !now.Before(*c.notAfter) {
		c.status = types.CertificateStatusExpired
	}
}

// issue makes a validated request an issued certificate, valid from its issue for 13 months.
func (c *certificate) issue() {
	at := c.issueAt
	c.status = types.CertificateStatusIssued
	c.issued, c.notBefore, c.notAfter = aws.Time(at), aws.Time(at), aws.Time(at.Add(validity))
	c.serial = randomSerial()
	c.subject = "CN=" + c.domain
	c.issuer = "Amazon"
	c.signature = "SHA256WITHRSA"
	c.keyUsages = []types.KeyUsageName{types.KeyUsageNameDigitalSignature, types.KeyUsageNameKeyEncipherment}
	if strings.HasPrefix(string(c.algorithm), "EC_") {
		c.signature = "SHA256WITHECDSA"
		c.keyUsages = []types.KeyUsageName{types.KeyUsageNameDigitalSignature}
	}
	c.extUsages = []types.ExtendedKeyUsage{
		{Name: types.ExtendedKeyUsageNameTlsWebServerAuthentication, OID: aws.String("1.3.6.1.5.5.7.3.1")},
		{Name: types.ExtendedKeyUsageNameTlsWebClientAuthentication, OID: aws.String("1.3.6.1.5.5.7.3.2")},
	}
}

// randomSerial returns a random 128-bit serial number written as ACM writes serials: hex bytes
// separated by colons.
func randomSerial() string {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		panic(err)
	}
	return colonHex(n.FillBytes(make([]byte, 16)))
}

// colonHex writes bytes as lower-case hex separated by colons.
func colonHex(b []byte) string {
	parts := make([]string, len(b))
	for i, x := range b {
		parts[i] = fmt.Sprintf("%02x", x)
	}
	return strings.Join(parts, ":")
}

// baseDomain returns a domain name without the "*." of a wildcard: the name whose ownership is
// validated.
func baseDomain(domain string) string { return strings.TrimPrefix(domain, "*.") }

// validationRecord returns the CNAME record that validates a domain for an account. Like ACM's,
// it depends only on the account and the domain (a wildcard and its base share one), so that a
// record once created validates every later certificate of the domain.
func validationRecord(account, domain string) *types.ResourceRecord {
	sum := sha256.Sum256([]byte(account + "/" + strings.ToLower(baseDomain(domain))))
	h := hex.EncodeToString(sum[:])
	var label strings.Builder
	for _, x := range sum[:10] {
		label.WriteByte('a' + x%26)
	}
	return &types.ResourceRecord{Type: types.RecordTypeCname,
		Name:  aws.String("_" + h[:32] + "." + baseDomain(domain) + "."),
		Value: aws.String("_" + h[32:] + "." + label.String() + ".acm-validations.aws.")}
}

// validationEmails returns the addresses ACM mails to validate a domain: the five common
// administrative addresses of the validation domain.
func validationEmails(domain string) []string {
	var out []string
	for _, box := range []string{"admin", "administrator", "hostmaster", "postmaster", "webmaster"} {
		out = append(out, box+"@"+domain)
	}
	return out
}

// validations returns the domain validation of each name of a requested certificate.
func (c *certificate) validations() []types.DomainValidation {
	if c.typ != types.CertificateTypeAmazonIssued {
		return nil
	}
	var out []types.DomainValidation
	for _, name := range c.sans {
		status := types.DomainStatusPendingValidation
		if c.status != types.CertificateStatusPendingValidation || c.validated[name] {
			status = types.DomainStatusSuccess
		}
		v := types.DomainValidation{DomainName: aws.String(name), ValidationMethod: c.method, ValidationStatus: status}
		switch c.method {
		case types.ValidationMethodDns:
			v.ValidationDomain = aws.String(name)
			v.ResourceRecord = validationRecord(c.account, name)
		default:
			vd := c.validateAt[name]
			if vd == "" {
				vd = baseDomain(name)
			}
			v.ValidationDomain = aws.String(vd)
			v.ValidationEmails = validationEmails(vd)
		}
		out = append(out, v)
	}
	return out
}

// detail returns the certificate as DescribeCertificate reports it.
func (c *certificate) detail() *types.CertificateDetail {
	d := &types.CertificateDetail{
		CertificateArn: aws.String(c.arn), DomainName: aws.String(c.domain), SubjectAlternativeNames: slices.Clone(c.sans),
		DomainValidationOptions: c.validations(), Status: c.status, Type: c.typ, KeyAlgorithm: c.algorithm,
		CreatedAt: c.created, ImportedAt: c.imported, IssuedAt: c.issued, NotBefore: c.notBefore, NotAfter: c.notAfter,
		InUseBy: slices.Clone(c.inUseBy), RenewalEligibility: types.RenewalEligibilityIneligible,
		Options: &types.CertificateOptions{CertificateTransparencyLoggingPreference: c.options.CertificateTransparencyLoggingPreference,
			Export: c.options.Export},
		ExtendedKeyUsages: slices.Clone(c.extUsages),
	}
	if d.InUseBy == nil {
		d.InUseBy = []string{}
	}
	if c.typ == types.CertificateTypeAmazonIssued && len(c.inUseBy) > 0 {
		d.RenewalEligibility = types.RenewalEligibilityEligible
	}
	if c.typ == types.CertificateTypeImported {
		d.CertificateKeyPairOrigin = types.CertificateKeyPairOriginCustomerProvided
	} else {
		d.CertificateKeyPairOrigin = types.CertificateKeyPairOriginAwsManaged
	}
	if c.serial != "" {
		d.Serial, d.Subject, d.Issuer, d.SignatureAlgorithm = aws.String(c.serial), aws.String(c.subject), aws.String(c.issuer), aws.String(c.signature)
	}
	for _, u := range c.keyUsages {
		d.KeyUsages = append(d.KeyUsages, types.KeyUsage{Name: u})
	}
	return d
}

// summary returns the certificate as ListCertificates reports it.
func (c *certificate) summary() types.CertificateSummary {
	s := types.CertificateSummary{
		CertificateArn: aws.String(c.arn), DomainName: aws.String(c.domain), SubjectAlternativeNameSummaries: slices.Clone(c.sans),
		HasAdditionalSubjectAlternativeNames: aws.Bool(false), Status: c.status, Type: c.typ, KeyAlgorithm: c.algorithm,
		KeyUsages: slices.Clone(c.keyUsages), InUse: aws.Bool(len(c.inUseBy) > 0), Exported: aws.Bool(false),
		ExportOption: c.options.Export, RenewalEligibility: types.RenewalEligibilityIneligible,
		CreatedAt: c.created, ImportedAt: c.imported, IssuedAt: c.issued, NotBefore: c.notBefore, NotAfter: c.notAfter,
	}
	if c.typ == types.CertificateTypeAmazonIssued && len(c.inUseBy) > 0 {
		s.RenewalEligibility = types.RenewalEligibilityEligible
	}
	for _, u := range c.extUsages {
		s.ExtendedKeyUsages = append(s.ExtendedKeyUsages, u.Name)
	}
	return s
}

// since returns when the certificate came to the account: requested or imported.
func (c *certificate) since() time.Time {
	if c.created != nil {
		return *c.created
	}
	return aws.ToTime(c.imported)
}
