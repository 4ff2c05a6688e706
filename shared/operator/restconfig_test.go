package operator

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/client-go/kubernetes"
)

// kubeconfigFile writes a kubeconfig for a cluster at an address nothing listens on (no call
// is made) and returns its path.
func kubeconfigFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	doc := `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRESTConfigNeverFallsBackToFiveQPS checks that every way of giving the cluster (the
// --kubeconfig flag, $KUBECONFIG) takes the configured client rate, and that the default
// leaves the client unthrottled: a client of the config has no rate limiter, or one at the
// configured rate, never client-go's default of 5 requests per second.
func TestRESTConfigNeverFallsBackToFiveQPS(t *testing.T) {
	path := kubeconfigFile(t)
	defaults := DefaultOptions()
	cases := map[string]struct {
		flag      string
		env       string
		qps       float32
		burst     int
		wantQPS   float32
		wantBurst int
	}{
		"FlagDefault":    {flag: path, qps: defaults.KubeAPIQPS, burst: defaults.KubeAPIBurst, wantQPS: -1},
		"EnvDefault":     {env: path, qps: defaults.KubeAPIQPS, burst: defaults.KubeAPIBurst, wantQPS: -1},
		"FlagRate":       {flag: path, qps: 50, wantQPS: 50, wantBurst: 100},
		"EnvRateOfBurst": {env: path, qps: 50, burst: 70, wantQPS: 50, wantBurst: 70},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Setenv("KUBECONFIG", tc.env)
			cfg, err := RESTConfig(tc.flag, tc.qps, tc.burst)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.QPS != tc.wantQPS || (tc.wantQPS > 0 && cfg.Burst != tc.wantBurst) {
				t.Errorf("QPS %v burst %d, want %v and %d", cfg.QPS, cfg.Burst, tc.wantQPS, tc.wantBurst)
			}
			cs, err := kubernetes.NewForConfig(cfg)
			if err != nil {
				t.Fatal(err)
			}
			limiter := cs.CoreV1().RESTClient().GetRateLimiter()
			switch {
			case tc.wantQPS < 0 && limiter != nil:
				t.Errorf("the client is throttled at %v requests per second; want no client-side limit", limiter.QPS())
			case tc.wantQPS > 0 && (limiter == nil || limiter.QPS() != tc.wantQPS):
				t.Errorf("the client's rate limiter is %v; want %v requests per second", limiter, tc.wantQPS)
			}
		})
	}
}

// TestKubeAPIQPSZeroRefused checks that 0, which client-go reads as 5 requests per second, is
// refused with a message that says what to use instead.
func TestKubeAPIQPSZeroRefused(t *testing.T) {
	o := DefaultOptions()
	if err := o.Validate(); err != nil {
		t.Fatalf("defaults refused: %v", err)
	}
	o.KubeAPIQPS = 0
	if err := o.Validate(); err == nil {
		t.Error("--kube-api-qps=0 accepted")
	}
}
