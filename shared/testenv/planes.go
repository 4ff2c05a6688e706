package testenv

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/metadata"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// A test package whose TestMain calls Main shares its control planes between its tests, one
// test at a time: a test with CRDs gets the control plane the previous test used, after every
// object of its CRDs was deleted at the end of the previous test (see wipe), holding exactly
// the CRDs the test asks for (see fit: those it lacks are installed, the others uninstalled).
// Booting kube-apiserver and installing the CRDs is most of the CPU a family's integration test
// spends, so sharing it halves the time of the test run on two cores. A test that asks for no
// CRD at all (an installer's test, which brings its own) still gets a control plane of its own,
// booted ahead while the previous such test runs.
var planes struct {
	mu      sync.Mutex
	enabled bool
	// idle is a control plane with CRDs that no test holds, ready for the next test.
	idle *ControlPlane
	// next receives the bare control plane booted for the next test that needs its own.
	next chan booted
	// stopping counts the control planes stopping in the background.
	stopping sync.WaitGroup
}

// booted is a control plane started without CRDs, or the error that stopped it.
type booted struct {
	cp  *ControlPlane
	err error
}

// Main runs the tests of a package with shared control planes (see planes), and stops every
// control plane it started before the test binary exits. Call it from TestMain:
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
func Main(m *testing.M) {
	planes.mu.Lock()
	planes.enabled = true
	planes.mu.Unlock()
	code := m.Run()
	planes.mu.Lock()
	planes.enabled = false
	idle, next := planes.idle, planes.next
	planes.idle, planes.next = nil, nil
	planes.mu.Unlock()
	if idle != nil {
		stopInBackground(idle)
	}
	if next != nil {
		if b := <-next; b.cp != nil {
			stopInBackground(b.cp)
		}
	}
	planes.stopping.Wait()
	os.Exit(code)
}

// startPlane returns a running control plane with defs installed, and registers with t what
// happens to it when t ends. Without Main it is a new control plane, stopped at the end of t.
// With Main, a test with CRDs shares the package's control plane (see planes), and a test
// with none (bare) gets its own, booted ahead.
func startPlane(t testing.TB, assets string, defs []*apiextensionsv1.CustomResourceDefinition, bare bool) (*ControlPlane, error) {
	planes.mu.Lock()
	if !planes.enabled {
		planes.mu.Unlock()
		cp, err := StartControlPlane(assets, defs)
		if err == nil {
			t.Cleanup(func() {
				if err := cp.Stop(); err != nil {
					t.Error(err)
				}
			})
		}
		return cp, err
	}
	// A bare test leaves the shared control plane to the tests with CRDs.
	var idle *ControlPlane
	if !bare {
		idle, planes.idle = planes.idle, nil
	}
	planes.mu.Unlock()

	if idle != nil {
		err := idle.fit(defs)
		if err == nil {
			t.Cleanup(func() { release(t, idle) })
			return idle, nil
		}
		t.Logf("testenv: a new control plane, as the previous one could not be prepared: %v", err)
		stopInBackground(idle)
	}
	// A new control plane: the one booted ahead, if any; a bare test boots the next one ahead.
	planes.mu.Lock()
	next := planes.next
	planes.next = nil
	if bare {
		planes.next = bootAhead(assets)
	}
	planes.mu.Unlock()
	var b booted
	if next != nil {
		b = <-next
	} else {
		b.cp, b.err = StartControlPlane(assets, nil)
	}
	if b.err != nil {
		return nil, b.err
	}
	cp := b.cp
	if bare {
		t.Cleanup(func() { stopInBackground(cp) })
		return cp, nil
	}
	cp.installed = map[string]*apiextensionsv1.CustomResourceDefinition{}
	if err := cp.install(defs); err != nil {
		stopInBackground(cp)
		return nil, err
	}
	t.Cleanup(func() { release(t, cp) })
	return cp, nil
}

