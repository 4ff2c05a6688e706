package compute_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	secv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/awsfixture"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// seedRole is a role ARN in the account the seed examples name, for the serverless example's
// arn:aws:iam::xxx:role/lambda-role placeholder.
const seedRole = "arn:aws:iam::123456789012:role/lambda-role"

// codeObject puts a deployment package at bucket/key in the emulated S3.
func (h *harness) codeObject(t testing.TB, bucket, key string) {
	t.Helper()
	awsfixture.LambdaCode(t, h.s3, bucket, key)
}

// function reads a function's configuration from Lambda.
func (h *harness) function(t testing.TB, name string) *lambda.GetFunctionOutput {
	t.Helper()
	out, err := h.lambda.GetFunction(context.Background(), &lambda.GetFunctionInput{FunctionName: aws.String(name)})
	if err != nil {
		t.Fatalf("get function %s: %v", name, err)
	}
	return out
}

// TestLambdaFunctionSeedExamples applies both seed Lambda examples verbatim, each in a
// namespace of its own (they share a name; the first names default); with their code in S3 and their placeholders (the
// subnet, the security group, the role's account) swapped for real values, each becomes Active
// with the seed's settings and tags, and deleting it deletes the function.
func TestLambdaFunctionSeedExamples(t *testing.T) {
	h := start(t)
	h.codeObject(t, "my-lambda-code", "api-handler/v1.0.0.zip")
	h.codeObject(t, "lambda-code", "api-handler.zip")
	subnet, group := h.network(t, "10.5.0.0/16", "10.5.1.0/24")

	guide := "default" // the example names its namespace
	h.provider(t, guide, "production-aws")
	for _, u := range h.apply(t, "lambdafunction-api-handler.yaml", guide) {
		h.patchSpec(t, u, `{"vpcConfig":{"subnetIDs":["`+subnet+`"],"securityGroupIDs":["`+group+`"]}}`)
	}
	stack := h.env.Namespace(t)
	h.provider(t, stack, "production-aws")
	objs := h.apply(t, "lambdafunction-serverless.yaml", stack)
	// Verbatim, the placeholder account is not the provider's: the role is refused before any
	// Lambda call, with a terminal condition.
	refused := kubetest.WaitCondition(t, h.c, &v1alpha1.LambdaFunction{ObjectMeta: metav1.ObjectMeta{Namespace: stack, Name: "api-handler"}},
		"Synced", "False", condition.ReasonRoleNotPassable)
	if msg := findCondition(refused.Status.Conditions, "Synced").Message; !strings.Contains(msg, "role") {
		t.Errorf("the refusal does not name the role: %q", msg)
	}
	h.patchSpec(t, objs[0], `{"roleARN":"`+seedRole+`"}`)

	f := kubetest.WaitReady(t, h.c, &v1alpha1.LambdaFunction{ObjectMeta: metav1.ObjectMeta{Namespace: guide, Name: "api-handler"}})
	if s := f.Status; s.FunctionName != "production-api-handler" || s.State != "Active" || s.Runtime != "python3.11" || s.Version != "$LATEST" ||
		s.CodeSHA256 == "" || !strings.HasSuffix(s.FunctionARN, ":function:production-api-handler") || s.CodeSource != "s3://my-lambda-code/api-handler/v1.0.0.zip" {
		t.Errorf("status: %+v", s)
	}
	cfg := h.function(t, "production-api-handler")
	if c := cfg.Configuration; aws.ToInt32(c.MemorySize) != 512 || aws.ToInt32(c.Timeout) != 30 || c.Environment.Variables["LOG_LEVEL"] != "INFO" ||
		len(c.VpcConfig.SubnetIds) != 1 || c.VpcConfig.SubnetIds[0] != subnet || aws.ToString(c.Handler) != "index.lambda_handler" {
		t.Errorf("configuration: %+v", c)
	}
	if cfg.Tags["Application"] != "api" || cfg.Tags[shared.TagOwnerUID] != string(f.UID) {
		t.Errorf("tags: %v", cfg.Tags)
	}
	g := kubetest.WaitReady(t, h.c, &v1alpha1.LambdaFunction{ObjectMeta: metav1.ObjectMeta{Namespace: stack, Name: "api-handler"}})
	if aws.ToString(h.function(t, "api-handler").Configuration.Role) != seedRole || g.Status.State != "Active" {
		t.Errorf("the serverless function: %+v", g.Status)
	}

	kubetest.Delete(t, h.c, f)
	if _, err := h.lambda.GetFunction(context.Background(), &lambda.GetFunctionInput{FunctionName: aws.String("production-api-handler")}); !strings.Contains(errString(err), "ResourceNotFoundException") {
		t.Errorf("the function after its object went: %v", err)
	}
}

