// Package metrics defines the Prometheus metrics every infra-operator family exports and
// registers them with controller-runtime's registry, which the manager serves on /metrics.
package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	crmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
)

const namespace = "infra_operator"

var (
	// ReconcileTotal counts reconciles by kind and result (success, wait, error, terminal,
	// paused, deleted).
	ReconcileTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: namespace,
		Name:      "reconcile_total",
		Help:      "Reconciles of managed resources by kind and result.",
	}, []string{"kind", "result"})

	// ReconcileDuration observes how long one reconcile takes, by kind.
	ReconcileDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: namespace,
		Name:      "reconcile_duration_seconds",
		Help:      "Duration of one reconcile of a managed resource, by kind.",
		Buckets:   []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30},
	}, []string{"kind"})

	// AWSAPICalls counts AWS API call attempts by service, operation and outcome (success,
	// or the AWS error code, or "transport" for a failure before any answer).
	AWSAPICalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: namespace,
		Name:      "aws_api_calls_total",
		Help:      "AWS API call attempts by service, operation and outcome.",
	}, []string{"service", "operation", "outcome"})

	// AWSRequests counts AWS API call attempts by provider (its namespace, empty for a
	// ClusterAWSProvider, and name), service, operation and outcome class (success, throttled,
	// client_error, server_error, transport): what an operator of many accounts watches. Its
	// series are bounded by providers × the operations the family calls × 5.
	AWSRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: namespace,
		Name:      "aws_requests_total",
		Help:      "AWS API call attempts by provider, service, operation and outcome class.",
	}, []string{"provider_namespace", "provider", "service", "operation", "outcome"})

	// AWSRetries counts the attempts the SDK made after a call's first one, by provider,
	// service and operation.
	AWSRetries = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: namespace,
		Name:      "aws_retries_total",
		Help:      "AWS API call attempts after the first of their call (SDK retries), by provider, service and operation.",
	}, []string{"provider_namespace", "provider", "service", "operation"})

	// ProviderSlotsInUse reports how many of a kind's workers reconcile objects of one provider
	// at once; a provider whose slots stay full is slow or throttled, and its objects wait.
	ProviderSlotsInUse = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: namespace,
		Name:      "provider_slots_in_use",
		Help:      "Workers of a kind reconciling objects of one provider at once, by kind and provider.",
	}, []string{"kind", "provider_namespace", "provider"})

	// ProviderSlots reports how many workers of a kind one provider may hold at once.
	ProviderSlots = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: namespace,
		Name:      "provider_slots",
		Help:      "Workers of a kind that one provider may hold at once, by kind.",
	}, []string{"kind"})

	// ProviderReady reports, for each provider this operator validates, whether its credentials
	// were valid at the last validation (1) or not (0). One family's operator validates a
	// provider at a time; the others export no series for it.
	ProviderReady = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: namespace,
		Name:      "provider_ready",
		Help:      "Whether a provider's credentials were valid at its last validation (1) or not (0), by provider.",
	}, []string{"provider_namespace", "provider"})

	// Resources reports how many managed resources exist, by kind and readiness.
	Resources = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: namespace,
		Name:      "resources",
		Help:      "Managed resources by kind and readiness.",
	}, []string{"kind", "ready"})

	// StalledResources reports how many managed resources cannot make progress until their spec
	// or something outside the operator changes (condition Stalled=True), by kind.
	StalledResources = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: namespace,
		Name:      "stalled_resources",
		Help:      "Managed resources whose Stalled condition is True, by kind.",
	}, []string{"kind"})

	// NotReadySince reports, per kind, when the longest-waiting resource that is not Ready
	// stopped being Ready (or was created), as a Unix time; the series is absent while every
	// resource of the kind is Ready. time() minus it is how long that resource has waited.
	NotReadySince = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: namespace,
		Name:      "not_ready_since_timestamp_seconds",
		Help:      "Unix time since which the longest-waiting resource of a kind is not Ready; absent when all are Ready.",
	}, []string{"kind"})

	// TimeToFirstReady observes the time from an object's creation to its first Ready=True.
	TimeToFirstReady = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: namespace,
		Name:      "time_to_first_ready_seconds",
		Help:      "Time from the creation of a managed object to its first Ready condition, by kind.",
		Buckets:   []float64{0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600},
	}, []string{"kind"})

	// DriftedResources reports how many managed resources differ from their spec because
	// something outside the operator changed them (status.drift is not empty), by kind.
	DriftedResources = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: namespace,
		Name:      "drifted_resources",
		Help:      "Managed resources that differ from their spec after a change outside the operator, by kind.",
	}, []string{"kind"})

	// DriftDetected counts the drifts found (a new set of drifted fields on one object), by
	// kind, whether the operator restored them or only reported them.
	DriftDetected = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: namespace,
		Name:      "drift_detected_total",
		Help:      "Changes made outside the operator found on managed resources, by kind.",
	}, []string{"kind"})
)

func init() {
	crmetrics.Registry.MustRegister(ReconcileTotal, ReconcileDuration, AWSAPICalls, AWSRequests, AWSRetries, ProviderSlotsInUse, ProviderSlots, ProviderReady, Resources, StalledResources, NotReadySince, TimeToFirstReady, DriftedResources, DriftDetected)
}
