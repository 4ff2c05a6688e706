package acm

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"
)

// authority is a certificate authority of the emulator's, which signs the certificates it
// issues.
type authority struct {
	cert *x509.Certificate
	key  crypto.Signer
	pem  []byte
}

// authorities are the emulator's two authorities, one with an RSA key for RSA certificates and
// one with an ECDSA key for EC certificates, as ACM has, made once for every emulator on first
// use (an RSA key takes a moment to make).
type authorities struct {
	once    sync.Once
	rsa, ec *authority
	err     error
}

// shared are the authorities of every Backend.
var shared authorities

// get returns the authority for certificates of a key algorithm.
func (a *authorities) get(alg types.KeyAlgorithm) (*authority, error) {
	a.once.Do(func() {
		rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			a.err = err
			return
		}
		ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			a.err = err
			return
		}
		if a.rsa, err = newAuthority(rsaKey, "Emulator RSA 2048 M01"); err != nil {
			a.err = err
			return
		}
		a.ec, a.err = newAuthority(ecKey, "Emulator ECDSA 256 M01")
	})
	if a.err != nil {
		return nil, a.err
	}
	if strings.HasPrefix(string(alg), "EC_") {
		return a.ec, nil
	}
	return a.rsa, nil
}

// newAuthority returns a self-signed authority with key, named like Amazon's intermediates.
func newAuthority(key crypto.Signer, name string) (*authority, error) {
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{Country: []string{"US"}, Organization: []string{"Amazon"}, CommonName: name},
		NotBefore:    time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC),
		NotAfter:     time.Date(2045, 1, 1, 0, 0, 0, 0, time.UTC),
		KeyUsage:     x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		IsCA:         true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, fmt.Errorf("make the emulator's certificate authority: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("parse the emulator's certificate authority: %w", err)
	}
	return &authority{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}, nil
}

// newKey returns a new private key of a key algorithm ACM issues certificates with.
func newKey(alg types.KeyAlgorithm) (crypto.Signer, error) {
	switch alg {
	case types.KeyAlgorithmEcPrime256v1:
		return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case types.KeyAlgorithmEcSecp384r1:
		return ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	default:
		return rsa.GenerateKey(rand.Reader, 2048)
	}
}

// sign makes the PEM certificate and chain of an issued certificate: its names, serial and
// validity, a new key of its algorithm, signed by the emulator's authority for that algorithm.
func (b *Backend) sign(c *certificate) error {
	ca, err := shared.get(c.algorithm)
	if err != nil {
		return err
	}
	key, err := newKey(c.algorithm)
	if err != nil {
		return fmt.Errorf("make the key of %s: %w", c.arn, err)
	}
	serial, err := hex.DecodeString(strings.ReplaceAll(c.serial, ":", ""))
	if err != nil {
		return fmt.Errorf("serial of %s: %w", c.arn, err)
	}
	usage := x509.KeyUsageDigitalSignature
	if !strings.HasPrefix(string(c.algorithm), "EC_") {
		usage |= x509.KeyUsageKeyEncipherment
	}
	tmpl := &x509.Certificate{
		SerialNumber: new(big.Int).SetBytes(serial),
		Subject:      pkix.Name{CommonName: c.domain},
		DNSNames:     c.sans,
		NotBefore:    aws.ToTime(c.notBefore),
		NotAfter:     aws.ToTime(c.notAfter),
		KeyUsage:     usage,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, key.Public(), ca.key)
	if err != nil {
		return fmt.Errorf("sign %s: %w", c.arn, err)
	}
	c.certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	c.chainPEM = ca.pem
	return nil
}
