package edge_test

import (
	"maps"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/edge"
	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// BenchmarkSeedExamples applies the edge family's seed examples, one after the other, with the
// operator's and the emulator's default options (a distribution is deployed 5s after a change,
// and looked at again at most every 15s, the default DeployRecheck, while it is not), and reports for each the AWS calls
// it took to create, the time from apply to Ready, and the AWS calls of one sync at steady
// state: CloudFront's, and for the S3 example S3's too (its create figure counts the
// S3Bucket's calls with the distribution's), for the APIs API Gateway's and Lambda's (the
// policy of the function the routes invoke). Run it with -benchtime=1x: every example is
// created once.
func BenchmarkSeedExamples(b *testing.B) {
	h := startWith(b, emulator.Options{}, edge.Tunables{}, func(*operator.Options) {})
	h.provider(b, "default", "production-aws")
	h.shopZone(b, "default") // the alias example's certificate is validated through it
	h.apiHandler(b)          // the APIs' routes invoke the compute family's seed function
	for _, tc := range []struct {
		file     string
		obj      shared.Managed
		services []string
	}{
		{"cloudfrontdistribution-domain.yaml", &v1alpha1.CloudFrontDistribution{ObjectMeta: seedMeta("storefront-cdn")}, []string{"CloudFront"}},
		{"cloudfrontdistribution-alias.yaml", &v1alpha1.CloudFrontDistribution{ObjectMeta: seedMeta("cdn")}, []string{"CloudFront"}},
		{"cloudfrontdistribution-s3.yaml", &v1alpha1.CloudFrontDistribution{ObjectMeta: seedMeta("site-cdn")}, []string{"CloudFront", "S3"}},
		{"apigateway-rest.yaml", &v1alpha1.APIGateway{ObjectMeta: seedMeta("pets-api")}, []string{"APIGateway", "Lambda"}},
		{"apigateway-http.yaml", &v1alpha1.APIGateway{ObjectMeta: seedMeta("items-api")}, []string{"APIGatewayV2", "Lambda"}},
		{"apigateway-websocket.yaml", &v1alpha1.APIGateway{ObjectMeta: seedMeta("chat-api")}, []string{"APIGatewayV2", "Lambda"}},
	} {
		b.Run(tc.file, func(b *testing.B) {
			if b.N > 1 {
				b.Skip("each example is created once; run with -benchtime=1x")
			}
			h.emu.Calls.Reset()
			began := time.Now()
			h.apply(b, tc.file, "default")
			o := kubetest.WaitFor(b, h.c, tc.obj, 2*time.Minute, "Ready", isReady)
			calls := func() map[string]int {
				out := map[string]int{}
				for _, service := range tc.services {
					maps.Copy(out, kubetest.Calls(h.emu.Calls.Snapshot(), service))
				}
				return out
			}
			kubetest.SeedFigures(b, h.c, o, began, calls, h.emu.Calls.Reset)
		})
	}
}

// seedMeta returns the metadata naming the seed example name in the namespace default.
func seedMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: "default", Name: name}
}
