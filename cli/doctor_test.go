package cli

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/cli/doctor"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// closedTenancy are chart values that leave no tenancy setting open to every namespace.
const closedTenancy = `tenancy:
  operatorIdentityNamespaces: [platform]
  assumeRolePolicy: [{namespace: team-a, roleARNPattern: "arn:aws:iam::123456789012:role/team-a-*"}]
  adoptionNamespaces: []
guardrails:
  passableRoles: [{namespace: team-a, roleARNPattern: "arn:aws:iam::123456789012:role/team-a-*"}]
`

// TestDoctor installs two families with infractl install into a real control plane, writes
// what the absent controllers would (available Deployments, a Ready provider, metrics pods),
// and checks that doctor finds everything ok and exits 0; then breaks one thing per check
// (a family not installed, a CRD of another schema, a Deployment not available, a
// ServiceAccount without Secret access, a provider not Ready, open tenancy settings, an object
// stuck deleting, a Stalled object, an unreachable metrics endpoint) and checks that each is
// a row that says so and that doctor exits 3; and that a user who may read nothing gets rows,
// not a crash.
func TestDoctor(t *testing.T) {
	env := testenv.Start(t, testenv.Options{NoCRDs: true, AddToScheme: []func(*runtime.Scheme) error{apiextensionsv1.AddToScheme}})
	kubeconfig := env.Kubeconfig(t)
	ctx := context.Background()
	if err := env.Client.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}}); err != nil {
		t.Fatal(err)
	}
	for family, values := range map[string]string{
		"data":      closedTenancy + "watchNamespaces: [team-a]\n",
		"messaging": closedTenancy + "metrics: {secure: false}\n",
	} {
		if out, err := infractl("install", "--kubeconfig", kubeconfig, "--families", family, "--values", writeValues(t, values)); err != nil {
			t.Fatalf("install %s: %v\n%s", family, err, out)
		}
		dep := operatorDeployment(t, env, family)
		setAvailable(t, env, dep, true)
		serveMetrics(t, env, dep, family == "data")
	}
	provider := &v1alpha1.AWSProvider{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "aws"}, Spec: v1alpha1.AWSProviderSpec{Region: "us-east-1"}}
	if err := env.Client.Create(ctx, provider); err != nil {
		t.Fatal(err)
	}
	provider.Status = v1alpha1.AWSProviderStatus{Ready: true, AccountID: "123456789012", CallerIdentity: "arn:aws:iam::123456789012:role/team-a",
		Conditions: []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, Reason: "CredentialsValid", Message: "validated", LastTransitionTime: metav1.Now()}}}
	if err := env.Client.Status().Update(ctx, provider); err != nil {
		t.Fatal(err)
	}

	t.Run("Healthy", func(t *testing.T) {
		rows, code := doctorRows(t, "--kubeconfig", kubeconfig, "--families", "data,messaging")
		if code != 0 {
			t.Errorf("exit status %d, want 0", code)
		}
		seen := map[string]bool{}
		for _, r := range rows {
			seen[r.Check] = true
			if r.Status != doctor.OK {
				t.Errorf("%s %s: %s %q, want ok (fix %q)", r.Check, r.Object, r.Status, r.Detail, r.Fix)
			}
		}
		for _, check := range []string{doctor.CheckCRD, doctor.CheckDeployment, doctor.CheckRBAC, doctor.CheckProvider, doctor.CheckTenancy, doctor.CheckStuck, doctor.CheckMetrics} {
			if !seen[check] {
				t.Errorf("no %s row", check)
			}
		}
		expectRow(t, rows, doctor.CheckProvider, "awsprovider/team-a/aws", doctor.OK, "as arn:aws:iam::123456789012:role/team-a")
		expectRow(t, rows, doctor.CheckMetrics, "infra-operator-data-metrics", doctor.OK, "refusing the API server proxy's unauthenticated request")
		expectRow(t, rows, doctor.CheckMetrics, "infra-operator-messaging-metrics", doctor.OK, "answered over http")
	})

	// Break one thing per check.
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := env.Client.Get(ctx, types.NamespacedName{Name: "s3buckets.aws-infra-operator.runner.codes"}, crd); err != nil {
		t.Fatal(err)
	}
	crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["addedByHand"] = apiextensionsv1.JSONSchemaProps{Type: "string"}
	if err := env.Client.Update(ctx, crd); err != nil {
		t.Fatal(err)
	}
	setAvailable(t, env, operatorDeployment(t, env, "messaging"), false)
	if err := env.Client.DeleteAllOf(ctx, &rbacv1.RoleBinding{}, client.InNamespace("team-a")); err != nil {
		t.Fatal(err)
	}
	// messaging again with tenancy open to every namespace, and metrics over HTTPS, which the
	// plain server behind its Service does not speak.
	open := "tenancy: {operatorIdentityNamespaces: ['*'], adoptionNamespaces: ['*']}\nmetrics: {secure: true}\n"
	if out, err := infractl("install", "--kubeconfig", kubeconfig, "--families", "messaging", "--values", writeValues(t, open)); err != nil {
		t.Fatalf("upgrade messaging: %v\n%s", err, out)
	}
	broken := &v1alpha1.AWSProvider{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "broken"}, Spec: v1alpha1.AWSProviderSpec{Region: "us-east-1"}}
	if err := env.Client.Create(ctx, broken); err != nil {
		t.Fatal(err)
	}
	broken.Status.Conditions = []metav1.Condition{{Type: "Ready", Status: metav1.ConditionFalse, Reason: "CredentialsRejected",
		Message: "STS refused the credentials: InvalidClientTokenId", LastTransitionTime: metav1.Now()}}
	if err := env.Client.Status().Update(ctx, broken); err != nil {
		t.Fatal(err)
	}
	stuck := managed(t, env, "S3Bucket", "team-a", "stuck", map[string]any{"bucketName": "stuck-bucket", "providerRef": map[string]any{"name": "aws"}})
	setConditions(t, env, stuck, metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Deleting", Message: "BucketNotEmpty: the bucket holds objects"})
	stuck.SetFinalizers([]string{"aws-infra-operator.runner.codes/finalizer"})
	if err := env.Client.Update(ctx, stuck); err != nil {
		t.Fatal(err)
	}
	if err := env.Client.Delete(ctx, stuck); err != nil {
		t.Fatal(err)
	}
	stalled := managed(t, env, "SQSQueue", "team-a", "stalled", map[string]any{"queueName": "jobs", "providerRef": map[string]any{"name": "aws"}})
	setConditions(t, env, stalled,
		metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "InvalidSpec", Message: "the queue's policy is not valid JSON"},
		metav1.Condition{Type: "Stalled", Status: metav1.ConditionTrue, Reason: "InvalidSpec", Message: "the queue's policy is not valid JSON"})

	t.Run("Broken", func(t *testing.T) {
		rows, code := doctorRows(t, "--kubeconfig", kubeconfig, "--families", "data,messaging,caching", "--stuck-after", "1ns")
		if code != doctor.ExitFail {
			t.Errorf("exit status %d, want %d", code, doctor.ExitFail)
		}
		expectRow(t, rows, doctor.CheckCRD, "elasticacheclusters.aws-infra-operator.runner.codes", doctor.Fail, "not installed")
		expectRow(t, rows, doctor.CheckCRD, "s3buckets.aws-infra-operator.runner.codes", doctor.Fail, "schema differs")
		expectRow(t, rows, doctor.CheckCRD, "sqsqueues.aws-infra-operator.runner.codes", doctor.OK, "at this version")
		expectRow(t, rows, doctor.CheckDeployment, "caching-operator", doctor.Fail, "not installed")
		expectRow(t, rows, doctor.CheckDeployment, "infra-operator/infra-operator-messaging", doctor.Fail, "0 of 1 replicas available")
		for _, verb := range []string{"get", "list", "watch"} {
			expectRow(t, rows, doctor.CheckRBAC, "infra-operator/infra-operator-data", doctor.Fail, "may not "+verb+" secrets in namespace team-a")
		}
		expectRow(t, rows, doctor.CheckRBAC, "infra-operator/infra-operator-messaging", doctor.OK, "may do all")
		expectRow(t, rows, doctor.CheckProvider, "awsprovider/team-a/broken", doctor.Fail, "CredentialsRejected: STS refused the credentials")
		expectRow(t, rows, doctor.CheckTenancy, "infra-operator/infra-operator-messaging", doctor.Warn, "tenancy.operatorIdentityNamespaces")
		expectRow(t, rows, doctor.CheckTenancy, "infra-operator/infra-operator-messaging", doctor.Warn, "tenancy.adoptionNamespaces")
		expectRow(t, rows, doctor.CheckTenancy, "infra-operator/infra-operator-data", doctor.OK, "no tenancy setting")
		expectRow(t, rows, doctor.CheckStuck, "S3Bucket team-a/stuck", doctor.Warn, "held by finalizer aws-infra-operator.runner.codes/finalizer; Deleting: BucketNotEmpty")
		expectRow(t, rows, doctor.CheckStuck, "SQSQueue team-a/stalled", doctor.Fail, "Stalled: InvalidSpec: the queue's policy is not valid JSON")
		expectRow(t, rows, doctor.CheckMetrics, "infra-operator-messaging-metrics", doctor.Warn, "unreachable")
		for _, r := range rows {
			if r.Status != doctor.OK && r.Fix == "" {
				t.Errorf("%s %s is %s without a fix", r.Check, r.Object, r.Status)
			}
		}
	})

	t.Run("NotStuckYet", func(t *testing.T) {
		rows, _ := doctorRows(t, "--kubeconfig", kubeconfig, "--families", "data")
		expectRow(t, rows, doctor.CheckStuck, "objects", doctor.OK, "none stuck deleting")
	})

	t.Run("Text", func(t *testing.T) {
		out, err := infractl("doctor", "--kubeconfig", kubeconfig, "--families", "data")
		t.Log(out)
		if exit := (*ExitError)(nil); !errors.As(err, &exit) || exit.Code != doctor.ExitFail {
			t.Errorf("error %v, want exit status %d", err, doctor.ExitFail)
		}
		for _, want := range []string{"CHECK", "OBJECT", "STATUS", "DETAIL", "FIX", "kubectl apply --server-side --force-conflicts -f operators/data/crds/aws-infra-operator.runner.codes_s3buckets.yaml", " fail\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("the table lacks %q", want)
			}
		}
	})

	t.Run("Forbidden", func(t *testing.T) {
		rows, code := doctorRows(t, "--kubeconfig", impersonating(t, kubeconfig, "nobody"), "--families", "data")
		if code != doctor.ExitFail {
			t.Errorf("exit status %d, want %d", code, doctor.ExitFail)
		}
		expectRow(t, rows, doctor.CheckCRD, "s3buckets.aws-infra-operator.runner.codes", doctor.Fail, "you may not get CustomResourceDefinitions")
		expectRow(t, rows, doctor.CheckDeployment, "data-operator", doctor.Fail, "you may not list Deployments")
		expectRow(t, rows, doctor.CheckProvider, "AWSProvider", doctor.Fail, "you may not list AWSProviders")
	})
}

