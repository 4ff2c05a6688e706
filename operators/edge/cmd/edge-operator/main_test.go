package main

import (
	"context"
	"strings"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/shared/testenv"
)

// TestBinary builds the edge-operator binary, runs it against a real control plane with the
// flags a Deployment passes, and checks its probes, its leader election Lease and a clean exit
// on SIGTERM. The edge family has no kinds yet; it must still start and serve.
func TestBinary(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	metrics, probes := testenv.FreeAddress(t), testenv.FreeAddress(t)
	bin := testenv.RunBinary(t, ".",
		"--kubeconfig", env.Kubeconfig(t),
		"--metrics-bind-address", metrics,
		"--health-probe-bind-address", probes,
		"--leader-elect", "--leader-election-namespace", "default",
		"--log-format", "json")
	for _, url := range []string{"http://" + probes + "/healthz", "http://" + probes + "/readyz", "http://" + metrics + "/metrics"} {
		bin.WaitOK(url)
	}
	lease := &coordinationv1.Lease{}
	deadline := time.Now().Add(20 * time.Second)
	for {
		err := env.Client.Get(context.Background(), types.NamespacedName{Namespace: "default", Name: "edge.infra-operator.runner.codes"}, lease)
		if err == nil && lease.Spec.HolderIdentity != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no leader election Lease: %v\nlogs:\n%s", err, bin.Logs())
		}
		time.Sleep(200 * time.Millisecond)
	}
	bin.Stop()
	if !strings.Contains(bin.Logs(), `"msg":"starting"`) {
		t.Errorf("logs are not JSON with a start line:\n%s", bin.Logs())
	}
}
