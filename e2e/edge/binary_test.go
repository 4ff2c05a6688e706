package edge_test

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/edge"
	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestBinary builds the edge-operator binary and runs it, as a Deployment would, against a
// real control plane and the AWS emulator (distributions deployed 300ms after a change): a
// CloudFront distribution by domain name becomes Ready, the AWS call metrics count its one
// create, an HTTP API with a URL route becomes Ready too, and the binary exits cleanly on
// SIGTERM.
func TestBinary(t *testing.T) {
	kubetest.RunBinaryCheck(t, kubetest.BinaryCheck{
		Family: edge.Family(),
		AWS:    emulator.New(emulator.Options{Transitions: map[string]time.Duration{"CloudFront": 300 * time.Millisecond}}),
		Object: func(ns string) shared.Managed {
			d := &v1alpha1.CloudFrontDistribution{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "cdn"}}
			d.Spec.ProviderRef.Name = "aws"
			d.Spec.Origins = []v1alpha1.DistributionOrigin{{ID: "web", DomainName: "origin.example.com"}}
			d.Spec.DefaultCacheBehavior.TargetOriginID = "web"
			return d
		},
		Metrics: []string{
			`infra_operator_aws_api_calls_total{operation="CreateDistributionWithTags",outcome="success",service="CloudFront"} 1`,
			`infra_operator_resources{kind="CloudFrontDistribution",ready="true"} 1`,
		},
		Then: func(t *testing.T, env *testenv.Env, ns string) {
			a := &v1alpha1.APIGateway{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "status-api"}}
			a.Spec.ProviderRef.Name = "aws"
			a.Spec.ProtocolType = v1alpha1.ProtocolHTTP
			a.Spec.Routes = []v1alpha1.Route{{RouteKey: "GET /status", Integration: v1alpha1.Integration{URL: "https://status.example.com"}}}
			a.Spec.Stages = []v1alpha1.Stage{{Name: "$default"}}
			kubetest.Create(t, env.Client, a)
			if a = kubetest.WaitReady(t, env.Client, a); a.Status.APIEndpoint == "" || len(a.Status.Stages) != 1 {
				t.Errorf("HTTP API status = %+v", a.Status)
			}
		},
	})
}
