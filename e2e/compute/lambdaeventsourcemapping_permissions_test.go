package compute_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/compute"
	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging"
	"github.com/runner-codes/infra-operator/operators/security"
	secv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/security/iamrole"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/families"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestLambdaEventSourceMappingPermissions maps an SQSQueue to a LambdaFunction whose execution
// role (an IAMRole, by roleRef) has the basic execution policy only: Lambda refuses the mapping,
// which is Synced False SourcePermissionsMissing naming the permissions to add, and no mapping
// exists. Once the role carries AWSLambdaSQSQueueExecutionRole and the mapping's spec changes,
// as the message asks, the mapping is created and Ready.
func TestLambdaEventSourceMappingPermissions(t *testing.T) {
	emu := emulator.New(emulator.Options{Accounts: map[string]string{testAccessKey: seedAccount}})
	env := families.Start(t, emu, func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond }, compute.Family(), messaging.Family(),
		security.FamilyWith(security.Tunables{IAMRole: iamrole.Tunables{Propagation: time.Second}}))
	cfg := env.AWSConfig(testAccessKey, testSecretKey)
	h := &harness{env: env, emu: emu, lambda: lambda.NewFromConfig(cfg), c: env.Client,
		s3: s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true })}
	ctx := context.Background()
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	h.codeObject(t, "lambda-code", "api-handler.zip")

	role := &secv1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "reader-role"}}
	role.Spec.ProviderRef.Name = "production-aws"
	role.Spec.RoleName, role.Spec.AssumeRolePolicyDocument = ns+"-reader", lambdaTrust
	role.Spec.ManagedPolicyARNs = []string{"arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"}
	kubetest.Create(t, h.c, role)
	fn := &v1alpha1.LambdaFunction{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "reader"}}
	fn.Spec.ProviderRef.Name = "production-aws"
	fn.Spec.FunctionName, fn.Spec.Runtime, fn.Spec.Handler = ns+"-reader", "python3.12", "index.handler"
	fn.Spec.CodeS3Bucket, fn.Spec.CodeS3Key, fn.Spec.RoleRef = "lambda-code", "api-handler.zip", &shared.Reference{Name: "reader-role"}
	kubetest.Create(t, h.c, fn)
	kubetest.ApplySeed(t, h.c, filepath.Join("..", "..", "examples", "messaging", "sqsqueue-serverless.yaml"), ns)
	kubetest.WaitReady(t, h.c, &v1alpha1.LambdaFunction{ObjectMeta: fn.ObjectMeta})

	m := &v1alpha1.LambdaEventSourceMapping{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "queue-to-reader"}}
	m.Spec.ProviderRef.Name = "production-aws"
	m.Spec.FunctionRef, m.Spec.QueueRef = &shared.Reference{Name: "reader"}, &shared.Reference{Name: "processing-queue"}
	kubetest.Create(t, h.c, m)
	got := kubetest.WaitCondition(t, h.c, &v1alpha1.LambdaEventSourceMapping{ObjectMeta: m.ObjectMeta}, "Synced", "False", condition.ReasonSourcePermissionsMissing)
	msg := findCondition(got.Status.Conditions, "Synced").Message
	for _, want := range []string{"does not have permissions to call ReceiveMessage on SQS", "sqs:ReceiveMessage, sqs:DeleteMessage and sqs:GetQueueAttributes", "change the spec"} {
		if !strings.Contains(msg, want) {
			t.Errorf("SourcePermissionsMissing says %q, want it to say %q", msg, want)
		}
	}
	list, err := h.lambda.ListEventSourceMappings(ctx, &lambda.ListEventSourceMappingsInput{FunctionName: aws.String(fn.Spec.FunctionName)})
	if err != nil || len(list.EventSourceMappings) != 0 {
		t.Errorf("after the refusal the function has %d mappings (%v), want none", len(list.EventSourceMappings), err)
	}

	// The role gains the SQS execution policy; once IAM has it, the mapping's spec changes.
	kubetest.Update(t, h.c, role, func(r *secv1alpha1.IAMRole) {
		r.Spec.ManagedPolicyARNs = append(r.Spec.ManagedPolicyARNs, "arn:aws:iam::aws:policy/service-role/AWSLambdaSQSQueueExecutionRole")
	})
	kubetest.WaitFor(t, h.c, &secv1alpha1.IAMRole{ObjectMeta: role.ObjectMeta}, 30*time.Second, "two attached policies", func(r *secv1alpha1.IAMRole) bool {
		return r.Status.AttachedPolicies == 2 && r.Status.ObservedGeneration == r.Generation && r.Status.Ready
	})
	kubetest.Update(t, h.c, got, func(m *v1alpha1.LambdaEventSourceMapping) { m.Spec.BatchSize = aws.Int32(5) })
	ready := kubetest.WaitFor(t, h.c, &v1alpha1.LambdaEventSourceMapping{ObjectMeta: m.ObjectMeta}, 30*time.Second, "Ready after the change",
		func(m *v1alpha1.LambdaEventSourceMapping) bool {
			return m.Status.Ready && m.Status.ObservedGeneration == m.Generation
		})
	if ready.Status.UUID == "" || ready.Status.State != "Enabled" {
		t.Errorf("status after the role's fix: %+v", ready.Status)
	}
	if out := h.mapping(t, ready.Status.UUID); aws.ToInt32(out.BatchSize) != 5 || !strings.HasSuffix(aws.ToString(out.EventSourceArn), ":processing-queue") {
		t.Errorf("mapping in Lambda: %+v", out)
	}
}
