package containers_test

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	netv1alpha1 "github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	secv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// BenchmarkSeedExamples applies the containers family's examples, one after the other, with
// the operator's and the emulator's default options, and reports for each the AWS calls it
// took to create, the time from apply to Ready, and the AWS calls of one sync at steady state.
// Run it with -benchtime=1x: every example is created once.
func BenchmarkSeedExamples(b *testing.B) {
	h := startWith(b, emulator.Options{}, func(*operator.Options) {})
	h.provider(b, "default", "production-aws")
	for _, tc := range []struct {
		file    string
		obj     shared.Managed
		service string
	}{
		{"ecrrepository-application-images.yaml", &v1alpha1.ECRRepository{ObjectMeta: seedMeta("application-images")}, "ECR"},
		{"ecrrepository-app-images.yaml", &v1alpha1.ECRRepository{ObjectMeta: seedMeta("app-images")}, "ECR"},
		{"ecscluster.yaml", &v1alpha1.ECSCluster{ObjectMeta: seedMeta("production-cluster")}, "ECS"},
		// What the web service needs from other families: its secret and its load balancer.
		{"../security/secretsmanagersecret-api-key.yaml", &secv1alpha1.SecretsManagerSecret{ObjectMeta: seedMeta("api-key")}, "SecretsManager"},
		{"../networking/load-balancers.yaml", &netv1alpha1.ALB{ObjectMeta: seedMeta("storefront")}, "ELBv2"},
		{"ecstaskdefinition.yaml", &v1alpha1.ECSTaskDefinition{ObjectMeta: seedMeta("web")}, "ECS"},
		{"ecsservice.yaml", &v1alpha1.ECSService{ObjectMeta: seedMeta("web")}, "ECS"},
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
