package acm

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// domainPattern is the pattern of the API model's DomainNameString, which RequestCertificate's
// errors quote.
const domainPattern = `^(\*\.)?(((?!-)[A-Za-z0-9-]{0,62}[A-Za-z0-9])\.)+((?!-)[A-Za-z0-9-]{1,62}[A-Za-z0-9])$`

// label is one label of a domain name: 1 to 63 letters, digits and hyphens, not starting or
// ending with a hyphen.
var label = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`)

// validDomain reports whether a name matches domainPattern and is at most 253 characters long:
// an optional "*." and at least two labels.
func validDomain(name string) bool {
	labels := strings.Split(strings.TrimPrefix(name, "*."), ".")
	if len(name) > 253 || len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if !label.MatchString(l) {
			return false
		}
	}
	return true
}

// idempotencyToken is the form of a RequestCertificate idempotency token.
var idempotencyToken = regexp.MustCompile(`^\w{1,32}$`)

// requestable are the key algorithms RequestCertificate issues certificates with; the others are
// for imported certificates only (RequestCertificate, KeyAlgorithm).
var requestable = []types.KeyAlgorithm{types.KeyAlgorithmRsa2048, types.KeyAlgorithmEcPrime256v1, types.KeyAlgorithmEcSecp384r1}

// tokenLifetime is how long a RequestCertificate idempotency token names its certificate.
const tokenLifetime = time.Hour

// checkRequest returns the error for a RequestCertificate request ACM refuses, and the names of
// the certificate: the domain name first, then the other subject alternative names, without
// repeats.
func checkRequest(in *acm.RequestCertificateInput) ([]string, error) {
	domain := aws.ToString(in.DomainName)
	if !validDomain(domain) {
		return nil, validation("1 validation error detected: Value '%s' at 'domainName' failed to satisfy constraint: Member must satisfy regular expression pattern: %s", domain, domainPattern)
	}
	if len(domain) > 64 {
		return nil, validation("The DomainName %s is longer than 64 octets; give a longer name as a subject alternative name.", domain)
	}
	if len(in.SubjectAlternativeNames) > 100 {
		return nil, validation("1 validation error detected: Value at 'subjectAlternativeNames' failed to satisfy constraint: Member must have length less than or equal to 100")
	}
	names := []string{domain}
	for _, n := range in.SubjectAlternativeNames {
		if !validDomain(n) {
			return nil, validation("1 validation error detected: Value '[%s]' at 'subjectAlternativeNames' failed to satisfy constraint: Member must satisfy constraint: [Member must satisfy regular expression pattern: %s]", n, domainPattern)
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	switch in.ValidationMethod {
	case "", types.ValidationMethodDns, types.ValidationMethodEmail:
	case types.ValidationMethodHttp:
		return nil, core.Errorf("InvalidParameterException", "HTTP validation is available only for certificates that CloudFront manages.")
	default:
		return nil, validation("1 validation error detected: Value '%s' at 'validationMethod' failed to satisfy constraint: Member must satisfy enum value set: [EMAIL, DNS, HTTP]", in.ValidationMethod)
	}
	if in.KeyAlgorithm != "" && !slices.Contains(requestable, in.KeyAlgorithm) {
		if !slices.Contains(types.KeyAlgorithm("").Values(), in.KeyAlgorithm) {
			return nil, validation("1 validation error detected: Value '%s' at 'keyAlgorithm' failed to satisfy constraint: Member must satisfy enum value set: %v", in.KeyAlgorithm, types.KeyAlgorithm("").Values())
		}
		return nil, validation("The key algorithm %s is not supported for requested certificates; use RSA_2048, EC_prime256v1 or EC_secp384r1.", in.KeyAlgorithm)
	}
	if t := in.IdempotencyToken; t != nil && !idempotencyToken.MatchString(*t) {
		return nil, validation("1 validation error detected: Value '%s' at 'idempotencyToken' failed to satisfy constraint: Member must satisfy regular expression pattern: \\w+", *t)
	}
	for _, o := range in.DomainValidationOptions {
		name, vd := aws.ToString(o.DomainName), aws.ToString(o.ValidationDomain)
		if !slices.Contains(names, name) || (baseDomain(name) != vd && !strings.HasSuffix(baseDomain(name), "."+vd)) {
			return nil, core.Errorf("InvalidDomainValidationOptionsException",
				"The validation domain %s of %s is not valid: it must be a name of the certificate and the name or a domain above it.", vd, name)
		}
	}
	if o := in.Options; o != nil {
		if p := o.CertificateTransparencyLoggingPreference; p != "" && !slices.Contains(p.Values(), p) {
			return nil, validation("1 validation error detected: Value '%s' at 'options.certificateTransparencyLoggingPreference' failed to satisfy constraint: Member must satisfy enum value set: [ENABLED, DISABLED]", p)
		}
		if e := o.Export; e != "" && !slices.Contains(e.Values(), e) {
			return nil, validation("1 validation error detected: Value '%s' at 'options.export' failed to satisfy constraint: Member must satisfy enum value set: [ENABLED, DISABLED]", e)
		}
	}
	if in.CertificateAuthorityArn != nil {
		return nil, core.Errorf("InvalidParameterException", "The emulator does not issue private certificates (CertificateAuthorityArn).")
	}
	return names, nil
}

// requestCertificate requests a certificate, which is PENDING_VALIDATION until the service's
// transition time has passed. The same idempotency token within an hour answers the same
// certificate.
func (b *Backend) requestCertificate(call *core.Call, in *acm.RequestCertificateInput) (*acm.RequestCertificateOutput, error) {
	check := func() ([]string, error) { return checkRequest(in) }
	return creating(b, call, in.Tags, check, func(r *region, names []string, tags map[string]string) (*acm.RequestCertificateOutput, error) {
		if t := in.IdempotencyToken; t != nil {
			// The same token within an hour requests the same certificate (RequestCertificate,
			// IdempotencyToken).
			if prev, ok := r.tokens[*t]; ok && call.Now.Before(prev.expires) {
				if _, exists := r.certs[prev.arn]; exists {
					return &acm.RequestCertificateOutput{CertificateArn: aws.String(prev.arn)}, nil
				}
			}
		}
		c, err := b.newCertificate(call, tags)
		if err != nil {
			return nil, err
		}
		c.typ, c.status, c.domain, c.sans = types.CertificateTypeAmazonIssued, types.CertificateStatusPendingValidation, names[0], names
		c.method, c.algorithm, c.validateAt, c.validated = in.ValidationMethod, in.KeyAlgorithm, map[string]string{}, map[string]bool{}
		c.created, c.issueAt, c.dns = aws.Time(call.Now), call.Now.Add(call.Transition), b.dns
		c.readableAt = call.Now.Add(time.Duration(call.Fault.ReadAfterCreateDelay))
		if c.method == "" {
			c.method = types.ValidationMethodEmail
		}
		if c.algorithm == "" {
			c.algorithm = types.KeyAlgorithmRsa2048
		}
		for _, o := range in.DomainValidationOptions {
			c.validateAt[aws.ToString(o.DomainName)] = aws.ToString(o.ValidationDomain)
		}
		if o := in.Options; o != nil {
			if o.CertificateTransparencyLoggingPreference != "" {
				c.options.CertificateTransparencyLoggingPreference = o.CertificateTransparencyLoggingPreference
			}
			if o.Export != "" {
				c.options.Export = o.Export
			}
		}
		c.settle(call.Now)
		r.certs[c.arn] = c
		if t := in.IdempotencyToken; t != nil {
			r.tokens[*t] = token{arn: c.arn, expires: call.Now.Add(tokenLifetime)}
		}
		return &acm.RequestCertificateOutput{CertificateArn: aws.String(c.arn)}, nil
	})
}
