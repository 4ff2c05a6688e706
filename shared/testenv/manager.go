package testenv

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	ctrlconfig "sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// Manager returns a manager for the control plane with the test scheme, no metrics or probe
// endpoints, and controller name checks off, so a test may run several managers.
func (e *Env) Manager(t testing.TB) manager.Manager {
	t.Helper()
	skip := true
	mgr, err := ctrl.NewManager(e.Config, ctrl.Options{
		Scheme:                 e.Scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Controller:             ctrlconfig.Controller{SkipNameValidation: &skip},
	})
	if err != nil {
		t.Fatalf("create manager: %v", err)
	}
	return mgr
}

// Run starts mgr in the background until stop is called or the test ends. ctx is cancelled
// when it stops; pass it to controllers' setup.
func Run(t testing.TB, mgr manager.Manager, ctx context.Context, cancel context.CancelFunc) (stop func()) {
	t.Helper()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := mgr.Start(ctx); err != nil {
			t.Errorf("manager: %v", err)
		}
	}()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); wg.Wait() }) }
	t.Cleanup(stop)
	return stop
}

// FreeAddress returns a loopback address with a port that was free a moment ago.
func FreeAddress(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("find a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().String()
}

// Eventually polls check until it returns "" or timeout passes, then fails t with check's last
// answer.
func Eventually(t testing.TB, timeout time.Duration, check func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for time.Now().Before(deadline) {
		if last = check(); last == "" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("after %s: %s", timeout, last)
}
