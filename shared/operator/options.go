package operator

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/runner-codes/infra-operator/shared/guardrails"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Options are the settings a platform engineer expects of a controller binary.
type Options struct {
	// MetricsAddress serves /metrics; "0" disables it.
	MetricsAddress string
	// MetricsSecure serves /metrics over HTTPS to clients that the API server authenticates
	// (TokenReview) and authorizes for GET on the non-resource URL /metrics
	// (SubjectAccessReview); off, it is plain unauthenticated HTTP.
	MetricsSecure bool
	// MetricsCertDir holds tls.crt and tls.key for the secure metrics endpoint; empty means a
	// self-signed certificate made at start.
	MetricsCertDir string
	// ProbeAddress serves /healthz and /readyz.
	ProbeAddress string
	// LeaderElect enables leader election, so that only one replica reconciles.
	LeaderElect bool
	// LeaderElectionNamespace holds the leader election Lease; empty means the pod's namespace.
	LeaderElectionNamespace string
	// Namespaces restricts watching to these namespaces; empty means all.
	Namespaces []string
	// MaxConcurrentReconciles is how many objects of each kind are reconciled at once.
	MaxConcurrentReconciles int
	// SyncPeriod is how often a Ready resource is compared with AWS, jittered.
	SyncPeriod time.Duration
	// ProviderRevalidation is how often AWSProviders are revalidated with STS.
	ProviderRevalidation time.Duration
	// WaitInterval is the longest wait between looks at a resource that AWS is still
	// creating, changing or deleting.
	WaitInterval time.Duration
	// LogLevel is debug, info or error.
	LogLevel string
	// LogFormat is json or console.
	LogFormat string
	// Kubeconfig is the path of a kubeconfig; empty means in-cluster or $KUBECONFIG.
	Kubeconfig string
	// KubeAPIQPS limits the requests per second to the API server; negative means no
	// client-side limit (the API server's priority and fairness governs), whatever the path
	// to the cluster.
	KubeAPIQPS float32
	// KubeAPIBurst is how many requests may exceed KubeAPIQPS at once; 0 means twice the QPS.
	KubeAPIBurst int
	// SharedProcess lets several managers run in one process, as tests start them; it turns
	// off controller-runtime's check that controller names are unique in the process.
	SharedProcess bool
	// OperatorIdentityNamespaces are the namespaces whose AWSProviders may use the operator's
	// own identity; "*" allows all.
	OperatorIdentityNamespaces []string
	// AssumeRolePolicy holds NAMESPACE=ROLE_ARN_PATTERN rules; when any is given, a namespace's
	// AWSProviders may assume only the roles a rule of theirs matches.
	AssumeRolePolicy []string
	// AllowEndpointOverride honours AWSProviders' spec.endpoint.
	AllowEndpointOverride bool
	// AllowLoopbackEndpoints lets AWSProviders' spec.endpoint name a loopback address (an
	// emulator in the operator's own pod or process); link-local and in-cluster addresses are
	// refused regardless.
	AllowLoopbackEndpoints bool
	// InClusterEndpoints holds NAMESPACE=HOST_PATTERN rules: in-cluster hosts (a LocalStack
	// service) the namespace's AWSProviders may name in spec.endpoint.
	InClusterEndpoints []string
	// RoleSessionTags passes the session tags infra-operator/namespace and
	// infra-operator/provider on every AssumeRole; a role's trust policy must then allow
	// sts:TagSession.
	RoleSessionTags bool
	// AdoptionNamespaces are the namespaces whose objects may adopt AWS resources that carry no
	// ownership tags (the external-name annotation on a resource the operator did not create);
	// "*" allows all.
	AdoptionNamespaces []string
	// TakeoverNamespaces are the namespaces whose objects may take over (takeover annotation),
	// or observe (managementPolicy ObserveOnly), AWS resources that another namespace's object
	// or another install owns; "*" allows all.
	TakeoverNamespaces []string
	// ForeignWriteNamespaces are the namespaces whose objects may write, through a field that
	// names a resource by ARN, into resources whose ownership tags do not name their
	// namespace; "*" allows all.
	ForeignWriteNamespaces []string
	// STSEndpoint is where the operator's own identity is exchanged for roles; empty means
	// AWS's STS for the region.
	STSEndpoint string
	// InstallID identifies this install in the tags of every created resource; empty means
	// the UID of the kube-system namespace.
	InstallID string
	// ReconcileTimeout bounds one reconcile.
	ReconcileTimeout time.Duration
	// AWSTimeout bounds one HTTP request to AWS.
	AWSTimeout time.Duration
	// CreateGrace is how long a resource whose create may have succeeded is looked up, rather
	// than created again, before the create is repeated.
	CreateGrace time.Duration
	// IAMPermissionsBoundary holds NAMESPACE=POLICY_ARN rules: every role an IAMRole object of
	// the namespace creates carries that permissions boundary.
	IAMPermissionsBoundary []string
	// IAMTrustedAccounts holds NAMESPACE=ACCOUNT_ID rules: accounts besides the provider's own
	// whose principals the namespace's roles may trust ("*" for any principal).
	IAMTrustedAccounts []string
	// IAMDeniedPolicies are the managed policy ARN patterns no role may attach.
	IAMDeniedPolicies []string
	// IAMRolePrefix holds NAMESPACE=PREFIX rules for the names of the namespace's roles.
	IAMRolePrefix []string
	// IAMRolePath holds NAMESPACE=PATH_PREFIX rules for the paths of the namespace's roles.
	IAMRolePath []string
	// PassableRoles holds NAMESPACE=ARN_PATTERN rules: the roles and instance profiles, besides
	// those of its own IAMRoles, that the namespace may pass to a service; none lets any role
	// of the provider's account be passed.
	PassableRoles []string
}

