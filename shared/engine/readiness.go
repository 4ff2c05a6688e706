package engine

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/metrics"
)

// readiness keeps the Resources, DriftedResources, StalledResources and NotReadySince gauges
// of one kind and observes TimeToFirstReady.
type readiness struct {
	kind    string
	mu      sync.Mutex
	objects map[types.NamespacedName]health
}

// health is what the gauges count of one object, as its last reconcile left it.
type health struct {
	ready, drifted, stalled bool
	// notReadySince is when the object stopped being Ready, or was created; zero when Ready.
	notReadySince time.Time
}

func newReadiness(kind string) *readiness {
	return &readiness{kind: kind, objects: map[types.NamespacedName]health{}}
}

// observe records the readiness of o after a reconcile that started from orig.
func (t *readiness) observe(orig, o v1alpha1.Managed) {
	st := o.GetManagedStatus()
	if st.Ready && !everReady(orig) {
		if synced := st.LastSyncTime; synced != nil {
			metrics.TimeToFirstReady.WithLabelValues(t.kind).Observe(synced.Sub(o.GetCreationTimestamp().Time).Seconds())
		}
	}
	h := health{ready: st.Ready, drifted: len(st.Drift) > 0, stalled: meta.IsStatusConditionTrue(st.Conditions, condition.TypeStalled)}
	if !h.ready {
		h.notReadySince = o.GetCreationTimestamp().Time
		if c := meta.FindStatusCondition(st.Conditions, condition.TypeReady); c != nil && c.Status != metav1.ConditionTrue {
			h.notReadySince = c.LastTransitionTime.Time
		}
	}
	key := types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}
	t.mu.Lock()
	t.objects[key] = h
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
	delete(t.objects, key)
	t.publish()
	t.mu.Unlock()
}

// publish sets the gauges from the objects' health; the caller holds t.mu.
func (t *readiness) publish() {
	var ready, notReady, drifted, stalled float64
	var oldest time.Time
	for _, h := range t.objects {
		if h.ready {
			ready++
		} else {
			notReady++
			if oldest.IsZero() || h.notReadySince.Before(oldest) {
				oldest = h.notReadySince
			}
		}
		if h.drifted {
			drifted++
		}
		if h.stalled {
			stalled++
		}
	}
	metrics.Resources.WithLabelValues(t.kind, "true").Set(ready)
	metrics.Resources.WithLabelValues(t.kind, "false").Set(notReady)
	metrics.DriftedResources.WithLabelValues(t.kind).Set(drifted)
	metrics.StalledResources.WithLabelValues(t.kind).Set(stalled)
	if notReady == 0 {
		metrics.NotReadySince.DeleteLabelValues(t.kind)
		return
	}
	metrics.NotReadySince.WithLabelValues(t.kind).Set(float64(oldest.Unix()))
}
