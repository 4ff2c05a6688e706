// Package certtest makes X.509 certificates and their keys for tests, as PEM: self-signed or
// signed by another certificate, with an ECDSA P-256 or an RSA key.
package certtest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"testing"
	"time"
)

// Cert is a certificate made for a test and its key.
type Cert struct {
	// X509 is the parsed certificate.
	X509 *x509.Certificate
	// CertPEM is the certificate as PEM, and KeyPEM its private key as PKCS #8 PEM.
	CertPEM, KeyPEM []byte
	// Key is the private key, which signs the certificates of a Cert used as Options.Parent.
	Key crypto.Signer
}

// Options say how to make a certificate; the zero value makes a self-signed ECDSA P-256
// certificate valid from an hour ago for a year.
type Options struct {
	// NotBefore and NotAfter bound the validity; zero means an hour ago and a year from now.
	NotBefore, NotAfter time.Time
	// RSABits makes an RSA key of that size instead of an ECDSA P-256 one.
	RSABits int
	// Parent signs the certificate; nil makes it self-signed (and a certificate authority).
	Parent *Cert
}

// New returns a certificate for the DNS name cn (its common name and only DNS name), failing
// the test when it cannot be made.
func New(t testing.TB, cn string, o Options) *Cert {
	t.Helper()
	var key crypto.Signer
	var err error
	if o.RSABits > 0 {
		key, err = rsa.GenerateKey(rand.Reader, o.RSABits)
	} else {
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	if err != nil {
		t.Fatalf("generate a key: %v", err)
	}
	if o.NotBefore.IsZero() {
		o.NotBefore = time.Now().Add(-time.Hour)
	}
	if o.NotAfter.IsZero() {
		o.NotAfter = time.Now().AddDate(1, 0, 0)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		t.Fatalf("make a serial number: %v", err)
	}
	usage := x509.KeyUsageDigitalSignature
	if o.Parent == nil {
		usage |= x509.KeyUsageCertSign
	}
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: cn, Organization: []string{"Example Corp"}}, DNSNames: []string{cn},
		NotBefore: o.NotBefore, NotAfter: o.NotAfter, IsCA: o.Parent == nil, BasicConstraintsValid: true,
		KeyUsage: usage, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	issuer, signer := tmpl, key
	if o.Parent != nil {
		issuer, signer = o.Parent.X509, o.Parent.Key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, issuer, key.Public(), signer)
	if err != nil {
		t.Fatalf("make a certificate for %s: %v", cn, err)
	}
	parsed, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatalf("parse the certificate of %s: %v", cn, err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatalf("encode the key of %s: %v", cn, err)
	}
	return &Cert{X509: parsed, CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM: pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), Key: key}
}