// DefaultOptions returns the defaults of the flags.
func DefaultOptions() Options {
	return Options{
		MetricsAddress:          ":8080",
		MetricsSecure:           true,
		RoleSessionTags:         true,
		ProbeAddress:            ":8081",
		MaxConcurrentReconciles: 10,
		SyncPeriod:              10 * time.Minute,
		ProviderRevalidation:    5 * time.Minute,
		WaitInterval:            5 * time.Second,
		LogLevel:                "info",
		LogFormat:               "json",
		ReconcileTimeout:        2 * time.Minute,
		AWSTimeout:              30 * time.Second,
		CreateGrace:             time.Minute,
		IAMDeniedPolicies:       slices.Clone(guardrails.DefaultDeniedPolicies),
		// As controller-runtime's own default: thousands of objects are not throttled to
		// client-go's 5 requests per second, and the API server still protects itself.
		KubeAPIQPS: -1,
		// One team per cluster is the common case, as with ACK and Crossplane; a multi-team
		// cluster restricts it.
		OperatorIdentityNamespaces: []string{"*"},
		// Adopting what the operator did not create is a single-team cluster's habit; taking
		// over, observing or writing into another namespace's resources is not allowed until
		// the administrator says so.
		AdoptionNamespaces: []string{"*"},
	}
}

