package security_test

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/security"
	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// BenchmarkSeedExamples applies the security family's seed examples, one after the other, with
// the operator's default options and IAM's propagation wait of 10s, and reports for each the
// AWS calls it took to create, the time from apply to Ready, and the AWS calls of one sync at
// steady state. Run it with -benchtime=1x: every example is created once.
func BenchmarkSeedExamples(b *testing.B) {
	h := startWith(b, security.Tunables{}, func(*operator.Options) {})
	h.provider(b, "default", "production-aws")
	kubetest.SetSecret(b, h.c, "default", "db-password", "password", "bench-db-password")
	for _, tc := range []struct {
		file    string
		obj     shared.Managed
		service string
	}{
		{"iamrole-ec2.yaml", &v1alpha1.IAMRole{ObjectMeta: seedMeta("ec2-web-server-role")}, "IAM"},
		{"iamrole-lambda.yaml", &v1alpha1.IAMRole{ObjectMeta: seedMeta("lambda-execution-role")}, "IAM"},
		{"secretsmanagersecret-database-password.yaml", &v1alpha1.SecretsManagerSecret{ObjectMeta: seedMeta("database-password")}, "SecretsManager"},
		{"secretsmanagersecret-api-key.yaml", &v1alpha1.SecretsManagerSecret{ObjectMeta: seedMeta("api-key")}, "SecretsManager"},
		{"kmskey-data-encryption.yaml", &v1alpha1.KMSKey{ObjectMeta: seedMeta("data-encryption-key")}, "KMS"},
		{"kmskey-signing.yaml", &v1alpha1.KMSKey{ObjectMeta: seedMeta("signing-key")}, "KMS"},
		{"acmcertificate-dns.yaml", &v1alpha1.ACMCertificate{ObjectMeta: seedMeta("storefront-cert")}, "ACM"},
		{"acmcertificate-imported.yaml", &v1alpha1.ACMCertificate{ObjectMeta: seedMeta("internal-cert")}, "ACM"},
		{"iampolicy.yaml", &v1alpha1.IAMPolicy{ObjectMeta: seedMeta("app-bucket-read")}, "IAM"},
		{"iaminstanceprofile.yaml", &v1alpha1.IAMInstanceProfile{ObjectMeta: seedMeta("web-server-profile")}, "IAM"},
		{"iamoidcprovider.yaml", &v1alpha1.IAMOIDCProvider{ObjectMeta: seedMeta("production-cluster-oidc")}, "IAM"},
	} {
		b.Run(tc.file, func(b *testing.B) {
			if b.N > 1 {
				b.Skip("each example is created once; run with -benchtime=1x")
			}
			h.emu.Calls.Reset()
			began := time.Now()
			h.apply(b, tc.file, "default")
			o := kubetest.WaitFor(b, h.c, tc.obj, time.Minute, "Ready", isReady)
			kubetest.SeedFigures(b, h.c, o, began, func() map[string]int { return kubetest.Calls(h.emu.Calls.Snapshot(), tc.service) }, h.emu.Calls.Reset)
		})
	}
}

// seedMeta returns the metadata naming the seed example name in the namespace default.
func seedMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: "default", Name: name}
}

// isReady reports whether o's Ready condition is True.
func isReady(o shared.Managed) bool {
	return meta.IsStatusConditionTrue(o.GetManagedStatus().Conditions, "Ready")
}
