package doctor

import (
	"context"
	"fmt"
	"net/http"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/crds"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// Defaults of Options.
const (
	// DefaultCheckTimeout bounds the API calls of one check.
	DefaultCheckTimeout = 10 * time.Second
	// DefaultStuckAfter is how long an object may be deleting before it counts as stuck.
	DefaultStuckAfter = 10 * time.Minute
	// maxRows is how many rows one check writes about objects before a summary row.
	maxRows = 20
)

// Options say what doctor checks.
type Options struct {
	// Families are the families checked.
	Families []operator.Family
	// Namespace holds the AWSProviders and managed objects checked; empty means every
	// namespace.
	Namespace string
	// OperatorNamespace is where the operators' Deployments are looked for; empty means every
	// namespace.
	OperatorNamespace string
	// CheckTimeout bounds the API calls of each check.
	CheckTimeout time.Duration
	// StuckAfter is how long an object may be deleting before it is reported as stuck.
	StuckAfter time.Duration
}

// family is a checked family with its embedded CRDs.
type family struct {
	name string
	crds []*apiextensionsv1.CustomResourceDefinition
}

// cluster is what the checks talk to, and what they check for.
type cluster struct {
	c client.Client
	// http reaches the API server as c does, for its service proxy at host.
	http *http.Client
	host string
	opts Options
	// shared are the embedded shared CRDs (AWSProvider, ClusterAWSProvider, Preview); fams
	// the checked families with theirs.
	shared []*apiextensionsv1.CustomResourceDefinition
	fams   []family
}

// Run checks the install in the cluster of cfg and returns every row. It fails only when it
// cannot start (a client cannot be built, the embedded CRDs do not load); what the cluster
// refuses or does not answer in time becomes a row.
func Run(ctx context.Context, cfg *rest.Config, opts Options) (*Report, error) {
	if opts.CheckTimeout <= 0 {
		opts.CheckTimeout = DefaultCheckTimeout
	}
	if opts.StuckAfter <= 0 {
		opts.StuckAfter = DefaultStuckAfter
	}
	shared, err := crds.Load(crds.FS())
	if err != nil {
		return nil, fmt.Errorf("load the shared CRDs: %w", err)
	}
	fams := make([]family, 0, len(opts.Families))
	for _, f := range opts.Families {
		fam := family{name: f.Name}
		if f.CRDs != nil {
			if fam.crds, err = crds.Load(f.CRDs); err != nil {
				return nil, fmt.Errorf("load the %s family's CRDs: %w", f.Name, err)
			}
		}
		fams = append(fams, fam)
	}
	k, err := connect(cfg, opts)
	if err != nil {
		return nil, err
	}
	k.shared, k.fams = shared, fams

	r := &Report{}
	step := func(check func(context.Context) []Row) {
		cctx, cancel := context.WithTimeout(ctx, opts.CheckTimeout)
		defer cancel()
		r.Rows = append(r.Rows, check(cctx)...)
	}
	var served map[string]bool
	step(func(ctx context.Context) []Row {
		rows, s := k.checkCRDs(ctx)
		served = s
		return rows
	})
	var deps []deployment
	step(func(ctx context.Context) []Row {
		rows, d := k.findDeployments(ctx)
		deps = d
		return rows
	})
	step(func(ctx context.Context) []Row { return k.checkRBAC(ctx, deps) })
	step(k.checkProviders)
	step(func(context.Context) []Row { return checkTenancy(deps) })
	step(func(ctx context.Context) []Row { return k.checkStuck(ctx, served) })
	step(func(ctx context.Context) []Row { return k.checkMetrics(ctx, deps) })
	return r, nil
}

// connect builds the clients of the checks: a client that knows the built-in kinds, CRDs and
// the shared API, and an HTTP client for the API server's service proxy.
func connect(cfg *rest.Config, opts Options) (*cluster, error) {
	// The checks send at most reviewWorkers requests at once; the API server's priority and
	// fairness paces them, as the operators' own clients are (their kubeAPI.qps -1), rather
	// than client-go's default of 5 a second, which the RBAC check's reviews would wait on.
	cfg = rest.CopyConfig(cfg)
	cfg.QPS = -1
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, apiextensionsv1.AddToScheme, v1alpha1.AddToScheme} {
		if err := add(scheme); err != nil {
			return nil, fmt.Errorf("build the scheme: %w", err)
		}
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return nil, fmt.Errorf("connect to the cluster at %s: %w", cfg.Host, err)
	}
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to the cluster at %s: %w", cfg.Host, err)
	}
	base, _, err := rest.DefaultServerUrlFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to the cluster at %s: %w", cfg.Host, err)
	}
	return &cluster{c: c, http: hc, host: base.String(), opts: opts}, nil
}
