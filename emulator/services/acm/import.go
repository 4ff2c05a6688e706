package acm

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The largest certificate, private key and chain ImportCertificate accepts, in bytes.
const (
	maxCertificate = 32768
	maxPrivateKey  = 5120
	maxChain       = 2097152
)

// imported is what ImportCertificate learns from a certificate, its key and chain.
type imported struct {
	cert      *x509.Certificate
	algorithm types.KeyAlgorithm
}

// parseImport checks an ImportCertificate request as ACM does (ImportCertificate: PEM-encoded
// certificate, unencrypted private key of at most 5 KB matching it, PEM chain, the current time
// between Not Before and Not After, an issuer) and returns what the certificate says.
func parseImport(in *acm.ImportCertificateInput, now time.Time) (*imported, error) {
	switch {
	case len(in.Certificate) == 0 || len(in.Certificate) > maxCertificate:
		return nil, validation("1 validation error detected: Value at 'certificate' failed to satisfy constraint: Member must have length between 1 and %d", maxCertificate)
	case len(in.PrivateKey) == 0 || len(in.PrivateKey) > maxPrivateKey:
		return nil, validation("1 validation error detected: Value at 'privateKey' failed to satisfy constraint: Member must have length between 1 and %d", maxPrivateKey)
	case len(in.CertificateChain) > maxChain:
		return nil, validation("1 validation error detected: Value at 'certificateChain' failed to satisfy constraint: Member must have length less than or equal to %d", maxChain)
	}
	certs, ok := certificates(in.Certificate)
	if !ok || len(certs) == 0 {
		return nil, validation("The certificate field is not a PEM-encoded certificate, or it is not valid.")
	}
	if len(certs) > 1 {
		return nil, validation("The certificate field contains more than one certificate. You can specify additional certificates in the certificate chain field.")
	}
	cert := certs[0]
	if len(in.CertificateChain) > 0 {
		if chain, ok := certificates(in.CertificateChain); !ok || len(chain) == 0 {
			return nil, validation("The certificate chain is not PEM-encoded certificates, or one of them is not valid.")
		}
	}
	key, err := privateKey(in.PrivateKey)
	if err != nil {
		return nil, err
	}
	if pub, ok := cert.PublicKey.(interface{ Equal(crypto.PublicKey) bool }); !ok || !pub.Equal(key.Public()) {
		return nil, validation("The private key does not match the public key of the certificate.")
	}
	if now.Before(cert.NotBefore) {
		return nil, validation("The certificate is not in effect yet: it is valid from %s.", cert.NotBefore.UTC().Format(time.RFC3339))
	}
	if !now.Before(cert.NotAfter) {
		return nil, validation("The certificate has expired: it was valid until %s.", cert.NotAfter.UTC().Format(time.RFC3339))
	}
	if len(cert.RawIssuer) == 0 || cert.Issuer.String() == "" {
		return nil, validation("The certificate's Issuer field is empty.")
	}
	alg, ok := keyAlgorithm(cert.PublicKey)
	if !ok {
		return nil, validation("The certificate's key algorithm is not supported. ACM imports RSA keys of 1024, 2048, 3072 or 4096 bits and EC keys on the P-256, P-384 or P-521 curves.")
	}
	return &imported{cert: cert, algorithm: alg}, nil
}

// certificates returns the certificates of PEM data; ok is false when it holds anything else or
// a certificate that does not parse.
func certificates(data []byte) (out []*x509.Certificate, ok bool) {
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			return out, len(strings.TrimSpace(string(data))) == 0
		}
		if block.Type != "CERTIFICATE" {
			return nil, false
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, false
		}
		out = append(out, cert)
	}
}

// privateKey parses an unencrypted PEM private key: PKCS #1 RSA, SEC 1 EC or PKCS #8.
func privateKey(data []byte) (crypto.Signer, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, validation("The private key is not PEM-encoded.")
	}
	// PKCS #8 encrypted keys, and legacy OpenSSL ones with a "Proc-Type: 4,ENCRYPTED" header.
	if block.Type == "ENCRYPTED PRIVATE KEY" || strings.Contains(block.Headers["Proc-Type"], "ENCRYPTED") {
		return nil, validation("The private key is encrypted. ACM imports only unencrypted private keys.")
	}
	var key any
	var err error
	switch block.Type {
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	default:
		return nil, validation("The private key is not supported: PEM block %q.", block.Type)
	}
	if err != nil {
		return nil, validation("The private key is not valid: %v.", err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, validation("The private key is not supported.")
	}
	return signer, nil
}

