// Package sandbox runs infra-operator on a laptop with no cluster and no AWS account: a local
// control plane (the kube-apiserver and etcd the tests use), the AWS emulator on a loopback
// port, every CRD, and every family's controllers in one process.
package sandbox

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"k8s.io/client-go/rest"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// Options configure a sandbox.
type Options struct {
	// EmulatorAddress is the loopback address the AWS emulator listens on; AWSProviders reach
	// it at http://<EmulatorAddress>.
	EmulatorAddress string
	// Region is the emulator's region for the baseline resources.
	Region string
	// KubeconfigPath is where the kubeconfig of the sandbox's cluster is written.
	KubeconfigPath string
	// Families are the operator families to run.
	Families []operator.Family
	// Operator are the operator options (sync period, wait interval, ...).
	Operator operator.Options
	// Progress receives one line per step.
	Progress io.Writer
}

// Sandbox is a running sandbox.
type Sandbox struct {
	// Config reaches the sandbox's API server as an administrator.
	Config *rest.Config
	// EmulatorURL is the AWS endpoint, for AWSProviders' spec.endpoint.
	EmulatorURL string
	// EmulatorAdminToken is the token the emulator's admin endpoints (EmulatorURL/_emulator/)
	// require, as "Authorization: Bearer <token>": a new random one each time the sandbox
	// starts, so that other local users cannot change the sandbox's faults or clock.
	EmulatorAdminToken string
	// Baseline holds the ids of what the emulated account starts with.
	Baseline Baseline

	plane    *testenv.ControlPlane
	aws      *http.Server
	stop     context.CancelFunc
	managerC chan error
}

// Start builds the control plane binaries when they are not cached yet, then starts the
// emulator, the control plane with every family's CRDs, and the families' controllers.
func Start(ctx context.Context, opts Options) (_ *Sandbox, err error) {
	step := func(format string, args ...any) { fmt.Fprintf(opts.Progress, "sandbox: "+format+"\n", args...) }
	step("preparing the control plane (kube-apiserver %s, etcd %s; built from source and cached on first use)",
		testenv.KubernetesVersion, testenv.EtcdVersion)
	assets, err := testenv.BuildAssets(ctx, opts.Progress)
	if err != nil {
		return nil, err
	}
	s := &Sandbox{}
	defer func() {
		if err != nil {
			s.Stop()
		}
	}()
	if err := s.startEmulator(opts.EmulatorAddress); err != nil {
		return nil, err
	}
	step("AWS emulator listening on %s", s.EmulatorURL)
	defs, err := operator.CRDs(opts.Families...)
	if err != nil {
		return nil, err
	}
	if s.plane, err = testenv.StartControlPlane(assets, defs); err != nil {
		return nil, err
	}
	s.Config = s.plane.Config
	step("control plane running at %s with %d CRDs", s.Config.Host, len(defs))
	if err := s.writeKubeconfig(opts.KubeconfigPath); err != nil {
		return nil, err
	}
	if s.Baseline, err = seedBaseline(ctx, s.EmulatorURL, opts.Region); err != nil {
		return nil, err
	}
	step("emulated account seeded: default VPC %s, the sandbox's VPC %s, subnet groups, Lambda packages", s.Baseline.DefaultVPC, s.Baseline.VPC)
	if err := s.startOperators(ctx, opts); err != nil {
		return nil, err
	}
	step("%d operator families running", len(opts.Families))
	return s, nil
}

// startEmulator serves the AWS emulator on address, its admin endpoints guarded by a new
// random token.
func (s *Sandbox) startEmulator(address string) error {
	l, err := net.Listen("tcp", address)
	if err != nil {
		return fmt.Errorf("listen for the AWS emulator on %s (is another sandbox or LocalStack running? choose another --emulator-address): %w", address, err)
	}
	s.EmulatorURL = "http://" + l.Addr().String()
	s.EmulatorAdminToken = rand.Text()
	// The sandbox's key belongs to the account the seed examples' ARNs name.
	emu := emulator.New(emulator.Options{Accounts: map[string]string{"AKIDSANDBOX": SeedAccount}, AdminToken: s.EmulatorAdminToken})
	s.aws = &http.Server{Handler: emu, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.aws.Serve(l) }()
	return nil
}

// writeKubeconfig writes a cluster administrator's kubeconfig to path.
func (s *Sandbox) writeKubeconfig(path string) error {
	b, err := s.plane.Kubeconfig("sandbox-admin")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("make the directory of %s: %w", path, err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return fmt.Errorf("write the kubeconfig %s: %w", path, err)
	}
	return nil
}

// startOperators runs every family's controllers in one manager until Stop.
func (s *Sandbox) startOperators(ctx context.Context, opts Options) error {
	o := opts.Operator
	o.MetricsAddress, o.ProbeAddress, o.LeaderElect = "0", "0", false
	// The sandbox's AWSProviders reach the emulator through spec.endpoint.
	o.AllowEndpointOverride = true
	o.AllowLoopbackEndpoints = true
	mctx, cancel := context.WithCancel(ctx)
	mgr, err := operator.NewManager(mctx, s.Config, opts.Families, "sandbox", o)
	if err != nil {
		cancel()
		return err
	}
	s.stop, s.managerC = cancel, make(chan error, 1)
	go func() { s.managerC <- mgr.Start(mctx) }()
	return nil
}

// Done is closed with the controllers' error when they stop on their own.
func (s *Sandbox) Done() <-chan error { return s.managerC }

// Stop stops the controllers, the control plane and the emulator; it is safe on a sandbox
// that started only partly.
func (s *Sandbox) Stop() error {
	var errs []error
	if s.stop != nil {
		s.stop()
		if err := <-s.managerC; err != nil && !errors.Is(err, context.Canceled) {
			errs = append(errs, fmt.Errorf("stop the controllers: %w", err))
		}
		s.stop = nil
	}
	if s.plane != nil {
		errs = append(errs, s.plane.Stop())
		s.plane = nil
	}
	if s.aws != nil {
		errs = append(errs, s.aws.Close())
		s.aws = nil
	}
	return errors.Join(errs...)
}
