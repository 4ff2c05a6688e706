package sandbox_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/cli"
	"github.com/runner-codes/infra-operator/cli/sandbox"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// TestSandbox runs `make sandbox` as a user would (with this test binary as infractl), which
// starts the sandbox and applies every family's examples with their placeholders replaced,
// follows them until they settle, and checks that every line the sandbox printed is one of
// its own progress lines (no error, warning, log line or stack dump), that `infractl status
// -A` shows exactly the examples' objects, every one Ready, that `infractl plan` finds nothing
// to change in any of them, and that Ctrl-C (SIGINT to make's
// process group) stops everything with no error from make or infractl.
func TestSandbox(t *testing.T) {
	kubeconfig := filepath.Join(t.TempDir(), "sandbox.kubeconfig")
	sb := startMakeSandbox(t, "--examples examples --emulator-address 127.0.0.1:0 --wait-interval 300ms --kubeconfig-out "+kubeconfig)
	sb.waitOutput(t, "sandbox: running; press Ctrl-C to stop", 150*time.Second)
	out := sb.out.String()
	if !strings.Contains(out, "sandbox: every resource is Ready\n") {
		t.Errorf("the sandbox does not say that every resource is Ready:\n%s", out)
	}
	// One line per kind of replacement, with the ids of the baseline's resources.
	for _, want := range []string{
		"sandbox: examples/caching/elasticachecluster-redis.yaml: ElastiCacheCluster session-cache: sg-xxx -> sg-",
		"sandbox: examples/compute/ec2instance-web-server.yaml: EC2Instance web-server: subnet-xxx -> subnet-",
		"sandbox: examples/networking/subnet-public.yaml: Subnet public-subnet-1a: vpcID vpc-f3ea9b1b36fce09cd -> vpcRef production-vpc",
		"sandbox: examples/networking/multi-tier.yaml: NATGateway nat-1a: subnetID subnet-xxx -> subnetRef public-1a",
		"sandbox: examples/networking/subnet-multi-az.yaml: into namespace multi-az",
		"sandbox: examples/compute/lambdafunction-serverless.yaml: LambdaFunction api-handler: arn:aws:iam::xxx:role/lambda-role -> arn:aws:iam::123456789012:role/lambda-role",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no line %q:\n%s", want, out)
		}
	}

	status := runStatus(t, kubeconfig)
	objects := exampleObjects(t)
	if diff := cmp.Diff(objects, readyRows(status)); diff != "" {
		t.Errorf("infractl status -A: the examples' objects, each Ready (-want +got):\n%s\n%s", diff, status)
	}
	planSandbox(t, kubeconfig, objects)
	// kstatus conventions: `kubectl wait --for=condition=Ready` works on every kind.
	assets, err := testenv.AssetsDir()
	if err != nil {
		t.Fatal(err)
	}
	wait := exec.Command(filepath.Join(assets, "kubectl"), "--kubeconfig", kubeconfig, "-n", "default", "wait",
		"--for=condition=Ready", "--timeout=30s",
		"s3bucket/my-app-data", "dynamodbtable/users-table", "rdsinstance/app-mysql", "awsprovider/production-aws")
	if b, err := wait.CombinedOutput(); err != nil || strings.Count(string(b), "condition met") != 4 {
		t.Errorf("kubectl wait --for=condition=Ready: %v\n%s", err, b)
	}

	sb.interrupt(t, time.Minute)
	out = sb.out.String()
	if !strings.HasSuffix(out, "sandbox: stopping\n") {
		t.Errorf("no clean shutdown:\n%s", out)
	}
	if bad := unexpectedLines(out, sb.Command); len(bad) > 0 {
		t.Errorf("unexpected lines in the sandbox's output:\n%s\n\nwhole output:\n%s", strings.Join(bad, "\n"), out)
	}
}

// exampleObjects returns the infra-operator objects the sandbox makes of the examples, as
// "namespace kind name", sorted: each example's, and the providers copied into the namespaces
// of the examples that have their own.
func exampleObjects(t *testing.T) []string {
	t.Helper()
	// The ids the placeholders become do not change which objects are made.
	steps, err := sandbox.PlanExamples(filepath.Join("..", "..", "examples"), sandbox.Baseline{DefaultSubnets: []string{"subnet-0"}}, "http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, s := range steps {
		for _, o := range s.Objects {
			if o.GroupVersionKind().Group == shared.Group {
				want = append(want, o.GetNamespace()+" "+o.GetKind()+" "+o.GetName())
			}
		}
	}
	if len(want) < 90 {
		t.Fatalf("only %d objects in the examples", len(want))
	}
	slices.Sort(want)
	return want
}

// readyRows returns the rows of a status table (with namespaces) whose READY is True, as
// "namespace kind name", sorted.
func readyRows(table string) []string {
	var rows []string
	for _, r := range strings.Split(strings.TrimSpace(table), "\n")[1:] {
		if f := strings.Fields(r); len(f) >= 4 && f[3] == "True" {
			rows = append(rows, f[0]+" "+f[1]+" "+f[2])
		}
	}
	slices.Sort(rows)
	return rows
}

// runStatus runs `infractl status -A` against the sandbox and returns its table.
func runStatus(t *testing.T, kubeconfig string) string {
	t.Helper()
	cmd := cli.NewRootCommand()
	var buf bytes.Buffer
	cmd.SetOut(&buf)
	cmd.SetArgs([]string{"status", "-A", "--kubeconfig", kubeconfig})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("infractl status: %v", err)
	}
	return buf.String()
}

// waitOutput waits until make's output holds text, failing early when make ends.
func (s *makeSandbox) waitOutput(t *testing.T, text string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !strings.Contains(s.out.String(), text) {
		select {
		case <-s.exited:
			t.Fatalf("make sandbox ended early (%v):\n%s", s.err, s.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q within %s:\n%s", text, timeout, s.out.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// syncBuffer is a buffer the sandbox writes while the test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