// AddFlags binds o to flags.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.MetricsAddress, "metrics-bind-address", o.MetricsAddress, `address of the /metrics endpoint ("0" disables it)`)
	fs.BoolVar(&o.MetricsSecure, "metrics-secure", o.MetricsSecure, "serve /metrics over HTTPS, only to clients the API server authenticates and authorizes for GET /metrics")
	fs.StringVar(&o.MetricsCertDir, "metrics-cert-dir", o.MetricsCertDir, "directory holding tls.crt and tls.key for the secure /metrics endpoint (default: a self-signed certificate)")
	fs.StringVar(&o.ProbeAddress, "health-probe-bind-address", o.ProbeAddress, "address of the /healthz and /readyz endpoints")
	fs.BoolVar(&o.LeaderElect, "leader-elect", o.LeaderElect, "elect a leader so that only one replica reconciles")
	fs.StringVar(&o.LeaderElectionNamespace, "leader-election-namespace", o.LeaderElectionNamespace, "namespace of the leader election Lease (default: the pod's namespace)")
	fs.StringSliceVar(&o.Namespaces, "namespaces", o.Namespaces, "comma-separated namespaces to watch (default: all)")
	fs.IntVar(&o.MaxConcurrentReconciles, "max-concurrent-reconciles", o.MaxConcurrentReconciles, "objects of each kind reconciled at once")
	fs.DurationVar(&o.SyncPeriod, "sync-period", o.SyncPeriod, "how often a Ready resource is compared with AWS (jittered by ±10%)")
	fs.DurationVar(&o.ProviderRevalidation, "provider-revalidation", o.ProviderRevalidation, "how often AWSProvider credentials are revalidated")
	fs.DurationVar(&o.WaitInterval, "wait-interval", o.WaitInterval, "longest wait between looks at a resource AWS is still creating, changing or deleting (a resource AWS makes available at once is looked at again in the same pass; otherwise the first look comes 200ms, or the kind's first lifecycle step, after a write, and the waits double up to it)")
	fs.StringVar(&o.LogLevel, "log-level", o.LogLevel, "log level: debug, info or error")
	fs.StringVar(&o.LogFormat, "log-format", o.LogFormat, "log format: json or console")
	fs.StringVar(&o.Kubeconfig, "kubeconfig", o.Kubeconfig, "path of a kubeconfig (default: in-cluster, or $KUBECONFIG)")
	fs.Float32Var(&o.KubeAPIQPS, "kube-api-qps", o.KubeAPIQPS, "requests per second to the API server; -1 leaves the rate to the API server's priority and fairness")
	fs.IntVar(&o.KubeAPIBurst, "kube-api-burst", o.KubeAPIBurst, "requests to the API server that may exceed --kube-api-qps at once (default: twice the QPS)")
	fs.StringSliceVar(&o.OperatorIdentityNamespaces, "operator-identity-namespaces", o.OperatorIdentityNamespaces,
		`namespaces whose AWSProviders may use the operator's own identity (IRSA, Pod Identity, default chain); "*" for all`)
	fs.StringArrayVar(&o.AssumeRolePolicy, "assume-role-policy", o.AssumeRolePolicy,
		"NAMESPACE=ROLE_ARN_PATTERN (\"*\" matches anything), repeatable; when given, AWSProviders may assume only roles a rule of their namespace matches")
	fs.BoolVar(&o.AllowEndpointOverride, "allow-endpoint-override", o.AllowEndpointOverride, "honour AWSProviders' spec.endpoint (an emulator, LocalStack)")
	fs.BoolVar(&o.AllowLoopbackEndpoints, "allow-loopback-endpoints", o.AllowLoopbackEndpoints,
		"with --allow-endpoint-override, let AWSProviders' spec.endpoint name a loopback address (127.0.0.0/8, ::1, localhost); link-local, in-cluster and API server addresses are always refused")
	fs.StringArrayVar(&o.InClusterEndpoints, "in-cluster-endpoints", o.InClusterEndpoints,
		"NAMESPACE=HOST_PATTERN (\"*\" matches anything), repeatable: with --allow-endpoint-override, in-cluster hosts (for example *=localstack) the namespace's AWSProviders may name in spec.endpoint; link-local and loopback addresses stay refused")
	fs.BoolVar(&o.RoleSessionTags, "role-session-tags", o.RoleSessionTags,
		"tag every role session with infra-operator/namespace and infra-operator/provider (the role's trust policy must allow sts:TagSession); the session name carries the namespace either way")
	fs.StringSliceVar(&o.AdoptionNamespaces, "adoption-namespaces", o.AdoptionNamespaces,
		`namespaces whose objects may adopt AWS resources without ownership tags (annotation external-name); "*" for all`)
	fs.StringSliceVar(&o.TakeoverNamespaces, "takeover-namespaces", o.TakeoverNamespaces,
		`namespaces whose objects may take over (annotation takeover) or observe AWS resources owned by another namespace's object or another install; "*" for all`)
	fs.StringSliceVar(&o.ForeignWriteNamespaces, "foreign-write-namespaces", o.ForeignWriteNamespaces,
		`namespaces whose objects may write permissions or policy statements into resources given by ARN whose ownership tags name another namespace or none; "*" for all`)
	fs.StringVar(&o.STSEndpoint, "sts-endpoint", o.STSEndpoint, "STS endpoint where the operator's own identity is exchanged for roles (default: AWS's STS for the region)")
	fs.StringVar(&o.InstallID, "install-id", o.InstallID, "identity of this install, tagged on every created resource (default: the kube-system namespace's UID)")
	fs.DurationVar(&o.ReconcileTimeout, "reconcile-timeout", o.ReconcileTimeout, "deadline of one reconcile, AWS calls included")
	fs.DurationVar(&o.AWSTimeout, "aws-timeout", o.AWSTimeout, "timeout of one HTTP request to AWS")
	fs.StringArrayVar(&o.IAMPermissionsBoundary, "iam-permissions-boundary", o.IAMPermissionsBoundary,
		"NAMESPACE=POLICY_ARN (\"*\" matches any namespace; {account} and {namespace} are filled in), repeatable: every role an IAMRole of the namespace creates carries that permissions boundary")
	fs.StringArrayVar(&o.IAMTrustedAccounts, "iam-trusted-accounts", o.IAMTrustedAccounts,
		"NAMESPACE=ACCOUNT_ID, repeatable: an account besides the provider's own whose principals the namespace's roles may trust (ACCOUNT_ID \"*\": any principal, anyone included)")
	fs.StringArrayVar(&o.IAMDeniedPolicies, "iam-denied-policies", o.IAMDeniedPolicies,
		"managed policy ARN pattern (\"*\" matches anything) no IAMRole may attach, repeatable; giving any replaces the default list, \"\" alone denies none")
	fs.StringArrayVar(&o.IAMRolePrefix, "iam-role-prefix", o.IAMRolePrefix,
		"NAMESPACE=PREFIX ({namespace} is filled in, for example *={namespace}-), repeatable: the names of the namespace's roles start with PREFIX")
	fs.StringArrayVar(&o.IAMRolePath, "iam-role-path", o.IAMRolePath,
		"NAMESPACE=PATH_PREFIX ({namespace} is filled in, for example */{namespace}/), repeatable: the paths of the namespace's roles start with PATH_PREFIX")
	fs.StringArrayVar(&o.PassableRoles, "passable-roles", o.PassableRoles,
		"NAMESPACE=ARN_PATTERN, repeatable: roles (or instance profiles) a namespace may pass to a service besides those its IAMRoles made; when none is given, any role of the provider's account may be passed")
	fs.DurationVar(&o.CreateGrace, "create-grace", o.CreateGrace,
		"how long a resource whose create may have succeeded is looked up before it is created again (AWS's read-after-create delay)")
}

