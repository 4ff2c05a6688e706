package kubetest

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/flowcontrol"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// ScaleCheck describes a scale benchmark of a family's operator binary.
type ScaleCheck struct {
	// Family is the family the binary runs: its CRDs and kinds are installed.
	Family operator.Family
	// AWS returns a fresh AWS endpoint (the emulator) for one run.
	AWS func() http.Handler
	// Object returns the i-th object to apply in namespace ns; its providerRef names "aws".
	Object func(ns string, i int) shared.Managed
	// SyncPeriod is the binary's --sync-period, and the length of the steady-state window
	// measured after every object is Ready. The default, one minute plus 30ms per object, keeps
	// the first syncs after the creation and the idle window.
	SyncPeriod time.Duration
}

// scaleFigures are what one scale run measures.
type scaleFigures struct {
	firstReady, allReady, allDeleted time.Duration
	createCalls, syncCalls           float64
	createRequests, syncRequests     float64
	rssMiB, peakMiB                  float64
	createCPU, idleCPU               float64
}

// RunScale builds the family's operator binary (see testenv.OperatorDir) and, for each n,
// starts a fresh control plane, AWS endpoint and the binary, applies n objects at once and
// reports: time to the first and to the last Ready, AWS calls and API-server requests per
// object to create and per steady-state sync window, the binary's resident memory, its CPU
// seconds to create everything and its CPU use while idle, and the time to delete everything.
func RunScale(b *testing.B, check ScaleCheck, sizes []int) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for range b.N {
				f := runScale(b, check, n)
				b.ReportMetric(f.firstReady.Seconds(), "s-first-ready")
				b.ReportMetric(f.allReady.Seconds(), "s-all-ready")
				b.ReportMetric(f.allDeleted.Seconds(), "s-all-deleted")
				b.ReportMetric(f.createCalls, "aws-calls/obj-create")
				b.ReportMetric(f.syncCalls, "aws-calls/obj-sync")
				b.ReportMetric(f.createRequests, "kube-requests/obj-create")
				b.ReportMetric(f.syncRequests, "kube-requests/obj-sync")
				b.ReportMetric(f.rssMiB, "MiB-rss")
				b.ReportMetric(f.peakMiB, "MiB-peak-rss")
				b.ReportMetric(f.createCPU, "cpu-s-create")
				b.ReportMetric(f.idleCPU, "%-cpu-idle")
			}
		})
	}
}

// ScaleSizes returns the object counts named by the environment variable (comma-separated),
// or def when it is unset.
func ScaleSizes(b *testing.B, env string, def ...int) []int {
	v := os.Getenv(env)
	if v == "" {
		return def
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("%s=%q: want comma-separated positive counts", env, v)
		}
		out = append(out, n)
	}
	return out
}