// errString returns err's text, or "" for nil.
func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// newFunction returns a LambdaFunction in ns with the provider "aws", its code in a ConfigMap
// named code, changed by mutate.
func newFunction(ns, name string, mutate func(*v1alpha1.LambdaFunction)) *v1alpha1.LambdaFunction {
	f := &v1alpha1.LambdaFunction{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	f.Spec.ProviderRef.Name = "aws"
	f.Spec.FunctionName, f.Spec.Runtime, f.Spec.Handler, f.Spec.RoleARN = ns+"-"+name, "python3.12", "index.handler", seedRole
	f.Spec.CodeConfigMapRef = &v1alpha1.ConfigMapKeySelector{Name: "code", Key: "function.zip"}
	if mutate != nil {
		mutate(f)
	}
	return f
}

// TestLambdaFunctionUpdates follows a function whose code is a zip in a ConfigMap and one of
// whose environment values is a Secret's: it waits for both, then runs with reserved
// concurrency, a public URL and a published version; code and configuration changes publish
// new versions, a Secret change reaches the environment without the value ever appearing on the
// object or its events, drift is reverted, and the URL and the reservation go when the spec
// drops them.
func TestLambdaFunctionUpdates(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	const secretValue = "s3cr3t-value-never-shown"
	f := newFunction(ns, "api", func(f *v1alpha1.LambdaFunction) {
		f.Spec.Publish, f.Spec.ReservedConcurrency = true, aws.Int32(5)
		f.Spec.Environment = &v1alpha1.Environment{Variables: map[string]string{"MODE": "live"},
			FromSecrets: []v1alpha1.SecretVariable{{Name: "API_TOKEN", SecretKeyRef: shared.SecretKeySelector{Name: "api-token", Key: "token"}}}}
		f.Spec.FunctionURL = &v1alpha1.FunctionURL{AuthType: "NONE", CORS: &shared.CORS{AllowOrigins: []string{"https://example.com"}}}
	})
	kubetest.Create(t, h.c, f)
	kubetest.WaitCondition(t, h.c, f, "Ready", "False", condition.ReasonConfigMapNotFound)
	code := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "code"}, BinaryData: map[string][]byte{"function.zip": awsfixture.Zip(t, "index.py", "v1")}}
	kubetest.Create(t, h.c, code)
	kubetest.Resync(t, h.c, f)
	kubetest.WaitCondition(t, h.c, f, "Ready", "False", condition.ReasonSecretNotFound)
	kubetest.Create(t, h.c, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "api-token"}, StringData: map[string]string{"token": secretValue}})
	f = kubetest.WaitFor(t, h.c, f, kubetest.Timeout, "Ready with its URL and version", func(x *v1alpha1.LambdaFunction) bool {
		return isReady(&x.Status.ManagedStatus) && x.Status.FunctionURL != "" && x.Status.Version == "1" && x.Status.ObservedGeneration == x.Generation
	})
	name := f.Spec.FunctionName
	got := h.function(t, name)
	if got.Configuration.Environment.Variables["API_TOKEN"] != secretValue || aws.ToInt32(got.Concurrency.ReservedConcurrentExecutions) != 5 {
		t.Errorf("function: environment %v, concurrency %+v", got.Configuration.Environment.Variables, got.Concurrency)
	}
	policy, err := h.lambda.GetPolicy(ctx, &lambda.GetPolicyInput{FunctionName: aws.String(name)})
	if err != nil || !strings.Contains(aws.ToString(policy.Policy), "FunctionURLAllowPublicAccess") {
		t.Errorf("the public URL's policy: %v %v", policy, err)
	}

	// New code in the ConfigMap (looked at again at the next sync, or a resync): version 2.
	code.BinaryData["function.zip"] = awsfixture.Zip(t, "index.py", "v2")
	if err := h.c.Update(ctx, code); err != nil {
		t.Fatal(err)
	}
	kubetest.Resync(t, h.c, f)
	f = kubetest.WaitFor(t, h.c, f, kubetest.Timeout, "version 2 with the new code", func(x *v1alpha1.LambdaFunction) bool {
		return x.Status.Version == "2" && isReady(&x.Status.ManagedStatus)
	})
	if f.Status.CodeSHA256 == aws.ToString(got.Configuration.CodeSha256) {
		t.Errorf("the code SHA did not change")
	}
	// A configuration change: version 3. A new Secret value reaches the environment.
	h.patchSpec(t, f, `{"memorySize":256}`)
	f = kubetest.WaitFor(t, h.c, f, kubetest.Timeout, "version 3", func(x *v1alpha1.LambdaFunction) bool {
		return x.Status.Version == "3" && isReady(&x.Status.ManagedStatus)
	})
	secret := &corev1.Secret{}
	if err := h.c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "api-token"}, secret); err != nil {
		t.Fatal(err)
	}
	secret.StringData = map[string]string{"token": secretValue + "-2"}
	if err := h.c.Update(ctx, secret); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitFor(t, h.c, f, kubetest.Timeout, "the new Secret value", func(*v1alpha1.LambdaFunction) bool {
		return h.function(t, name).Configuration.Environment.Variables["API_TOKEN"] == secretValue+"-2"
	})

	// Drift: the timeout changed and the reservation released outside are restored.
	kubetest.WaitFor(t, h.c, f, kubetest.Timeout, "the update finished", func(*v1alpha1.LambdaFunction) bool {
		return h.function(t, name).Configuration.LastUpdateStatus == "Successful"
	})
	if _, err := h.lambda.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: aws.String(name), Timeout: aws.Int32(99)}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.lambda.DeleteFunctionConcurrency(ctx, &lambda.DeleteFunctionConcurrencyInput{FunctionName: aws.String(name)}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, f, "the drift reverted", func() bool {
		got := h.function(t, name)
		return aws.ToInt32(got.Configuration.Timeout) == 3 && got.Concurrency != nil && aws.ToInt32(got.Concurrency.ReservedConcurrentExecutions) == 5
	})

	// The secret value is on no object and in no event.
	raw, err := json.Marshal(kubetest.WaitReady(t, h.c, f))
	if err != nil {
		t.Fatal(err)
	}
	events := &corev1.EventList{}
	if err := h.c.List(ctx, events, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	evJSON, _ := json.Marshal(events)
	if strings.Contains(string(raw), secretValue) || strings.Contains(string(evJSON), secretValue) {
		t.Errorf("the Secret's value appears on the object or in its events")
	}

	// The URL and the reservation dropped from the spec are removed.
	h.patchSpec(t, f, `{"functionURL":null,"reservedConcurrency":null}`)
	kubetest.WaitFor(t, h.c, f, kubetest.Timeout, "no URL", func(x *v1alpha1.LambdaFunction) bool {
		return x.Status.FunctionURL == "" && isReady(&x.Status.ManagedStatus)
	})
	if _, err := h.lambda.GetFunctionUrlConfig(ctx, &lambda.GetFunctionUrlConfigInput{FunctionName: aws.String(name)}); !strings.Contains(errString(err), "ResourceNotFoundException") {
		t.Errorf("the URL after the spec dropped it: %v", err)
	}
	if c := h.function(t, name).Concurrency; c != nil && c.ReservedConcurrentExecutions != nil {
		t.Errorf("the reservation after the spec dropped it: %d", aws.ToInt32(c.ReservedConcurrentExecutions))
	}
}

