package edge_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/compute"
	computev1 "github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data"
	"github.com/runner-codes/infra-operator/operators/edge"
	"github.com/runner-codes/infra-operator/operators/edge/cloudfrontdistribution"
	"github.com/runner-codes/infra-operator/operators/networking"
	"github.com/runner-codes/infra-operator/operators/security"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/awsfixture"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// Test credentials for the emulator; any key is accepted.
const (
	testAccessKey = "AKIDEDGETEST"
	testSecretKey = "edge-test-secret"
)

// harness is a control plane, an emulated AWS in front of which a test may slip a change of
// its own, and the edge family's controllers with the networking, security, data and compute
// families its references name.
type harness struct {
	env  *testenv.Env
	emu  *emulator.Server
	cf   *cloudfront.Client
	s3   *s3.Client
	rest *apigateway.Client
	v2   *apigatewayv2.Client
	fn   *lambda.Client
	ec2  *ec2.Client
	c    client.Client

	mu     sync.Mutex
	before func(r *http.Request) // run once before the next request it returns true for
	match  func(r *http.Request) bool
}

// start starts the harness with short waits: a distribution is deployed 2s after a change (long
// enough for a test to see it InProgress) and looked at again every 200ms while it is, and a
// certificate is issued 300ms after its request.
func start(t testing.TB) *harness {
	t.Helper()
	return startWith(t, emulator.Options{Transitions: map[string]time.Duration{"CloudFront": 2 * time.Second, "ACM": 300 * time.Millisecond}},
		edge.Tunables{CloudFrontDistribution: cloudfrontdistribution.Tunables{DeployRecheck: 200 * time.Millisecond}},
		func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond })
}

// startWith starts the harness with the emulator's options, the edge kinds' timings and the
// family's options changed by tune (empty options, zero timings and a tune that changes nothing
// give the defaults a user has).
func startWith(t testing.TB, opts emulator.Options, timings edge.Tunables, tune func(*operator.Options)) *harness {
	t.Helper()
	if opts.Accounts == nil {
		// The test key belongs to the account the seed examples' role ARNs name, so that the
		// Lambda functions they define pass roles of the provider's account, as the open
		// default of --passable-roles wants.
		opts.Accounts = map[string]string{testAccessKey: "123456789012"}
	}
	h := &harness{emu: emulator.New(opts)}
	h.env = families.Start(t, http.HandlerFunc(h.serve), tune, edge.FamilyWith(timings), networking.Family(), security.Family(), data.Family(), compute.Family())
	h.cf = cloudfront.NewFromConfig(h.env.AWSConfig(testAccessKey, testSecretKey))
	h.s3 = s3.NewFromConfig(h.env.AWSConfig(testAccessKey, testSecretKey), func(o *s3.Options) { o.UsePathStyle = true })
	cfg := h.env.AWSConfig(testAccessKey, testSecretKey)
	h.v2, h.fn, h.ec2 = apigatewayv2.NewFromConfig(cfg), lambda.NewFromConfig(cfg), ec2.NewFromConfig(cfg)
	h.rest = apigateway.NewFromConfig(cfg)
	h.c = h.env.Client
	return h
}

// serve passes a request to the emulator, after the change a test slipped in front of it.
func (h *harness) serve(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	before := h.before
	if before != nil && h.match(r) {
		h.before, h.match = nil, nil
	} else {
		before = nil
	}
	h.mu.Unlock()
	if before != nil {
		before(r)
	}
	h.emu.ServeHTTP(w, r)
}

// beforeNext runs do once, before the next AWS request match accepts reaches the emulator.
func (h *harness) beforeNext(match func(*http.Request) bool, do func(*http.Request)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.before, h.match = do, match
}

// isUpdate reports whether r is a CloudFront UpdateDistribution call.
func isUpdate(r *http.Request) bool {
	return r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/distribution/") && strings.HasSuffix(r.URL.Path, "/config")
}

// provider creates an AWSProvider named name in ns that reaches the emulator.
func (h *harness) provider(t testing.TB, ns, name string) {
	t.Helper()
	h.env.Provider(t, ns, name, testAccessKey, testSecretKey)
}

// apply applies an example file of examples/edge into ns.
func (h *harness) apply(t testing.TB, file, ns string) []*unstructured.Unstructured {
	t.Helper()
	return kubetest.ApplySeed(t, h.c, filepath.Join("..", "..", "examples", "edge", file), ns)
}

// patchSpec merge-patches the spec of o with the JSON object spec.
func (h *harness) patchSpec(t testing.TB, o client.Object, spec string) {
	t.Helper()
	if err := h.c.Patch(context.Background(), o, client.RawPatch(k8stypes.MergePatchType, []byte(`{"spec":`+spec+`}`))); err != nil {
		t.Fatalf("patch %s: %v", o.GetName(), err)
	}
}

// distribution reads distribution id from CloudFront.
func (h *harness) distribution(t testing.TB, id string) (*types.Distribution, string) {
	t.Helper()
	out, err := h.cf.GetDistribution(context.Background(), &cloudfront.GetDistributionInput{Id: aws.String(id)})
	if err != nil {
		t.Fatalf("get distribution %s: %v", id, err)
	}
	return out.Distribution, aws.ToString(out.ETag)
}

// changeOutside changes distribution id's configuration as another writer would.
func (h *harness) changeOutside(t testing.TB, id string, change func(*types.DistributionConfig)) {
	t.Helper()
	d, etag := h.distribution(t, id)
	change(d.DistributionConfig)
	if _, err := h.cf.UpdateDistribution(context.Background(), &cloudfront.UpdateDistributionInput{
		Id: aws.String(id), IfMatch: aws.String(etag), DistributionConfig: d.DistributionConfig}); err != nil {
		t.Errorf("update distribution %s outside the operator: %v", id, err)
	}
}

// calls returns the CloudFront calls the emulator counted, by operation and outcome.
func (h *harness) calls() map[string]map[string]int {
	return h.emu.Calls.Snapshot()["CloudFront"]
}

// apiHandler applies the compute family's seed example lambdafunction-api-handler.yaml into
// namespace default, with its code package in S3 and its placeholder subnet and security group
// swapped for real ones, waits until the function is Ready and returns its ARN. The caller has
// made the provider production-aws of namespace default.
func (h *harness) apiHandler(t testing.TB) string {
	t.Helper()
	awsfixture.LambdaCode(t, h.s3, "my-lambda-code", "api-handler/v1.0.0.zip")
	subnet, group := awsfixture.Network(t, h.ec2, "10.7.0.0/16", "10.7.1.0/24")
	for _, u := range kubetest.ApplySeed(t, h.c, filepath.Join("..", "..", "examples", "compute", "lambdafunction-api-handler.yaml"), "default") {
		h.patchSpec(t, u, `{"vpcConfig":{"subnetIDs":["`+subnet+`"],"securityGroupIDs":["`+group+`"]}}`)
	}
	f := kubetest.WaitReady(t, h.c, &computev1.LambdaFunction{ObjectMeta: seedMeta("api-handler")})
	return f.Status.FunctionARN
}

// isReady reports whether o's Ready condition is True.
func isReady(o shared.Managed) bool {
	return meta.IsStatusConditionTrue(o.GetManagedStatus().Conditions, "Ready")
}