// keyAlgorithm returns ACM's name of the algorithm of a public key.
func keyAlgorithm(pub any) (types.KeyAlgorithm, bool) {
	switch k := pub.(type) {
	case *rsa.PublicKey:
		switch k.N.BitLen() {
		case 1024:
			return types.KeyAlgorithmRsa1024, true
		case 2048:
			return types.KeyAlgorithmRsa2048, true
		case 3072:
			return types.KeyAlgorithmRsa3072, true
		case 4096:
			return types.KeyAlgorithmRsa4096, true
		}
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P256():
			return types.KeyAlgorithmEcPrime256v1, true
		case elliptic.P384():
			return types.KeyAlgorithmEcSecp384r1, true
		case elliptic.P521():
			return types.KeyAlgorithmEcSecp521r1, true
		}
	}
	return "", false
}

// signatureNames are ACM's names of certificate signature algorithms.
var signatureNames = map[x509.SignatureAlgorithm]string{
	x509.SHA1WithRSA: "SHA1WITHRSA", x509.SHA256WithRSA: "SHA256WITHRSA", x509.SHA384WithRSA: "SHA384WITHRSA",
	x509.SHA512WithRSA: "SHA512WITHRSA", x509.ECDSAWithSHA1: "SHA1WITHECDSA", x509.ECDSAWithSHA256: "SHA256WITHECDSA",
	x509.ECDSAWithSHA384: "SHA384WITHECDSA", x509.ECDSAWithSHA512: "SHA512WITHECDSA",
	x509.SHA256WithRSAPSS: "SHA256WITHRSAPSS", x509.SHA384WithRSAPSS: "SHA384WITHRSAPSS", x509.SHA512WithRSAPSS: "SHA512WITHRSAPSS",
}

// keyUsageNames are ACM's names of the key usages of a certificate.
var keyUsageNames = []struct {
	bit  x509.KeyUsage
	name types.KeyUsageName
}{
	{x509.KeyUsageDigitalSignature, types.KeyUsageNameDigitalSignature},
	{x509.KeyUsageContentCommitment, types.KeyUsageNameNonRepudation},
	{x509.KeyUsageKeyEncipherment, types.KeyUsageNameKeyEncipherment},
	{x509.KeyUsageDataEncipherment, types.KeyUsageNameDataEncipherment},
	{x509.KeyUsageKeyAgreement, types.KeyUsageNameKeyAgreement},
	{x509.KeyUsageCertSign, types.KeyUsageNameCertificateSigning},
	{x509.KeyUsageCRLSign, types.KeyUsageNameCrlSigning},
	{x509.KeyUsageEncipherOnly, types.KeyUsageNameEnchiperOnly},
	{x509.KeyUsageDecipherOnly, types.KeyUsageNameDecipherOnly},
}

// extUsageNames are ACM's names and the OIDs of the extended key usages of a certificate.
var extUsageNames = map[x509.ExtKeyUsage]types.ExtendedKeyUsage{
	x509.ExtKeyUsageServerAuth:      {Name: types.ExtendedKeyUsageNameTlsWebServerAuthentication, OID: aws.String("1.3.6.1.5.5.7.3.1")},
	x509.ExtKeyUsageClientAuth:      {Name: types.ExtendedKeyUsageNameTlsWebClientAuthentication, OID: aws.String("1.3.6.1.5.5.7.3.2")},
	x509.ExtKeyUsageCodeSigning:     {Name: types.ExtendedKeyUsageNameCodeSigning, OID: aws.String("1.3.6.1.5.5.7.3.3")},
	x509.ExtKeyUsageEmailProtection: {Name: types.ExtendedKeyUsageNameEmailProtection, OID: aws.String("1.3.6.1.5.5.7.3.4")},
	x509.ExtKeyUsageTimeStamping:    {Name: types.ExtendedKeyUsageNameTimeStamping, OID: aws.String("1.3.6.1.5.5.7.3.8")},
	x509.ExtKeyUsageOCSPSigning:     {Name: types.ExtendedKeyUsageNameOcspSigning, OID: aws.String("1.3.6.1.5.5.7.3.9")},
	x509.ExtKeyUsageAny:             {Name: types.ExtendedKeyUsageNameAny, OID: aws.String("2.5.29.37.0")},
}

