package engine

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/runner-codes/infra-operator/shared/metrics"
)

// TestDriftMetrics checks the drift metrics: a reported drift counts one drifted Widget in the
// gauge and one more drift found in the counter; a pass that finds the resource back in line
// empties the gauge.
func TestDriftMetrics(t *testing.T) {
	before := testutil.ToFloat64(metrics.DriftDetected.WithLabelValues("Widget"))
	run(t, fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied, reportDrift), cloud: inCloud(7, true)})
	if got := testutil.ToFloat64(metrics.DriftedResources.WithLabelValues("Widget")); got != 1 {
		t.Errorf("drifted_resources{kind=Widget} = %v after a reported drift, want 1", got)
	}
	if got := testutil.ToFloat64(metrics.DriftDetected.WithLabelValues("Widget")); got != before+1 {
		t.Errorf("drift_detected_total{kind=Widget} = %v, want %v", got, before+1)
	}
	run(t, fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied, reportDrift), cloud: inCloud(3, true)})
	if got := testutil.ToFloat64(metrics.DriftedResources.WithLabelValues("Widget")); got != 0 {
		t.Errorf("drifted_resources{kind=Widget} = %v for a resource in line, want 0", got)
	}
}
