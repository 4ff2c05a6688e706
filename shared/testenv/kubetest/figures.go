package kubetest

import (
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// SeedFigures reports the figures of a seed example applied at began and now Ready as o: the
// AWS calls it took to create (calls returns the emulator's counts of the example's service
// since the last reset, by operation), the time to Ready, and the calls of one steady-state
// sync, for which it resets the counts and asks for a resync.
func SeedFigures(b *testing.B, c client.Client, o client.Object, began time.Time, calls func() map[string]int, reset func()) {
	b.Helper()
	elapsed := time.Since(began)
	created := calls()
	create := Total(created)
	reset()
	ResyncUntil(b, c, o, "a sync", func() bool { return Total(calls()) > 0 })
	time.Sleep(500 * time.Millisecond)
	sync := calls()
	b.ReportMetric(float64(create), "create-calls")
	b.ReportMetric(elapsed.Seconds(), "s-to-ready")
	b.ReportMetric(float64(Total(sync)), "sync-calls")
	b.Logf("%s: %d calls to create %v, Ready after %s, %d calls per steady-state sync %v", o.GetName(), create, created, elapsed.Round(10*time.Millisecond), Total(sync), sync)
}
