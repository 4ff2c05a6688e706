package operator_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/runner-codes/infra-operator/shared/internal/ststest"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// TestFamilyWithoutKindsServesEndpoints starts a family that has no kinds yet and checks its
// health, readiness and metrics endpoints, including the AWS call metric from validating an
// AWSProvider.
func TestFamilyWithoutKindsServesEndpoints(t *testing.T) {
	env := testenv.Start(t, testenv.Options{AWS: &ststest.Server{Accounts: map[string]string{"AKIDTEST": "123456789012"}}})
	opts := operator.DefaultOptions()
	opts.MetricsAddress = testenv.FreeAddress(t)
	opts.MetricsSecure = false
	opts.ProbeAddress = testenv.FreeAddress(t)
	opts.AllowEndpointOverride = true
	opts.AllowLoopbackEndpoints = true
	ctx, cancel := context.WithCancel(context.Background())
	mgr, err := operator.NewManager(ctx, env.Config, []operator.Family{{Name: "edge"}}, "edge@test", opts)
	if err != nil {
		t.Fatal(err)
	}
	testenv.Run(t, mgr, ctx, cancel)

	for _, path := range []string{"/healthz", "/readyz"} {
		waitBody(t, "http://"+opts.ProbeAddress+path, "ok")
	}
	ns := env.Namespace(t)
	env.Provider(t, ns, "aws", "AKIDTEST", "secret")
	waitBody(t, "http://"+opts.MetricsAddress+"/metrics",
		`infra_operator_aws_api_calls_total{operation="GetCallerIdentity",outcome="success",service="STS"} 1`)
}

func TestCommandFlags(t *testing.T) {
	cmd := operator.NewCommand(operator.Family{Name: "data"})
	for _, name := range []string{"metrics-bind-address", "health-probe-bind-address", "leader-elect", "namespaces",
		"max-concurrent-reconciles", "sync-period", "log-level", "log-format", "kubeconfig"} {
		if cmd.Flags().Lookup(name) == nil {
			t.Errorf("flag --%s is missing", name)
		}
	}
	if got := cmd.Flags().Lookup("sync-period").DefValue; got != "10m0s" {
		t.Errorf("--sync-period defaults to %s, want 10m0s", got)
	}
	if got := cmd.Flags().Lookup("log-format").DefValue; got != "json" {
		t.Errorf("--log-format defaults to %s, want json", got)
	}
	cmd.SetArgs([]string{"--log-level", "loud"})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), "--log-level") {
		t.Errorf("an invalid --log-level gave %v, want an error naming the flag", err)
	}
}

// waitBody polls url until its body contains want.
func waitBody(t *testing.T, url, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	last := ""
	for time.Now().Before(deadline) {
		resp, err := http.Get(url)
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			last = fmt.Sprintf("status %d, body %.300s", resp.StatusCode, b)
			if resp.StatusCode == http.StatusOK && strings.Contains(string(b), want) {
				return
			}
		} else {
			last = err.Error()
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s never contained %q; last: %s", url, want, last)
}
