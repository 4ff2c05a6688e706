package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
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
	bin := filepath.Join(t.TempDir(), "edge-operator")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("build: %v", err)
	}
	metrics, probes := testenv.FreeAddress(t), testenv.FreeAddress(t)
	cmd := exec.Command(bin,
		"--kubeconfig", env.Kubeconfig(t),
		"--metrics-bind-address", metrics,
		"--health-probe-bind-address", probes,
		"--leader-elect", "--leader-election-namespace", "default",
		"--log-format", "json")
	logs := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
	})

	for _, url := range []string{"http://" + probes + "/healthz", "http://" + probes + "/readyz", "http://" + metrics + "/metrics"} {
		waitOK(t, url, done, logs)
	}
	lease := &coordinationv1.Lease{}
	deadline := time.Now().Add(20 * time.Second)
	for {
		err := env.Client.Get(context.Background(), types.NamespacedName{Namespace: "default", Name: "edge.infra-operator.runner.codes"}, lease)
		if err == nil && lease.Spec.HolderIdentity != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no leader election Lease: %v\nlogs:\n%s", err, logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\nlogs:\n%s", err, logs.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("still running 30s after SIGTERM\nlogs:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), `"msg":"starting"`) {
		t.Errorf("logs are not JSON with a start line:\n%s", logs.String())
	}
}

// waitOK polls url until it answers 200, failing early if the binary exits.
func waitOK(t *testing.T, url string, done <-chan error, logs *lockedBuffer) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			t.Fatalf("the binary exited early (%v)\nlogs:\n%s", err, logs.String())
		default:
		}
		resp, err := http.Get(url)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s never answered 200\nlogs:\n%s", url, logs.String())
}

// lockedBuffer collects the binary's output; exec writes it while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
