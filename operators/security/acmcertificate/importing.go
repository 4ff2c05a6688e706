package acmcertificate

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"
	corev1 "k8s.io/api/core/v1"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// fieldImport names the change that imports the Secret's certificate again.
const fieldImport = "importFrom"

// readBundle reads and checks the TLS Secret an imported certificate names. A missing Secret
// or key is a *WaitingError: the object recovers when the Secret appears or changes.
func (d *driver) readBundle(ctx context.Context, c *v1alpha1.ACMCertificate) (*bundle, error) {
	name := c.Spec.ImportFrom.SecretRef.Name
	data, _, err := managed.SecretData(ctx, d.kube, c.Namespace, "spec.importFrom.secretRef", name,
		[]string{corev1.TLSCertKey, corev1.TLSPrivateKeyKey}, []string{caKey})
	if err != nil {
		return nil, err
	}
	return parseBundle(c.Namespace+"/"+name, data, time.Now())
}

// importNew imports the Secret's certificate as a new ACM certificate with the tags, and
// records its ARN and the fingerprint of what was imported. ImportCertificate has no
// idempotency token: Observe finds a certificate whose import answer was lost by its ownership
// tags (the engine keeps the SDK from retrying a write whose outcome is unknown).
func (d *driver) importNew(ctx context.Context, c *v1alpha1.ACMCertificate, req managed.Request) error {
	b, err := d.readBundle(ctx, c)
	if err != nil {
		return err
	}
	out, err := d.api.ImportCertificate(ctx, &acm.ImportCertificateInput{Certificate: b.cert, CertificateChain: b.chain, PrivateKey: b.key,
		Tags: tagList(req.Tags)})
	if err != nil {
		return managed.Wrap(err, "import the certificate of Secret %s/%s", c.Namespace, c.Spec.ImportFrom.SecretRef.Name)
	}
	managed.SetExternalName(c, aws.ToString(out.CertificateArn))
	c.Status.ImportedFingerprint = b.fingerprint
	return nil
}

// planReimport reads the Secret of an imported certificate and plans importing it again into
// the same ARN when its certificate differs from ACM's (another serial number: renewed, or
// changed outside the operator) or its certificate or chain from the last import (another
// fingerprint). ACM keeps a certificate's key algorithm across imports: a Secret whose key is
// of another algorithm is a conflict.
func (d *driver) planReimport(ctx context.Context, obs *managed.Observation[State], c *v1alpha1.ACMCertificate, cert *types.CertificateDetail) error {
	b, err := d.readBundle(ctx, c)
	if err != nil {
		return err
	}
	arn := aws.ToString(cert.CertificateArn)
	same := sameSerial(aws.ToString(cert.Serial), b.leaf.SerialNumber)
	if same && c.Status.ImportedFingerprint == "" {
		// The status does not say what was imported (a certificate adopted, or found after
		// its import answer was lost): what ACM serves does.
		if c.Status.ImportedFingerprint, err = d.servedFingerprint(ctx, arn); err != nil {
			return err
		}
	}
	if same && c.Status.ImportedFingerprint == b.fingerprint {
		return nil
	}
	if cert.KeyAlgorithm != b.algorithm {
		obs.Conflict = managed.Terminal(condition.ReasonSecretValueInvalid, "the certificate in Secret %s/%s has a %s key, and ACM imports into "+
			"certificate %s only certificates with a %s key; create a new ACMCertificate for the new key", c.Namespace,
			c.Spec.ImportFrom.SecretRef.Name, b.algorithm, arn, cert.KeyAlgorithm)
		return nil
	}
	obs.Changes.Add(fieldImport, func(ctx context.Context) error {
		_, err := d.api.ImportCertificate(ctx, &acm.ImportCertificateInput{CertificateArn: aws.String(arn), Certificate: b.cert,
			CertificateChain: b.chain, PrivateKey: b.key})
		if err != nil {
			return managed.Wrap(err, "import the certificate of Secret %s/%s again into %s", c.Namespace, c.Spec.ImportFrom.SecretRef.Name, arn)
		}
		c.Status.ImportedFingerprint = b.fingerprint
		return nil
	})
	return nil
}

// servedFingerprint returns the fingerprint of the certificate and chain ACM serves for arn.
func (d *driver) servedFingerprint(ctx context.Context, arn string) (string, error) {
	out, err := d.api.GetCertificate(ctx, &acm.GetCertificateInput{CertificateArn: aws.String(arn)})
	if err != nil {
		return "", fmt.Errorf("get certificate %s: %w", arn, err)
	}
	leaf, err := certificates([]byte(aws.ToString(out.Certificate)))
	if err != nil || len(leaf) != 1 {
		return "", fmt.Errorf("certificate %s: ACM serves no single PEM certificate", arn)
	}
	chain, err := certificates([]byte(aws.ToString(out.CertificateChain)))
	if err != nil {
		return "", fmt.Errorf("certificate %s: ACM serves a chain that is not PEM certificates: %w", arn, err)
	}
	return fingerprint(leaf[0], chainOf(leaf[0], chain)), nil
}

// sameSerial reports whether ACM's serial number (hexadecimal bytes separated by colons)
// is serial.
func sameSerial(acmSerial string, serial *big.Int) bool {
	n, ok := new(big.Int).SetString(strings.ReplaceAll(acmSerial, ":", ""), 16)
	return ok && n.Cmp(serial) == 0
}
