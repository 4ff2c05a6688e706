package security_test

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// BenchmarkSeedExamples applies the security family's seed examples, one after the other, with
// the operator's default options and IAM's propagation wait of 10s, and reports for each the
// AWS calls it took to create, the time from apply to Ready, and the AWS calls of one sync at
// steady state. Run it with -benchtime=1x: every example is created once.
func BenchmarkSeedExamples(b *testing.B) {
	h := startWith(b, 10*time.Second, func(*operator.Options) {})
	h.provider(b, "default", "production-aws")
	for _, tc := range []struct{ file, name, service string }{
		{"iamrole-ec2.yaml", "ec2-web-server-role", "IAM"},
		{"iamrole-lambda.yaml", "lambda-execution-role", "IAM"},
	} {
		b.Run(tc.file, func(b *testing.B) {
			if b.N > 1 {
				b.Skip("each example is created once; run with -benchtime=1x")
			}
			h.emu.Calls.Reset()
			began := time.Now()
			h.apply(b, tc.file, "default")
			o := kubetest.WaitFor(b, h.c, &v1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: tc.name}}, time.Minute, "Ready",
				func(r *v1alpha1.IAMRole) bool { return isReady(r) })
			kubetest.SeedFigures(b, h.c, o, began, func() map[string]int { return kubetest.Calls(h.emu.Calls.Snapshot(), tc.service) }, h.emu.Calls.Reset)
		})
	}
}

// isReady reports whether r's Ready condition is True.
func isReady(r *v1alpha1.IAMRole) bool {
	for _, c := range r.Status.Conditions {
		if c.Type == "Ready" {
			return c.Status == metav1.ConditionTrue
		}
	}
	return false
}