// Boundary returns what the flags let a namespace's objects do to AWS resources that are not
// theirs.
func (o *Options) Boundary() *managed.Boundary {
	return &managed.Boundary{AdoptionNamespaces: o.AdoptionNamespaces, TakeoverNamespaces: o.TakeoverNamespaces,
		ForeignWriteNamespaces: o.ForeignWriteNamespaces}
}

// Tenancy returns the tenancy settings of the flags.
func (o *Options) Tenancy() (*provider.Tenancy, error) {
	t := &provider.Tenancy{OperatorIdentityNamespaces: o.OperatorIdentityNamespaces, AllowEndpointOverride: o.AllowEndpointOverride,
		AllowLoopbackEndpoints: o.AllowLoopbackEndpoints, STSEndpoint: o.STSEndpoint}
	for _, rule := range o.AssumeRolePolicy {
		r, err := provider.ParseRoleRule(rule)
		if err != nil {
			return nil, fmt.Errorf("--assume-role-policy: %w", err)
		}
		t.AssumeRoles = append(t.AssumeRoles, r)
	}
	for _, rule := range o.InClusterEndpoints {
		r, err := provider.ParseHostRule(rule)
		if err != nil {
			return nil, fmt.Errorf("--in-cluster-endpoints: %w", err)
		}
		t.InClusterEndpoints = append(t.InClusterEndpoints, r)
	}
	return t, nil
}

