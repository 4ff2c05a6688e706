// Package families runs infra-operator families against a test control plane, as their
// binaries run them. It is apart from testenv so that the shared library's own tests, which
// the families' code imports, can use testenv.
package families

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/go-logr/logr"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// Run runs, until the test ends, a manager with the families' controllers and the
// AWSProvider controller against the control plane, built as the operator binaries build it,
// with no endpoints and short waits so that tests do not sleep for the production intervals.
func Run(t testing.TB, e *testenv.Env, families ...operator.Family) {
	t.Helper()
	RunWith(t, e, func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond }, families...)
}

// RunWith is Run with the operator's default options changed by tune, for benchmarks that
// measure what a user sees with the defaults. It returns a function that stops the manager, as
// a killed operator stops (tests that restart the operator call it).
func RunWith(t testing.TB, e *testenv.Env, tune func(*operator.Options), families ...operator.Family) (stop func()) {
	t.Helper()
	// The manager logs nothing in tests; without a logger controller-runtime prints a warning
	// with a stack trace after 30 seconds.
	ctrl.SetLogger(logr.Discard())
	opts := operator.DefaultOptions()
	// Test providers reach the in-process AWS endpoint.
	opts.AllowEndpointOverride = true
	opts.AllowLoopbackEndpoints = true
	tune(&opts)
	opts.MetricsAddress, opts.ProbeAddress = "0", "0"
	opts.SharedProcess = true
	ctx, cancel := context.WithCancel(context.Background())
	mgr, err := operator.NewManager(ctx, e.Config, families, "test", opts)
	if err != nil {
		cancel()
		t.Fatalf("build the manager: %v", err)
	}
	return testenv.Run(t, mgr, ctx, cancel)
}

// Start starts a control plane with the CRDs and kinds of the families, the AWS endpoint aws
// (the emulator) and the families' controllers with the operator's options changed by tune,
// as a family's tests do when its references name kinds of other families that must run too.
func Start(t testing.TB, aws http.Handler, tune func(*operator.Options), families ...operator.Family) *testenv.Env {
	t.Helper()
	opts := testenv.Options{AWS: aws}
	for _, f := range families {
		if f.CRDs != nil {
			opts.CRDs = append(opts.CRDs, f.CRDs)
		}
		opts.AddToScheme = append(opts.AddToScheme, f.AddToScheme...)
	}
	env := testenv.Start(t, opts)
	RunWith(t, env, tune, families...)
	return env
}
