package acmcertificate

import (
	"encoding/pem"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/acm/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/testenv/certtest"
)

// TestParseBundle checks what a TLS Secret gives ImportCertificate (the leaf, the chain from
// tls.crt and ca.crt without repeats, the key algorithm, a fingerprint of the certificates
// only) and the Secrets refused before any AWS call, with messages that never quote the key.
func TestParseBundle(t *testing.T) {
	now := time.Now()
	ca := certtest.New(t, "Example CA", certtest.Options{})
	leaf := certtest.New(t, "www.example.com", certtest.Options{Parent: ca})
	rsaLeaf := certtest.New(t, "rsa.example.com", certtest.Options{RSABits: 2048, Parent: ca})
	self := certtest.New(t, "self.example.com", certtest.Options{})
	expired := certtest.New(t, "old.example.com", certtest.Options{NotBefore: now.AddDate(-1, 0, 0), NotAfter: now.Add(-time.Hour)})
	future := certtest.New(t, "new.example.com", certtest.Options{NotBefore: now.Add(time.Hour)})
	encrypted := pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: []byte("opaque")})
	type want struct {
		chain     []byte
		algorithm types.KeyAlgorithm
		problem   string
	}
	cases := map[string]struct {
		data map[string][]byte
		want want
	}{
		"LeafOnly":       {map[string][]byte{"tls.crt": leaf.CertPEM, "tls.key": leaf.KeyPEM}, want{algorithm: types.KeyAlgorithmEcPrime256v1}},
		"ChainInTLSCrt":  {map[string][]byte{"tls.crt": cat(leaf.CertPEM, ca.CertPEM), "tls.key": leaf.KeyPEM}, want{chain: ca.CertPEM, algorithm: types.KeyAlgorithmEcPrime256v1}},
		"ChainInCACrt":   {map[string][]byte{"tls.crt": leaf.CertPEM, "tls.key": leaf.KeyPEM, "ca.crt": ca.CertPEM}, want{chain: ca.CertPEM, algorithm: types.KeyAlgorithmEcPrime256v1}},
		"ChainInBoth":    {map[string][]byte{"tls.crt": cat(leaf.CertPEM, ca.CertPEM), "tls.key": leaf.KeyPEM, "ca.crt": ca.CertPEM}, want{chain: ca.CertPEM, algorithm: types.KeyAlgorithmEcPrime256v1}},
		"SelfSignedAsCA": {map[string][]byte{"tls.crt": self.CertPEM, "tls.key": self.KeyPEM, "ca.crt": self.CertPEM}, want{algorithm: types.KeyAlgorithmEcPrime256v1}},
		"RSA":            {map[string][]byte{"tls.crt": rsaLeaf.CertPEM, "tls.key": rsaLeaf.KeyPEM}, want{algorithm: types.KeyAlgorithmRsa2048}},
		"NotPEM":         {map[string][]byte{"tls.crt": []byte("hello"), "tls.key": leaf.KeyPEM}, want{problem: "tls.crt is not PEM certificates"}},
		"KeyInTLSCrt":    {map[string][]byte{"tls.crt": cat(leaf.CertPEM, leaf.KeyPEM), "tls.key": leaf.KeyPEM}, want{problem: "tls.crt is not PEM certificates"}},
		"BadCACrt":       {map[string][]byte{"tls.crt": leaf.CertPEM, "tls.key": leaf.KeyPEM, "ca.crt": leaf.KeyPEM}, want{problem: "ca.crt is not PEM certificates"}},
		"KeyOfAnother":   {map[string][]byte{"tls.crt": leaf.CertPEM, "tls.key": self.KeyPEM}, want{problem: "tls.key is not the key of the certificate"}},
		"KeyNotPEM":      {map[string][]byte{"tls.crt": leaf.CertPEM, "tls.key": []byte("secret-value")}, want{problem: "tls.key is not a PEM private key"}},
		"KeyEncrypted":   {map[string][]byte{"tls.crt": leaf.CertPEM, "tls.key": encrypted}, want{problem: "tls.key is encrypted"}},
		"KeyTooLarge":    {map[string][]byte{"tls.crt": leaf.CertPEM, "tls.key": []byte(strings.Repeat("k", maxKeySize+1))}, want{problem: "larger than the 5120 bytes"}},
		"Expired":        {map[string][]byte{"tls.crt": expired.CertPEM, "tls.key": expired.KeyPEM}, want{problem: "the certificate expired on"}},
		"NotYetValid":    {map[string][]byte{"tls.crt": future.CertPEM, "tls.key": future.KeyPEM}, want{problem: "is valid from"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b, err := parseBundle("ns/tls", tc.data, now)
			if tc.want.problem != "" {
				term, ok := managed.AsTerminal(err)
				if !ok || term.Reason != condition.ReasonSecretValueInvalid || !strings.Contains(err.Error(), tc.want.problem) {
					t.Fatalf("got %v, want a terminal %s holding %q", err, condition.ReasonSecretValueInvalid, tc.want.problem)
				}
				if strings.Contains(err.Error(), "PRIVATE KEY") || strings.Contains(err.Error(), "secret-value") {
					t.Errorf("the error quotes the key: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := want{chain: b.chain, algorithm: b.algorithm}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
			if string(b.cert) != string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: b.leaf.Raw})) || string(b.key) != string(tc.data["tls.key"]) {
				t.Errorf("the certificate or key is not the Secret's")
			}
		})
	}
}

// TestBundleFingerprint checks that the fingerprint changes with the certificate and with the
// chain, and not with text around the PEM.
func TestBundleFingerprint(t *testing.T) {
	now := time.Now()
	ca := certtest.New(t, "Example CA", certtest.Options{})
	leaf := certtest.New(t, "www.example.com", certtest.Options{Parent: ca})
	renewed := certtest.New(t, "www.example.com", certtest.Options{Parent: ca})
	fingerprint := func(data map[string][]byte) string {
		t.Helper()
		b, err := parseBundle("ns/tls", data, now)
		if err != nil {
			t.Fatal(err)
		}
		return b.fingerprint
	}
	base := fingerprint(map[string][]byte{"tls.crt": leaf.CertPEM, "tls.key": leaf.KeyPEM})
	if !strings.HasPrefix(base, "sha256:") || len(base) != len("sha256:")+64 {
		t.Errorf("fingerprint %q", base)
	}
	if fingerprint(map[string][]byte{"tls.crt": cat(leaf.CertPEM, ca.CertPEM), "tls.key": leaf.KeyPEM}) == base {
		t.Error("a chain added does not change the fingerprint")
	}
	if fingerprint(map[string][]byte{"tls.crt": renewed.CertPEM, "tls.key": renewed.KeyPEM}) == base {
		t.Error("a renewed certificate does not change the fingerprint")
	}
	if fingerprint(map[string][]byte{"tls.crt": cat([]byte("# leaf\n"), leaf.CertPEM), "tls.key": leaf.KeyPEM}) != base {
		t.Error("text around the PEM changes the fingerprint")
	}
}

// cat returns the concatenation of PEM documents.
func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