// fit makes c hold exactly defs for the next test: it uninstalls the CRDs c holds that defs
// lack or define differently, and installs those of defs it lacks. Reusing a control plane this
// way costs a fraction of booting a new one and installing every CRD again.
func (c *ControlPlane) fit(defs []*apiextensionsv1.CustomResourceDefinition) error {
	asked := map[string]*apiextensionsv1.CustomResourceDefinition{}
	for _, d := range defs {
		asked[d.Name] = d
	}
	var surplus []*apiextensionsv1.CustomResourceDefinition
	for name, have := range c.installed {
		if d, found := asked[name]; !found || !equalCRD(have, d) {
			surplus = append(surplus, have)
		}
	}
	if err := c.uninstall(surplus); err != nil {
		return err
	}
	var missing []*apiextensionsv1.CustomResourceDefinition
	for _, d := range defs {
		if c.installed[d.Name] == nil {
			missing = append(missing, d)
		}
	}
	return c.install(missing)
}

// install installs defs into c and records them as installed.
func (c *ControlPlane) install(defs []*apiextensionsv1.CustomResourceDefinition) error {
	if len(defs) == 0 {
		return nil
	}
	// InstallCRDs sets fields of the definitions it is given; it gets copies.
	copies := make([]*apiextensionsv1.CustomResourceDefinition, len(defs))
	for i, d := range defs {
		copies[i] = d.DeepCopy()
	}
	if _, err := envtest.InstallCRDs(c.Config, envtest.CRDInstallOptions{CRDs: copies}); err != nil {
		return fmt.Errorf("install the CRDs: %w", err)
	}
	for _, d := range defs {
		c.installed[d.Name] = d
	}
	return nil
}

// uninstall deletes defs from c and waits until the API server no longer serves them, so that
// the next test finds them absent, as on a new control plane.
func (c *ControlPlane) uninstall(defs []*apiextensionsv1.CustomResourceDefinition) error {
	if len(defs) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), uninstallTimeout)
	defer cancel()
	mc, err := metadata.NewForConfig(c.Config)
	if err != nil {
		return fmt.Errorf("metadata client: %w", err)
	}
	dc, err := discovery.NewDiscoveryClientForConfig(c.Config)
	if err != nil {
		return fmt.Errorf("discovery client: %w", err)
	}
	crds := mc.Resource(apiextensionsv1.SchemeGroupVersion.WithResource("customresourcedefinitions"))
	for _, d := range defs {
		if err := crds.Delete(ctx, d.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("uninstall the CRD %s: %w", d.Name, err)
		}
	}
	for _, d := range defs {
		err := wait.PollUntilContextCancel(ctx, 50*time.Millisecond, true, func(ctx context.Context) (bool, error) {
			if _, err := crds.Get(ctx, d.Name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				return false, nil
			}
			return !served(dc, d), nil
		})
		if err != nil {
			return fmt.Errorf("wait for the CRD %s to be gone: %w", d.Name, err)
		}
		delete(c.installed, d.Name)
	}
	return nil
}

// served reports whether the API server's discovery still lists d's resource in any of its
// versions.
func served(dc discovery.DiscoveryInterface, d *apiextensionsv1.CustomResourceDefinition) bool {
	for _, v := range d.Spec.Versions {
		list, err := dc.ServerResourcesForGroupVersion(d.Spec.Group + "/" + v.Name)
		if err != nil {
			// The group version is gone (NotFound), or discovery failed: look again.
			if apierrors.IsNotFound(err) {
				continue
			}
			return true
		}
		for _, r := range list.APIResources {
			if r.Name == d.Spec.Names.Plural {
				return true
			}
		}
	}
	return false
}

// release hands cp, which the test t held, to the next test once every object of its CRDs is
// deleted; a control plane that cannot be cleaned stops instead.
func release(t testing.TB, cp *ControlPlane) {
	if err := cp.wipe(); err != nil {
		t.Logf("testenv: the control plane is not shared with the next test: %v", err)
		stopInBackground(cp)
		return
	}
	planes.mu.Lock()
	defer planes.mu.Unlock()
	if planes.enabled && planes.idle == nil {
		planes.idle = cp
		return
	}
	stopInBackground(cp)
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

// stopInBackground stops cp without waiting; Main waits for it before the test binary exits.
// A control plane that fails to stop is reported on standard error, as no test is left to fail.
func stopInBackground(cp *ControlPlane) {
	planes.stopping.Add(1)
	go func() {
		defer planes.stopping.Done()
		if err := cp.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "testenv:", err)
		}
	}()
}
