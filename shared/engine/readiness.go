package engine

import (
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/metrics"
)

// readiness keeps the Resources and DriftedResources gauges of one kind and observes
// TimeToFirstReady.
type readiness struct {
	kind    string
	mu      sync.Mutex
	ready   map[types.NamespacedName]bool
	drifted map[types.NamespacedName]bool
}

func newReadiness(kind string) *readiness {
	return &readiness{kind: kind, ready: map[types.NamespacedName]bool{}, drifted: map[types.NamespacedName]bool{}}
}

// observe records the readiness of o after a reconcile that started from orig.
func (t *readiness) observe(orig, o v1alpha1.Managed) {
	now := o.GetManagedStatus().Ready
	if now && !everReady(orig) {
		if st := o.GetManagedStatus().LastSyncTime; st != nil {
			metrics.TimeToFirstReady.WithLabelValues(t.kind).Observe(st.Sub(o.GetCreationTimestamp().Time).Seconds())
		}
	}
	key := types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}
	t.mu.Lock()
	t.ready[key] = now
	t.drifted[key] = len(o.GetManagedStatus().Drift) > 0
	t.publish()
	t.mu.Unlock()
}

// everReady reports whether o was Ready before, judged by its Ready condition: True, or False
// with reason Unavailable, which is only given to a resource that was Ready and stopped being.
func everReady(o v1alpha1.Managed) bool {
	for _, c := range o.GetManagedStatus().Conditions {
		if c.Type == condition.TypeReady {
			return c.Status == metav1.ConditionTrue || c.Reason == condition.ReasonUnavailable
		}
	}
	return false
}

// forget drops an object that no longer exists.
func (t *readiness) forget(key types.NamespacedName) {
	t.mu.Lock()
	delete(t.ready, key)
	delete(t.drifted, key)
	t.publish()
	t.mu.Unlock()
}

// publish sets the gauge from the map; the caller holds t.mu.
func (t *readiness) publish() {
	var ready, notReady float64
	for _, r := range t.ready {
		if r {
			ready++
		} else {
			notReady++
		}
	}
	metrics.Resources.WithLabelValues(t.kind, "true").Set(ready)
	metrics.Resources.WithLabelValues(t.kind, "false").Set(notReady)
	var drifted float64
	for _, d := range t.drifted {
		if d {
			drifted++
		}
	}
	metrics.DriftedResources.WithLabelValues(t.kind).Set(drifted)
}