// doctorRows runs infractl doctor -o json with args and returns its rows and exit status.
func doctorRows(t *testing.T, args ...string) ([]doctor.Row, int) {
	t.Helper()
	out, err := infractl(append([]string{"doctor", "-o", "json"}, args...)...)
	code := 0
	if exit := (*ExitError)(nil); errors.As(err, &exit) {
		code = exit.Code
	} else if err != nil {
		t.Fatalf("infractl doctor %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	var report struct {
		Rows []doctor.Row `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("decode the report: %v\n%s", err, out)
	}
	return report.Rows, code
}

// expectRow fails t unless a row of check on an object containing object has status and a
// detail containing detail.
func expectRow(t *testing.T, rows []doctor.Row, check, object string, status doctor.Status, detail string) {
	t.Helper()
	for _, r := range rows {
		if r.Check == check && strings.Contains(r.Object, object) && r.Status == status && strings.Contains(r.Detail, detail) {
			return
		}
	}
	var b strings.Builder
	for _, r := range rows {
		b.WriteString("\n  " + r.Check + " | " + r.Object + " | " + string(r.Status) + " | " + r.Detail)
	}
	t.Errorf("no %s row on %q with status %s and detail %q; rows:%s", check, object, status, detail, b.String())
}

// TestDoctorFlags checks that doctor refuses bad flags before reaching for a cluster.
func TestDoctorFlags(t *testing.T) {
	t.Setenv("KUBECONFIG", "/nonexistent")
	cases := map[string]struct {
		args []string
		want string
	}{
		"UnknownFormat": {args: []string{"doctor", "-o", "yaml"}, want: "unknown output format"},
		"UnknownFamily": {args: []string{"doctor", "--families", "storage"}, want: `unknown family "storage"`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := infractl(tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("infractl %s: error %v, want one that says %q", strings.Join(tc.args, " "), err, tc.want)
			}
		})
	}
}
