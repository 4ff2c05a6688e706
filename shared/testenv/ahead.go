package testenv

import (
	"fmt"
	"os"
	"sync"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// A test package whose TestMain calls Main boots its control planes ahead: while one test
// runs, the kube-apiserver and etcd of the next test start in the background, and a finished
// test's control plane stops in the background too. Each test still gets a control plane of its
// own, so nothing one test leaves behind reaches another; the tests only stop waiting the four to
// six seconds a control plane takes to boot and the second it takes to stop.
var ahead struct {
	mu      sync.Mutex
	enabled bool
	// next receives the control plane booted for the next test, once one was asked for.
	next chan booted
	// stopping counts the control planes stopping in the background.
	stopping sync.WaitGroup
}

// booted is a control plane started without CRDs, or the error that stopped it.
type booted struct {
	cp  *ControlPlane
	err error
}

// Main runs the tests of a package with control planes booted ahead (see Start), and stops
// every control plane it started before the test binary exits. Call it from TestMain:
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
func Main(m *testing.M) {
	ahead.mu.Lock()
	ahead.enabled = true
	ahead.mu.Unlock()
	code := m.Run()
	ahead.mu.Lock()
	ahead.enabled = false
	next := ahead.next
	ahead.next = nil
	ahead.mu.Unlock()
	if next != nil {
		if b := <-next; b.cp != nil {
			stopInBackground(b.cp)
		}
	}
	ahead.stopping.Wait()
	os.Exit(code)
}

// startPlane returns a running control plane with defs installed: one booted ahead when the
// package's TestMain called Main (and the boot of the next one begins), otherwise a new one.
func startPlane(assets string, defs []*apiextensionsv1.CustomResourceDefinition) (*ControlPlane, error) {
	ahead.mu.Lock()
	if !ahead.enabled {
		ahead.mu.Unlock()
		return StartControlPlane(assets, defs)
	}
	next := ahead.next
	ahead.next = bootAhead(assets)
	ahead.mu.Unlock()
	var b booted
	if next != nil {
		b = <-next
	} else {
		b.cp, b.err = StartControlPlane(assets, nil)
	}
	if b.err != nil {
		return nil, b.err
	}
	if len(defs) > 0 {
		if _, err := envtest.InstallCRDs(b.cp.Config, envtest.CRDInstallOptions{CRDs: defs}); err != nil {
			stopInBackground(b.cp)
			return nil, fmt.Errorf("install the CRDs: %w", err)
		}
	}
	return b.cp, nil
}

// bootAhead starts a control plane without CRDs in the background and returns the channel
// that receives it.
func bootAhead(assets string) chan booted {
	next := make(chan booted, 1)
	go func() {
		cp, err := StartControlPlane(assets, nil)
		next <- booted{cp: cp, err: err}
	}()
	return next
}

// stopPlane stops cp when t ends: in the background when the package's TestMain called Main
// (which waits for it), otherwise before the test's other cleanups finish.
func stopPlane(t testing.TB, cp *ControlPlane) {
	ahead.mu.Lock()
	background := ahead.enabled
	ahead.mu.Unlock()
	if background {
		t.Cleanup(func() { stopInBackground(cp) })
		return
	}
	t.Cleanup(func() {
		if err := cp.Stop(); err != nil {
			t.Error(err)
		}
	})
}

// stopInBackground stops cp without waiting; Main waits for it before the test binary exits.
// A control plane that fails to stop is reported on standard error, as no test is left to fail.
func stopInBackground(cp *ControlPlane) {
	ahead.stopping.Add(1)
	go func() {
		defer ahead.stopping.Done()
		if err := cp.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "testenv:", err)
		}
	}()
}