// load makes the certificate what an import says: its names, validity, algorithms and PEM.
func (c *certificate) load(in *acm.ImportCertificateInput, im *imported, now time.Time) {
	cert := im.cert
	c.typ, c.status, c.algorithm = types.CertificateTypeImported, types.CertificateStatusIssued, im.algorithm
	c.sans = slices.Clone(cert.DNSNames)
	for _, ip := range cert.IPAddresses {
		c.sans = append(c.sans, ip.String())
	}
	c.domain = cert.Subject.CommonName
	if c.domain == "" && len(c.sans) > 0 {
		c.domain = c.sans[0]
	}
	if len(c.sans) == 0 && c.domain != "" {
		c.sans = []string{c.domain}
	}
	c.imported = aws.Time(now)
	c.notBefore, c.notAfter = aws.Time(cert.NotBefore), aws.Time(cert.NotAfter)
	c.serial = colonHex(cert.SerialNumber.Bytes())
	c.subject = cert.Subject.String()
	c.issuer = cert.Issuer.CommonName
	if len(cert.Issuer.Organization) > 0 {
		c.issuer = cert.Issuer.Organization[0]
	}
	c.signature = signatureNames[cert.SignatureAlgorithm]
	if c.signature == "" {
		c.signature = strings.ToUpper(strings.ReplaceAll(cert.SignatureAlgorithm.String(), "-", ""))
	}
	c.keyUsages, c.extUsages = nil, nil
	for _, u := range keyUsageNames {
		if cert.KeyUsage&u.bit != 0 {
			c.keyUsages = append(c.keyUsages, u.name)
		}
	}
	for _, u := range cert.ExtKeyUsage {
		if e, ok := extUsageNames[u]; ok {
			c.extUsages = append(c.extUsages, e)
		}
	}
	c.certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw})
	c.chainPEM = nil
	if len(in.CertificateChain) > 0 {
		c.chainPEM = slices.Clone(in.CertificateChain)
	}
}

// importCertificate imports a certificate with its private key and chain, or reimports one into
// the ARN of an imported certificate.
func (b *Backend) importCertificate(call *core.Call, in *acm.ImportCertificateInput) (*acm.ImportCertificateOutput, error) {
	check := func() (*imported, error) { return parseImport(in, call.Now) }
	return creating(b, call, in.Tags, check, func(r *region, im *imported, tags map[string]string) (*acm.ImportCertificateOutput, error) {
		if in.CertificateArn != nil {
			// Reimport: the certificate keeps its ARN, tags and users.
			arn := aws.ToString(in.CertificateArn)
			if !certificateARN.MatchString(arn) {
				return nil, invalidARN(arn)
			}
			c, ok := r.certs[arn]
			if !ok {
				return nil, core.Errorf("ResourceNotFoundException", "Could not find certificate %s.", arn)
			}
			if len(in.Tags) > 0 {
				return nil, validation("You cannot apply tags when reimporting a certificate.")
			}
			if c.typ != types.CertificateTypeImported {
				return nil, validation("The certificate %s was not imported: only imported certificates can be reimported.", arn)
			}
			if im.algorithm != c.algorithm {
				// Reimporting a certificate: "The key type and size cannot be changed."
				return nil, validation("The key algorithm of the certificate (%s) does not match the key algorithm of the certificate being reimported (%s).", im.algorithm, c.algorithm)
			}
			c.load(in, im, call.Now)
			return &acm.ImportCertificateOutput{CertificateArn: aws.String(arn)}, nil
		}
		c, err := b.newCertificate(call, tags)
		if err != nil {
			return nil, err
		}
		c.load(in, im, call.Now)
		r.certs[c.arn] = c
		return &acm.ImportCertificateOutput{CertificateArn: aws.String(c.arn)}, nil
	})
}