// TestLambdaFunctionBadInput refuses at admission what the schema can tell is wrong and the
// changes Lambda cannot make; a roleRef to an IAMRole that does not exist waits, with no AWS
// call.
func TestLambdaFunctionBadInput(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	for _, tc := range []struct {
		mutate func(*v1alpha1.LambdaFunction)
		text   string
	}{
		{func(f *v1alpha1.LambdaFunction) { f.Spec.CodeS3Bucket, f.Spec.CodeS3Key = "b", "k.zip" }, "give the code in exactly one way"},
		{func(f *v1alpha1.LambdaFunction) { f.Spec.Handler = "" }, "needs runtime and handler"},
		{func(f *v1alpha1.LambdaFunction) { f.Spec.RoleRef = &shared.Reference{Name: "exec"} }, "set exactly one of roleARN and roleRef"},
		{func(f *v1alpha1.LambdaFunction) { f.Spec.FunctionName = "has spaces" }, "spec.functionName"},
		{func(f *v1alpha1.LambdaFunction) { f.Spec.MemorySize = 64 }, "spec.memorySize"},
		{func(f *v1alpha1.LambdaFunction) { f.Spec.Architectures = []string{"riscv"} }, "spec.architectures"},
		{func(f *v1alpha1.LambdaFunction) {
			f.Spec.DeadLetterConfig = &v1alpha1.DeadLetterConfig{TargetARN: "arn:aws:s3:::bucket"}
		}, "spec.deadLetterConfig.targetARN"},
		{func(f *v1alpha1.LambdaFunction) {
			f.Spec.CodeConfigMapRef, f.Spec.ImageURI = nil, "123456789012.dkr.ecr.us-east-1.amazonaws.com/api:1"
		}, "takes its runtime and handler from the image"},
	} {
		kubetest.MustRefuse(t, h.c, newFunction(ns, "bad", tc.mutate), tc.text)
	}

	// A roleRef to an IAMRole that does not exist waits, with no AWS call.
	byRef := newFunction(ns, "by-ref", func(f *v1alpha1.LambdaFunction) { f.Spec.RoleARN, f.Spec.RoleRef = "", &shared.Reference{Name: "exec"} })
	kubetest.Create(t, h.c, byRef)
	kubetest.WaitCondition(t, h.c, byRef, "Ready", "False", condition.ReasonReferenceNotFound)
	if n := kubetest.Total(kubetest.Calls(h.emu.Calls.Snapshot(), "Lambda")); n != 0 {
		t.Errorf("%d Lambda calls for a spec refused before any", n)
	}

	kubetest.Create(t, h.c, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "code"}, BinaryData: map[string][]byte{"function.zip": awsfixture.Zip(t, "index.py", "v1")}})
	good := newFunction(ns, "good", nil)
	kubetest.Create(t, h.c, good)
	good = kubetest.WaitReady(t, h.c, good)
	for _, patch := range []struct{ spec, text string }{
		{`{"functionName":"renamed"}`, "functionName cannot change"},
		{`{"codeConfigMapRef":null,"runtime":null,"handler":null,"imageURI":"123456789012.dkr.ecr.us-east-1.amazonaws.com/api:1"}`, "package type"},
	} {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(shared.GroupVersion.WithKind("LambdaFunction"))
		u.SetNamespace(ns)
		u.SetName("good")
		err := h.c.Patch(context.Background(), u, client.RawPatch("application/merge-patch+json", []byte(`{"spec":`+patch.spec+`}`)))
		if err == nil || !strings.Contains(err.Error(), patch.text) {
			t.Errorf("patch %s: %v, want a refusal saying %q", patch.spec, err, patch.text)
		}
	}
}

