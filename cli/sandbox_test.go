package cli

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// TestSandbox starts the sandbox as a user would, applying the sandbox providers, the data and
// messaging families' seed examples and the compute family's (the seed's web server and Lambda
// function, a web server placed by references in a VPC of its own, an EKS cluster with a node
// group and add-ons, and a function whose role is an IAMRole) and the security family's
// examples (the seed roles, secrets and keys, a certificate validated through DNS and one
// imported from a TLS Secret), the networking family's load balancers, and the edge family's
// examples (CloudFront distributions in front of a domain, a bucket and the ALB, and the HTTP,
// REST and WebSocket APIs in front of the seed's Lambda function), the containers family's
// (the seed repositories and a cluster), follows them until they
// settle, and checks with `infractl status` that every one is Ready, once the seeds'
// placeholders (sg-xxx, subnet-xxx) are replaced by a real-looking id or by references.
// Ctrl-C (a cancelled context) stops everything cleanly.
func TestSandbox(t *testing.T) {
	kubeconfig := filepath.Join(t.TempDir(), "sandbox.kubeconfig")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		cmd := NewRootCommand()
		cmd.SetOut(out)
		cmd.SetErr(out)
		cmd.SetArgs([]string{"sandbox", "--kubeconfig-out", kubeconfig, "--wait-interval", "300ms",
			"--apply", "../examples/sandbox", "--apply", "../examples/data", "--apply", "../examples/messaging",
			"--apply", "../examples/compute/ec2instance-with-references.yaml", "--apply", "../examples/compute/ec2instance-web-server.yaml",
			"--apply", "../examples/compute/lambdafunction-api-handler.yaml", "--apply", "../examples/compute/ekscluster.yaml",
			"--apply", "../examples/security", "--apply", "../examples/compute/lambdafunction-with-role.yaml",
			"--apply", "../examples/networking/load-balancers.yaml", "--apply", "../examples/edge", "--apply", "../examples/containers"})
		done <- cmd.ExecuteContext(ctx)
	}()
	waitOutput(t, out, done, "of the resources failed", 3*time.Minute)
	if !strings.Contains(out.String(), "FAILED: AWSRejectedRequest") || !strings.Contains(out.String(), "sg-xxx") {
		t.Errorf("the placeholder sg-xxx should fail with AWS's refusal:\n%s", out.String())
	}

	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	c, err := newClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The placeholders replaced: a well-formed security group for the database, and the
	// subnet and security group of the compute example made with references for the seed's web
	// server and Lambda function.
	for _, p := range []struct{ kind, name, spec string }{
		{"RDSInstance", "production-postgres", `{"vpcSecurityGroupIDs":["sg-0123456789abcdef0"]}`},
		{"EC2Instance", "web-server", `{"subnetID":null,"subnetRef":{"name":"web-public-1a"},"securityGroupIDs":null,"securityGroupRefs":[{"name":"web-http"}]}`},
		{"LambdaFunction", "api-handler", `{"vpcConfig":{"subnetIDs":null,"subnetRefs":[{"name":"web-public-1a"}],"securityGroupIDs":null,"securityGroupRefs":[{"name":"web-http"}]}}`},
	} {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(shared.GroupVersion.WithKind(p.kind))
		u.SetNamespace("default")
		u.SetName(p.name)
		if err := c.Patch(ctx, u, client.RawPatch(types.MergePatchType, []byte(`{"spec":`+p.spec+`}`))); err != nil {
			t.Fatal(err)
		}
	}

	var status string
	deadline := time.Now().Add(time.Minute)
	for {
		status = runStatus(t, kubeconfig)
		if allReady(status, 2+10+3+5+4+2+5+2+8+7+9+3) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not everything Ready through infractl status:\n%s\nsandbox output:\n%s", status, out.String())
		}
		time.Sleep(500 * time.Millisecond)
	}
	for _, want := range []string{"AWSProvider", "S3Bucket", "mycompany-app-data-prod", "DynamoDBTable", "production-users", "RDSInstance", "app-mysql-01", "SQSQueue", "production-orders.fifo", "SNSTopic", "production-notifications",
		"EC2Instance", "web-server", "web-server-refs", "LambdaFunction", "api-handler", "EKSCluster", "platform",
		"IAMRole", "ec2-web-server-role", "lambda-execution-role", "orders-handler", "SecretsManagerSecret", "database-password", "api-key",
		"KMSKey", "data-encryption-key", "signing-key", "ACMCertificate", "storefront-cert", "internal-cert",
		"ALB", "storefront", "NLB", "db-proxy",
		"CloudFrontDistribution", "storefront-cdn", "site-cdn", "storefront-app-cdn", "APIGateway", "items-api", "pets-api", "chat-api",
		"ECRRepository", "application-images", "app-images", "ECSCluster", "production-cluster"} {
		if !strings.Contains(status, want) {
			t.Errorf("status lacks %s:\n%s", want, status)
		}
	}
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
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("sandbox returned %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the sandbox did not stop within a minute of Ctrl-C")
	}
	if !strings.Contains(out.String(), "sandbox: stopping") {
		t.Errorf("no clean shutdown:\n%s", out.String())
	}
}

// allReady reports whether a status table (with namespaces) has n rows, all READY True.
func allReady(table string, n int) bool {
	rows := strings.Split(strings.TrimSpace(table), "\n")[1:]
	for _, r := range rows {
		if f := strings.Fields(r); len(f) < 4 || f[3] != "True" {
			return false
		}
	}
	return len(rows) == n
}

// runStatus runs `infractl status -A` against the sandbox and returns its table.
func runStatus(t *testing.T, kubeconfig string) string {
	t.Helper()
	cmd := NewRootCommand()
	var buf bytes.Buffer
	cmd.SetOut(&buf)
	cmd.SetArgs([]string{"status", "-A", "--kubeconfig", kubeconfig})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("infractl status: %v", err)
	}
	return buf.String()
}

// waitOutput waits until out holds text, failing early when the command returns.
func waitOutput(t *testing.T, out *syncBuffer, done <-chan error, text string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !strings.Contains(out.String(), text) {
		select {
		case err := <-done:
			t.Fatalf("the sandbox returned early (%v):\n%s", err, out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q within %s:\n%s", text, timeout, out.String())
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
