package eks

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// randomHex returns n random bytes in hexadecimal.
func randomHex(n int) string {
	buf := make([]byte, n)
	_, _ = rand.Read(buf)
	return hex.EncodeToString(buf)
}

// endpointID returns the 32 upper-case hex digits that name a cluster's API server endpoint
// and its OIDC issuer.
func endpointID() string { return strings.ToUpper(randomHex(16)) }

// endpointURL returns a cluster's API server endpoint as EKS forms it:
// https://<id>.<cell>.<region>.eks.amazonaws.com, the cell two letters and a digit (gr7).
func endpointURL(scope core.Scope, id string) string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	cell := string(rune('a'+b[0]%26)) + string(rune('a'+b[1]%26)) + string(rune('0'+b[2]%10))
	return "https://" + id + "." + cell + "." + scope.Region + ".eks.amazonaws.com"
}

// issuerURL returns the OIDC issuer of the cluster whose endpoint has id.
func issuerURL(scope core.Scope, id string) string {
	return "https://oidc.eks." + scope.Region + ".amazonaws.com/id/" + id
}

// securityGroupID returns the id of a cluster security group (sg- and 17 hex digits).
func securityGroupID() string { return "sg-" + randomHex(9)[:17] }

// certificateAuthority returns a new self-signed "kubernetes" CA certificate, PEM-encoded and
// then base64-encoded, as certificateAuthority.data holds it, valid for ten years from now.
func certificateAuthority(now time.Time) string {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(fmt.Sprintf("generate CA key: %v", err))
	}
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 63))
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: "kubernetes"},
		NotBefore: now.Add(-time.Minute), NotAfter: now.AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		panic(fmt.Sprintf("create CA certificate: %v", err))
	}
	return base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}