func runScale(b *testing.B, check ScaleCheck, n int) scaleFigures {
	ctx := context.Background()
	if check.SyncPeriod <= 0 {
		check.SyncPeriod = time.Minute + time.Duration(n)*30*time.Millisecond
	}
	env := testenv.Start(b, testenv.Options{CRDs: []fs.FS{check.Family.CRDs}, AddToScheme: check.Family.AddToScheme, AWS: check.AWS()})
	metrics, probes := testenv.FreeAddress(b), testenv.FreeAddress(b)
	bin := testenv.RunBinary(b, testenv.OperatorDir(b, check.Family.Name),
		"--kubeconfig", env.Kubeconfig(b),
		"--metrics-bind-address", metrics,
		"--metrics-secure=false",
		"--health-probe-bind-address", probes,
		"--sync-period", check.SyncPeriod.String(),
		"--allow-endpoint-override",
		"--allow-loopback-endpoints",
		"--log-level", "error")
	bin.WaitOK("http://" + probes + "/readyz")
	scrapeOps := func() map[string]float64 {
		return metricByLabel(testenv.Get(b, "http://"+metrics+"/metrics"), "infra_operator_aws_api_calls_total", "operation")
	}
	scrapeResults := func() map[string]float64 {
		return metricByLabel(testenv.Get(b, "http://"+metrics+"/metrics"), "infra_operator_reconcile_total", "result")
	}
	scrape := func() (calls, requests float64) {
		body := testenv.Get(b, "http://"+metrics+"/metrics")
		return sumMetric(body, "infra_operator_aws_api_calls_total"), sumMetric(body, "rest_client_requests_total")
	}

	ns := env.Namespace(b)
	env.Provider(b, ns, "aws", "AKIDSCALE", "scale-secret")
	objs := make([]shared.Managed, n)
	for i := range objs {
		objs[i] = check.Object(ns, i)
	}
	watch := watchReadiness(b, env, ns, objs)
	calls0, requests0 := scrape()
	ops0, passes0 := scrapeOps(), scrapeResults()
	cpu0 := processCPU(b, bin.PID())

	start := time.Now()
	// A fast client of its own, as kubectl apply of many files or Argo CD would be.
	cfg := rest.CopyConfig(env.Config)
	cfg.RateLimiter = flowcontrol.NewFakeAlwaysRateLimiter()
	applier, err := client.New(cfg, client.Options{Scheme: env.Scheme})
	if err != nil {
		b.Fatal(err)
	}
	parallel(b, objs, func(o shared.Managed) error { return applier.Create(ctx, o) })
	var f scaleFigures
	f.firstReady, f.allReady = watch.waitReady(b, start, 60*time.Second+time.Duration(n)*100*time.Millisecond, bin)
	calls1, requests1 := scrape()
	cpu1 := processCPU(b, bin.PID())
	f.createCalls, f.createRequests = (calls1-calls0)/float64(n), (requests1-requests0)/float64(n)
	f.createCPU = cpu1 - cpu0
	b.Logf("N=%d: AWS calls to create, by operation: %s", n, opsDelta(ops0, scrapeOps()))
	b.Logf("N=%d: reconciles to create, by result: %s", n, opsDelta(passes0, scrapeResults()))

	// Idle: the ten seconds after everything is Ready, before the first sync.
	time.Sleep(2 * time.Second)
	idle0, idleStart := processCPU(b, bin.PID()), time.Now()
	time.Sleep(10 * time.Second)
	f.idleCPU = 100 * (processCPU(b, bin.PID()) - idle0) / time.Since(idleStart).Seconds()

	// Steady state: one sync period (jittered by up to 10%) after everything is Ready.
	calls2, requests2 := scrape()
	time.Sleep(check.SyncPeriod*11/10 - 12*time.Second + time.Second)
	calls3, requests3 := scrape()
	f.syncCalls, f.syncRequests = (calls3-calls2)/float64(n), (requests3-requests2)/float64(n)
	f.rssMiB, f.peakMiB = processMemory(b, bin.PID())

	deleteStart := time.Now()
	parallel(b, objs, func(o shared.Managed) error { return client.IgnoreNotFound(applier.Delete(ctx, o)) })
	f.allDeleted = watch.waitGone(b, deleteStart, 60*time.Second+time.Duration(n)*100*time.Millisecond, bin)
	bin.Stop()
	return f
}

// parallel runs do for every object with a few workers, failing b on the first error.
func parallel(b *testing.B, objs []shared.Managed, do func(shared.Managed) error) {
	var wg sync.WaitGroup
	errs := make(chan error, len(objs))
	next := make(chan shared.Managed)
	for range 16 {
		wg.Go(func() {
			for o := range next {
				if err := do(o); err != nil {
					errs <- fmt.Errorf("%s %s: %w", o.GetObjectKind().GroupVersionKind().Kind, o.GetName(), err)
				}
			}
		})
	}
	for _, o := range objs {
		next <- o
	}
	close(next)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
}

// readiness follows the objects of a scale run through an informer of each of their kinds.
type readiness struct {
	mu      sync.Mutex
	want    int
	ready   map[string]time.Time
	present map[string]bool
	changed chan struct{}
}

// watchReadiness starts informers for the kinds of objs in ns, in a cache of the test's own.
func watchReadiness(b *testing.B, env *testenv.Env, ns string, objs []shared.Managed) *readiness {
	r := &readiness{want: len(objs), ready: map[string]time.Time{}, present: map[string]bool{}, changed: make(chan struct{}, 1)}
	c, err := cache.New(env.Config, cache.Options{Scheme: env.Scheme, DefaultNamespaces: map[string]cache.Config{ns: {}}})
	if err != nil {
		b.Fatal(err)
	}
	// The benchmark's own cache logs nothing.
	ctrllog.SetLogger(logr.Discard())
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	seen := map[string]bool{}
	for _, o := range objs {
		kind := fmt.Sprintf("%T", o)
		if seen[kind] {
			continue
		}
		seen[kind] = true
		inf, err := c.GetInformer(ctx, o)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { r.update(obj, false) },
			UpdateFunc: func(_, obj any) { r.update(obj, false) },
			DeleteFunc: func(obj any) { r.update(obj, true) },
		}); err != nil {
			b.Fatal(err)
		}
	}
	go func() { _ = c.Start(ctx) }()
	if !c.WaitForCacheSync(ctx) {
		b.Fatal("the benchmark's cache did not sync")
	}
	return r
}

