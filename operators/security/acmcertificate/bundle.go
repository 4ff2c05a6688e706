package acmcertificate

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/acm/types"
	corev1 "k8s.io/api/core/v1"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// caKey is the key of a TLS Secret that holds the certificate authority's certificate, as
// cert-manager writes it.
const caKey = "ca.crt"

// maxKeySize is the largest private key ImportCertificate takes, in bytes.
const maxKeySize = 5120

// bundle is what a TLS Secret holds for ImportCertificate.
type bundle struct {
	// leaf is the certificate itself, the first of tls.crt.
	leaf *x509.Certificate
	// cert is the leaf as PEM, and chain the other certificates of tls.crt and ca.crt as
	// PEM, nil when there are none.
	cert, chain []byte
	// key is the private key as the Secret holds it (PEM). It goes to ImportCertificate only.
	key []byte
	// algorithm is ACM's name of the leaf's key algorithm.
	algorithm types.KeyAlgorithm
	// fingerprint is "sha256:" and the hexadecimal SHA-256 of the leaf and chain (DER): what
	// the status records of the last import. The key is not part of it.
	fingerprint string
}

// parseBundle checks a TLS Secret's data (tls.crt, tls.key and the optional ca.crt) as ACM
// checks an import at time now, and returns it as ImportCertificate takes it. A Secret ACM
// would refuse is a terminal SecretValueInvalid error that says what to put in the Secret;
// no error holds key material.
func parseBundle(secret string, data map[string][]byte, now time.Time) (*bundle, error) {
	invalid := func(format string, args ...any) error {
		return managed.Terminal(condition.ReasonSecretValueInvalid, "Secret %s, which spec.importFrom.secretRef names: %s", secret, fmt.Sprintf(format, args...))
	}
	certs, err := certificates(data[corev1.TLSCertKey])
	if err != nil || len(certs) == 0 {
		return nil, invalid("%s is not PEM certificates (the certificate first, then its chain)", corev1.TLSCertKey)
	}
	ca, err := certificates(data[caKey])
	if err != nil {
		return nil, invalid("%s is not PEM certificates", caKey)
	}
	leaf := certs[0]
	chain := chainOf(leaf, slices.Concat(certs[1:], ca))
	b := &bundle{leaf: leaf, cert: pemOf(leaf), key: data[corev1.TLSPrivateKeyKey], fingerprint: fingerprint(leaf, chain)}
	for _, c := range chain {
		b.chain = append(b.chain, pemOf(c)...)
	}
	if len(b.key) > maxKeySize {
		return nil, invalid("%s is larger than the %d bytes ACM imports", corev1.TLSPrivateKeyKey, maxKeySize)
	}
	key, problem := privateKey(b.key)
	if problem != "" {
		return nil, invalid("%s %s", corev1.TLSPrivateKeyKey, problem)
	}
	if pub, ok := leaf.PublicKey.(interface{ Equal(crypto.PublicKey) bool }); !ok || !pub.Equal(key.Public()) {
		return nil, invalid("%s is not the key of the certificate in %s", corev1.TLSPrivateKeyKey, corev1.TLSCertKey)
	}
	switch {
	case now.Before(leaf.NotBefore):
		return nil, invalid("the certificate is valid from %s only; ACM imports a certificate once it is valid", leaf.NotBefore.UTC().Format(time.RFC3339))
	case !now.Before(leaf.NotAfter):
		return nil, invalid("the certificate expired on %s; put a renewed certificate in the Secret", leaf.NotAfter.UTC().Format(time.RFC3339))
	}
	if b.algorithm = keyAlgorithmOf(leaf.PublicKey); b.algorithm == "" {
		return nil, invalid("the certificate's key is neither RSA of 1024, 2048, 3072 or 4096 bits nor ECDSA on P-256, P-384 or P-521, which ACM imports")
	}
	return b, nil
}

// chainOf returns the certificates of a leaf's chain, each once and without the leaf:
// cert-manager writes a self-signed certificate as its own ca.crt.
func chainOf(leaf *x509.Certificate, certs []*x509.Certificate) []*x509.Certificate {
	var chain []*x509.Certificate
	for _, c := range certs {
		if !c.Equal(leaf) && !slices.ContainsFunc(chain, c.Equal) {
			chain = append(chain, c)
		}
	}
	return chain
}

// fingerprint returns "sha256:" and the hexadecimal SHA-256 of a certificate and its chain,
// in DER: what tells one import from another, whatever the PEM around it.
func fingerprint(leaf *x509.Certificate, chain []*x509.Certificate) string {
	sum := sha256.New()
	sum.Write(leaf.Raw)
	for _, c := range chain {
		sum.Write(c.Raw)
	}
	return "sha256:" + hex.EncodeToString(sum.Sum(nil))
}

// certificates returns the certificates of PEM data, in order; an error when it holds a PEM
// block of another type or a certificate that does not parse.
func certificates(data []byte) ([]*x509.Certificate, error) {
	var out []*x509.Certificate
	for {
		var block *pem.Block
		if block, data = pem.Decode(data); block == nil {
			return out, nil
		}
		if block.Type != "CERTIFICATE" {
			return nil, fmt.Errorf("a PEM block of type %q", block.Type)
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("parse a certificate: %w", err)
		}
		out = append(out, c)
	}
}

// pemOf returns a certificate as PEM.
func pemOf(c *x509.Certificate) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})
}

// privateKey parses an unencrypted PEM private key (PKCS #1, SEC 1 or PKCS #8) and returns it,
// or what is wrong with it, in words that never quote the key.
func privateKey(data []byte) (crypto.Signer, string) {
	block, _ := pem.Decode(data)
	switch {
	case block == nil:
		return nil, "is not a PEM private key"
	case block.Type == "ENCRYPTED PRIVATE KEY" || block.Headers["Proc-Type"] != "":
		return nil, "is encrypted; ACM imports unencrypted keys only"
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
		return nil, fmt.Sprintf("is a PEM block of type %q, not a private key", block.Type)
	}
	signer, ok := key.(crypto.Signer)
	if err != nil || !ok {
		return nil, "is not a valid RSA or ECDSA private key"
	}
	return signer, ""
}

// keyAlgorithmOf returns ACM's name of the algorithm of a public key, "" for one ACM does not
// import.
func keyAlgorithmOf(pub any) types.KeyAlgorithm {
	switch k := pub.(type) {
	case *rsa.PublicKey:
		switch k.N.BitLen() {
		case 1024:
			return types.KeyAlgorithmRsa1024
		case 2048:
			return types.KeyAlgorithmRsa2048
		case 3072:
			return types.KeyAlgorithmRsa3072
		case 4096:
			return types.KeyAlgorithmRsa4096
		}
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P256():
			return types.KeyAlgorithmEcPrime256v1
		case elliptic.P384():
			return types.KeyAlgorithmEcSecp384r1
		case elliptic.P521():
			return types.KeyAlgorithmEcSecp521r1
		}
	}
	return ""
}