// TestLambdaFunctionCrashAndPolicies loses the CreateFunction answer after Lambda made the
// function (a crash before its name was recorded): the function is claimed by its ownership
// tags, not refused as someone else's. Orphan keeps the function without its ownership tags;
// a function of the name owned by nobody is refused with the way to adopt it.
func TestLambdaFunctionCrashAndPolicies(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	kubetest.Create(t, h.c, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "code"}, BinaryData: map[string][]byte{"function.zip": awsfixture.Zip(t, "index.py", "v1")}})
	h.emu.Faults.Set("Lambda.CreateFunction", emulator.Fault{ErrorAfterRate: 1})
	f := newFunction(ns, "crash", func(f *v1alpha1.LambdaFunction) { f.Spec.DeletionPolicy = shared.DeletionPolicyOrphan })
	kubetest.Create(t, h.c, f)
	f = kubetest.WaitReady(t, h.c, f)
	h.emu.Faults.Set("Lambda.CreateFunction", emulator.Fault{})
	if f.Annotations[shared.AnnotationExternalName] != f.Spec.FunctionName {
		t.Errorf("recorded %q", f.Annotations[shared.AnnotationExternalName])
	}
	kubetest.Delete(t, h.c, f)
	if _, owned := h.function(t, f.Spec.FunctionName).Tags[shared.TagOwnerUID]; owned {
		t.Errorf("an orphaned function keeps its ownership tags")
	}

	// The orphan, named by another object: refused, with the way to adopt it.
	again := newFunction(ns, "again", func(x *v1alpha1.LambdaFunction) { x.Spec.FunctionName = f.Spec.FunctionName })
	kubetest.Create(t, h.c, again)
	got := kubetest.WaitCondition(t, h.c, again, "Synced", "False", condition.ReasonAlreadyExists)
	if msg := findCondition(got.Status.Conditions, "Synced").Message; !strings.Contains(msg, shared.AnnotationExternalName) {
		t.Errorf("AlreadyExists does not say how to adopt: %q", msg)
	}
}

// TestLambdaFunctionRoleRef applies a function and its execution role in one file: the
// function waits for the IAMRole (security family) to be Ready, then runs with its ARN.
func TestLambdaFunctionRoleRef(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	h.codeObject(t, "my-lambda-code", "api-handler/v1.0.0.zip")
	h.apply(t, "lambdafunction-with-role.yaml", ns)
	f := kubetest.WaitReady(t, h.c, &v1alpha1.LambdaFunction{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "orders-handler"}})
	role := kubetest.WaitReady(t, h.c, &secv1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "orders-handler-role"}})
	if got := aws.ToString(h.function(t, f.Spec.FunctionName).Configuration.Role); got != role.Status.ARN || got == "" {
		t.Errorf("the function runs with role %q, want the IAMRole's %q", got, role.Status.ARN)
	}
}
