package operator

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"
)

// Options are the settings a platform engineer expects of a controller binary.
type Options struct {
	// MetricsAddress serves /metrics; "0" disables it.
	MetricsAddress string
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
	// WaitInterval is how soon a resource that AWS is still creating, changing or deleting is
	// looked at again.
	WaitInterval time.Duration
	// LogLevel is debug, info or error.
	LogLevel string
	// LogFormat is json or console.
	LogFormat string
	// Kubeconfig is the path of a kubeconfig; empty means in-cluster or $KUBECONFIG.
	Kubeconfig string
	// SharedProcess lets several managers run in one process, as tests start them; it turns
	// off controller-runtime's check that controller names are unique in the process.
	SharedProcess bool
}

// DefaultOptions returns the defaults of the flags.
func DefaultOptions() Options {
	return Options{
		MetricsAddress:          ":8080",
		ProbeAddress:            ":8081",
		MaxConcurrentReconciles: 4,
		SyncPeriod:              10 * time.Minute,
		ProviderRevalidation:    5 * time.Minute,
		WaitInterval:            5 * time.Second,
		LogLevel:                "info",
		LogFormat:               "json",
	}
}

// AddFlags binds o to flags.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.MetricsAddress, "metrics-bind-address", o.MetricsAddress, `address of the /metrics endpoint ("0" disables it)`)
	fs.StringVar(&o.ProbeAddress, "health-probe-bind-address", o.ProbeAddress, "address of the /healthz and /readyz endpoints")
	fs.BoolVar(&o.LeaderElect, "leader-elect", o.LeaderElect, "elect a leader so that only one replica reconciles")
	fs.StringVar(&o.LeaderElectionNamespace, "leader-election-namespace", o.LeaderElectionNamespace, "namespace of the leader election Lease (default: the pod's namespace)")
	fs.StringSliceVar(&o.Namespaces, "namespaces", o.Namespaces, "comma-separated namespaces to watch (default: all)")
	fs.IntVar(&o.MaxConcurrentReconciles, "max-concurrent-reconciles", o.MaxConcurrentReconciles, "objects of each kind reconciled at once")
	fs.DurationVar(&o.SyncPeriod, "sync-period", o.SyncPeriod, "how often a Ready resource is compared with AWS (jittered by ±10%)")
	fs.DurationVar(&o.ProviderRevalidation, "provider-revalidation", o.ProviderRevalidation, "how often AWSProvider credentials are revalidated")
	fs.DurationVar(&o.WaitInterval, "wait-interval", o.WaitInterval, "how soon a resource AWS is still creating, changing or deleting is looked at again")
	fs.StringVar(&o.LogLevel, "log-level", o.LogLevel, "log level: debug, info or error")
	fs.StringVar(&o.LogFormat, "log-format", o.LogFormat, "log format: json or console")
	fs.StringVar(&o.Kubeconfig, "kubeconfig", o.Kubeconfig, "path of a kubeconfig (default: in-cluster, or $KUBECONFIG)")
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
	return nil
}
