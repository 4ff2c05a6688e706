package operator

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlconfig "sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/engine"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// NewManager builds a manager that runs the given families with opts against cfg: the
// AWSProvider controller once, and every family's controllers. instance names this operator
// instance in AWSProvider status.validatedBy.
func NewManager(ctx context.Context, cfg *rest.Config, families []Family, instance string, opts Options) (manager.Manager, error) {
	scheme := runtime.NewScheme()
	adds := []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, v1alpha1.AddToScheme}
	var names []string
	for _, f := range families {
		adds = append(adds, f.AddToScheme...)
		names = append(names, f.Name)
	}
	for _, add := range adds {
		if err := add(scheme); err != nil {
			return nil, fmt.Errorf("build scheme: %w", err)
		}
	}
	cacheOpts := cache.Options{DefaultTransform: slimForCache}
	if len(opts.Namespaces) > 0 {
		cacheOpts.DefaultNamespaces = map[string]cache.Config{}
		for _, ns := range opts.Namespaces {
			cacheOpts.DefaultNamespaces[ns] = cache.Config{}
		}
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                  scheme,
		Cache:                   cacheOpts,
		Metrics:                 metricsOptions(opts),
		HealthProbeBindAddress:  opts.ProbeAddress,
		LeaderElection:          opts.LeaderElect,
		LeaderElectionID:        strings.Join(names, "-") + ".infra-operator.runner.codes",
		LeaderElectionNamespace: opts.LeaderElectionNamespace,
		// Leaving the Lease at shutdown lets a new replica take over at once.
		LeaderElectionReleaseOnCancel: true,
		GracefulShutdownTimeout:       ptr(30 * time.Second),
		Controller:                    ctrlconfig.Controller{SkipNameValidation: ptr(opts.SharedProcess)},
	})
	if err != nil {
		return nil, fmt.Errorf("create manager: %w", err)
	}
	if err := mgr.AddHealthzCheck("ping", healthz.Ping); err != nil {
		return nil, fmt.Errorf("add health check: %w", err)
	}
	if err := mgr.AddReadyzCheck("informers", cacheSynced(mgr)); err != nil {
		return nil, fmt.Errorf("add readiness check: %w", err)
	}
	tenancy, err := opts.Tenancy()
	if err != nil {
		return nil, err
	}
	tenancy.APIServer = cfg.Host
	guards, err := opts.Guardrails()
	if err != nil {
		return nil, err
	}
	installID, err := resolveInstallID(ctx, cfg, opts.InstallID)
	if err != nil {
		return nil, err
	}
	resolver := &provider.Resolver{Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(), SessionName: "infra-operator-" + strings.Join(names, "-"),
		Tenancy: tenancy, InstallID: installID, HTTPTimeout: opts.AWSTimeout, NoSessionTags: !opts.RoleSessionTags}
	users, previews := &provider.Users{}, &engine.Previews{}
	pc := &provider.Controller{
		Client:   mgr.GetClient(),
		Resolver: resolver,
		Recorder: mgr.GetEventRecorder("infra-operator-awsprovider"),
		Instance: instance,
		Interval: opts.ProviderRevalidation,
		Users:    users,
	}
	if err := pc.SetupWithManager(ctx, mgr); err != nil {
		return nil, fmt.Errorf("set up the AWSProvider controller: %w", err)
	}
	for _, f := range families {
		setup := engine.SetupOptions{
			Resolver:                resolver,
			MaxConcurrentReconciles: opts.MaxConcurrentReconciles,
			Family:                  f.Name,
			Users:                   users,
			Previews:                previews,
			Reconciler: engine.Options{SyncPeriod: opts.SyncPeriod, WaitInterval: opts.WaitInterval, Timeout: opts.ReconcileTimeout,
				CreateGrace: opts.CreateGrace, Boundary: opts.Boundary(), Guardrails: guards},
		}
		for _, k := range f.Kinds {
			if err := k.Setup(ctx, mgr, setup); err != nil {
				return nil, fmt.Errorf("set up the %s family: %w", f.Name, err)
			}
		}
	}
	if err := engine.SetupPreviews(mgr, previews); err != nil {
		return nil, fmt.Errorf("set up the Preview controller: %w", err)
	}
	return mgr, nil
}

// metricsOptions serves /metrics at opts.MetricsAddress: with opts.MetricsSecure over HTTPS,
// to clients that the API server authenticates and authorizes for GET /metrics (so that no
// tenant reads which namespaces, kinds and providers the operator serves), otherwise over
// plain HTTP.
func metricsOptions(opts Options) metricsserver.Options {
	if !opts.MetricsSecure {
		return metricsserver.Options{BindAddress: opts.MetricsAddress}
	}
	return metricsserver.Options{
		BindAddress:    opts.MetricsAddress,
		SecureServing:  true,
		CertDir:        opts.MetricsCertDir,
		FilterProvider: metricsAuthFilter,
	}
}

// resolveInstallID returns id, or when it is empty the UID of the kube-system namespace, which
// tells one cluster's install from another's.
func resolveInstallID(ctx context.Context, cfg *rest.Config, id string) (string, error) {
	if id != "" {
		return id, nil
	}
	c, err := client.New(cfg, client.Options{})
	if err != nil {
		return "", fmt.Errorf("build a client to read the kube-system namespace: %w", err)
	}
	ns := &corev1.Namespace{}
	if err := c.Get(ctx, client.ObjectKey{Name: "kube-system"}, ns); err != nil {
		return "", fmt.Errorf("read the kube-system namespace for the default install id (or set --install-id): %w", err)
	}
	return string(ns.UID), nil
}

// cacheSynced is a readiness check that passes once the manager's informers have synced.
func cacheSynced(mgr manager.Manager) healthz.Checker {
	return func(req *http.Request) error {
		ctx, cancel := context.WithTimeout(req.Context(), time.Second)
		defer cancel()
		if !mgr.GetCache().WaitForCacheSync(ctx) {
			return errors.New("informers have not synced yet")
		}
		return nil
	}
}

// RESTConfig returns the configuration to reach the API server: from kubeconfig when given,
// otherwise in-cluster, otherwise $KUBECONFIG or ~/.kube/config. Whatever the path, its client
// rate is qps requests per second with bursts of burst (0: twice qps); a negative qps turns the
// client-side limit off.
func RESTConfig(kubeconfig string, qps float32, burst int) (*rest.Config, error) {
	var cfg *rest.Config
	var err error
	if kubeconfig != "" {
		if cfg, err = clientcmd.BuildConfigFromFlags("", kubeconfig); err != nil {
			return nil, fmt.Errorf("load kubeconfig %s: %w", kubeconfig, err)
		}
	} else if cfg, err = ctrl.GetConfig(); err != nil {
		return nil, fmt.Errorf("find the cluster (no in-cluster config, no $KUBECONFIG, no ~/.kube/config): %w", err)
	}
	cfg.QPS, cfg.Burst = qps, burst
	if burst <= 0 && qps > 0 {
		cfg.Burst = int(2 * qps)
	}
	return cfg, nil
}

// Instance names this operator instance for AWSProvider status.validatedBy: the family names
// and the pod's namespace ($POD_NAMESPACE), which tells apart installs in several namespaces.
func Instance(names ...string) string {
	id := strings.Join(names, "+")
	if ns := os.Getenv("POD_NAMESPACE"); ns != "" {
		id += "@" + ns
	}
	return id
}

func ptr[T any](v T) *T { return &v }
