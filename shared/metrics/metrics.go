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

	// Resources reports how many managed resources exist, by kind and readiness.
	Resources = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: namespace,
		Name:      "resources",
		Help:      "Managed resources by kind and readiness.",
	}, []string{"kind", "ready"})

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
	crmetrics.Registry.MustRegister(ReconcileTotal, ReconcileDuration, AWSAPICalls, Resources, TimeToFirstReady, DriftedResources, DriftDetected)
}