// Guardrails returns the IAM guardrails of the flags.
func (o *Options) Guardrails() (*guardrails.IAM, error) {
	g := &guardrails.IAM{}
	for _, f := range []struct {
		flag  string
		rules []string
		into  *[]guardrails.Rule
	}{
		{"--iam-permissions-boundary", o.IAMPermissionsBoundary, &g.Boundaries},
		{"--iam-trusted-accounts", o.IAMTrustedAccounts, &g.TrustedAccounts},
		{"--iam-role-prefix", o.IAMRolePrefix, &g.RolePrefixes},
		{"--iam-role-path", o.IAMRolePath, &g.RolePaths},
		{"--passable-roles", o.PassableRoles, &g.PassableRoles},
	} {
		rules, err := guardrails.ParseRules(f.flag, f.rules)
		if err != nil {
			return nil, err
		}
		*f.into = rules
	}
	for _, r := range g.Boundaries {
		if !strings.HasPrefix(r.Value, "arn:") || !strings.Contains(r.Value, ":policy/") {
			return nil, fmt.Errorf("--iam-permissions-boundary: %q is not a managed policy ARN", r.Value)
		}
	}
	for _, r := range g.TrustedAccounts {
		if r.Value != "*" && !guardrails.IsAccountID(r.Value) {
			return nil, fmt.Errorf("--iam-trusted-accounts: %q is not an account id or \"*\"", r.Value)
		}
	}
	for _, p := range o.IAMDeniedPolicies {
		if p != "" {
			g.DeniedPolicies = append(g.DeniedPolicies, p)
		}
	}
	return g, nil
}

// Validate checks the options.
func (o *Options) Validate() error {
	switch o.LogLevel {
	case "debug", "info", "error":
	default:
		return fmt.Errorf("--log-level must be debug, info or error, not %q", o.LogLevel)
	}
	switch o.LogFormat {
	case "json", "console":
	default:
		return fmt.Errorf("--log-format must be json or console, not %q", o.LogFormat)
	}
	if o.KubeAPIQPS == 0 {
		// client-go reads 0 as its default of 5 requests per second, which throttles a
		// controller of many objects to a crawl.
		return errors.New("--kube-api-qps must be positive, or -1 for no client-side limit; 0 would mean client-go's 5 requests per second")
	}
	if o.KubeAPIBurst < 0 {
		return fmt.Errorf("--kube-api-burst must not be negative, not %d", o.KubeAPIBurst)
	}
	if o.MaxConcurrentReconciles < 1 {
		return fmt.Errorf("--max-concurrent-reconciles must be at least 1, not %d", o.MaxConcurrentReconciles)
	}
	if o.SyncPeriod < 10*time.Second {
		return fmt.Errorf("--sync-period must be at least 10s, not %s", o.SyncPeriod)
	}
	if o.ProviderRevalidation < 10*time.Second {
		return fmt.Errorf("--provider-revalidation must be at least 10s, not %s", o.ProviderRevalidation)
	}
	if o.WaitInterval < 100*time.Millisecond || o.WaitInterval > 5*time.Minute {
		return fmt.Errorf("--wait-interval must be between 100ms and 5m, not %s", o.WaitInterval)
	}
	if o.ReconcileTimeout < time.Second {
		return fmt.Errorf("--reconcile-timeout must be at least 1s, not %s", o.ReconcileTimeout)
	}
	if o.CreateGrace < time.Second {
		return fmt.Errorf("--create-grace must be at least 1s, not %s", o.CreateGrace)
	}
	if o.AWSTimeout < 100*time.Millisecond {
		return fmt.Errorf("--aws-timeout must be at least 100ms, not %s", o.AWSTimeout)
	}
	if _, err := o.Tenancy(); err != nil {
		return err
	}
	if _, err := o.Guardrails(); err != nil {
		return err
	}
	return nil
}