func (r *readiness) update(obj any, deleted bool) {
	if t, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	o, ok := obj.(shared.Managed)
	if !ok {
		return
	}
	key := fmt.Sprintf("%T/%s", o, o.GetName())
	r.mu.Lock()
	if deleted {
		delete(r.present, key)
	} else {
		r.present[key] = true
	}
	if _, done := r.ready[key]; !done && !deleted && meta.IsStatusConditionTrue(o.GetManagedStatus().Conditions, "Ready") {
		r.ready[key] = time.Now()
	}
	r.mu.Unlock()
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// waitReady waits until every object was Ready once and returns how long after start the first
// and the last became Ready.
func (r *readiness) waitReady(b *testing.B, start time.Time, timeout time.Duration, bin *testenv.Binary) (first, last time.Duration) {
	r.wait(b, timeout, bin, func() (bool, string) {
		return len(r.ready) == r.want, fmt.Sprintf("%d of %d objects Ready", len(r.ready), r.want)
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.ready {
		d := t.Sub(start)
		if first == 0 || d < first {
			first = d
		}
		last = max(last, d)
	}
	return first, last
}

// waitGone waits until no object is left and returns how long after start that was.
func (r *readiness) waitGone(b *testing.B, start time.Time, timeout time.Duration, bin *testenv.Binary) time.Duration {
	r.wait(b, timeout, bin, func() (bool, string) {
		return len(r.present) == 0, fmt.Sprintf("%d of %d objects not deleted", len(r.present), r.want)
	})
	return time.Since(start)
}

func (r *readiness) wait(b *testing.B, timeout time.Duration, bin *testenv.Binary, done func() (bool, string)) {
	deadline := time.After(timeout)
	for {
		r.mu.Lock()
		ok, state := done()
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-r.changed:
		case <-time.After(time.Second):
		case <-deadline:
			logs := bin.Logs()
			if len(logs) > 4000 {
				logs = logs[len(logs)-4000:]
			}
			b.Fatalf("after %v: %s\nlast logs:\n%s", timeout, state, logs)
		}
	}
}

// sumMetric adds up every sample of the named metric in a Prometheus text exposition.
func sumMetric(body, name string) float64 {
	var sum float64
	for _, line := range strings.Split(body, "\n") {
		rest, ok := strings.CutPrefix(line, name)
		if !ok || (rest != "" && rest[0] != '{' && rest[0] != ' ') {
			continue
		}
		fields := strings.Fields(rest[strings.LastIndex(rest, "}")+1:])
		if len(fields) == 0 {
			continue
		}
		if v, err := strconv.ParseFloat(fields[0], 64); err == nil {
			sum += v
		}
	}
	return sum
}

// metricByLabel adds up the samples of the named metric by the value of one label.
func metricByLabel(body, name, label string) map[string]float64 {
	out := map[string]float64{}
	for _, line := range strings.Split(body, "\n") {
		if !strings.HasPrefix(line, name+"{") {
			continue
		}
		_, after, ok := strings.Cut(line, label+`="`)
		if !ok {
			continue
		}
		value, _, _ := strings.Cut(after, `"`)
		out[value] += sumMetric(line, name)
	}
	return out
}

// opsDelta formats the growth of each count from before to after, largest first.
func opsDelta(before, after map[string]float64) string {
	type op struct {
		name string
		n    float64
	}
	var ops []op
	for name, v := range after {
		if d := v - before[name]; d > 0 {
			ops = append(ops, op{name, d})
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].n > ops[j].n || (ops[i].n == ops[j].n && ops[i].name < ops[j].name) })
	parts := make([]string, len(ops))
	for i, o := range ops {
		parts[i] = fmt.Sprintf("%s %g", o.name, o.n)
	}
	return strings.Join(parts, ", ")
}

// processCPU returns the CPU seconds (user and system) process pid has used.
func processCPU(b *testing.B, pid int) float64 {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatalf("read the binary's CPU time: %v", err)
	}
	// The fields after the command name, which is in parentheses and may hold spaces.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	// utime and stime are the 14th and 15th fields of the line: 12th and 13th after the name.
	utime, _ := strconv.ParseFloat(fields[11], 64)
	stime, _ := strconv.ParseFloat(fields[12], 64)
	return (utime + stime) / clockTicks
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/<pid>/stat times on Linux.
const clockTicks = 100

// processMemory returns the resident memory of process pid and its peak, in MiB.
func processMemory(b *testing.B, pid int) (rss, peak float64) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatalf("read the binary's memory: %v", err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		kib, _ := strconv.ParseFloat(fields[1], 64)
		switch fields[0] {
		case "VmRSS:":
			rss = kib / 1024
		case "VmHWM:":
			peak = kib / 1024
		}
	}
	return rss, peak
}
