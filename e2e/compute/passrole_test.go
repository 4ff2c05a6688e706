package compute_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	secv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/awsfixture"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPassRoleLockedDown runs the operator with a --passable-roles rule, as a cluster shared
// by teams is run: a hostile tenant's function naming another role of the account by ARN is
// refused before any Lambda call, an observe-only IAMRole does not make the role it observes
// the namespace's own, and functions with a roleRef to the namespace's own IAMRole or with a
// role the administrator's pattern allows are created with that role.
func TestPassRoleLockedDown(t *testing.T) {
	h := startWith(t, testTransitions, func(o *operator.Options) {
		o.WaitInterval = 200 * time.Millisecond
		o.PassableRoles = []string{"*=arn:aws:iam::{account}:role/shared-*"}
	})
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	kubetest.Create(t, h.c, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "code"},
		BinaryData: map[string][]byte{"function.zip": awsfixture.Zip(t, "index.py", "v1")}})

	// Another role of the account, made outside the cluster, observed by an observe-only
	// IAMRole of the namespace, and given to a function by ARN.
	admin, err := iam.NewFromConfig(h.env.AWSConfig(testAccessKey, testSecretKey)).CreateRole(context.Background(), &iam.CreateRoleInput{
		RoleName: aws.String("platform-admin"), AssumeRolePolicyDocument: aws.String(lambdaTrust)})
	if err != nil {
		t.Fatal(err)
	}
	observed := &secv1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "observed"}}
	observed.Spec.ProviderRef.Name = "aws"
	observed.Spec.ManagementPolicy = shared.ManagementPolicyObserveOnly
	observed.Spec.RoleName = "platform-admin"
	observed.Spec.AssumeRolePolicyDocument = lambdaTrust
	kubetest.Create(t, h.c, observed)
	kubetest.WaitFor(t, h.c, observed, kubetest.Timeout, "the observed role's ARN", func(r *secv1alpha1.IAMRole) bool { return r.Status.ARN != "" })
	h.emu.Calls.Reset()
	hostile := newFunction(ns, "hostile", func(f *v1alpha1.LambdaFunction) { f.Spec.RoleARN = aws.ToString(admin.Role.Arn) })
	kubetest.Create(t, h.c, hostile)
	got := kubetest.WaitCondition(t, h.c, hostile, condition.TypeSynced, "False", condition.ReasonRoleNotPassable)
	if msg := findCondition(got.Status.Conditions, condition.TypeSynced).Message; !strings.Contains(msg, "--passable-roles") {
		t.Errorf("the refusal %q does not name the operator flag", msg)
	}
	if calls := kubetest.Calls(h.emu.Calls.Snapshot(), "Lambda"); len(calls) != 0 {
		t.Errorf("a function refused for its role called Lambda: %v", calls)
	}

	// The namespace's own role, by roleRef, and a role the administrator allows, by ARN.
	role := &secv1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "exec"}}
	role.Spec.ProviderRef.Name = "aws"
	role.Spec.RoleName, role.Spec.AssumeRolePolicyDocument = ns+"-exec", lambdaTrust
	kubetest.Create(t, h.c, role)
	own := newFunction(ns, "own", func(f *v1alpha1.LambdaFunction) { f.Spec.RoleARN, f.Spec.RoleRef = "", &shared.Reference{Name: "exec"} })
	allowed := newFunction(ns, "allowed", func(f *v1alpha1.LambdaFunction) { f.Spec.RoleARN = "arn:aws:iam::" + seedAccount + ":role/shared-logs" })
	kubetest.Create(t, h.c, own)
	kubetest.Create(t, h.c, allowed)
	own = kubetest.WaitReady(t, h.c, own)
	allowed = kubetest.WaitReady(t, h.c, allowed)
	role = kubetest.WaitReady(t, h.c, role)
	if got := aws.ToString(h.function(t, own.Spec.FunctionName).Configuration.Role); got != role.Status.ARN || got == "" {
		t.Errorf("the function runs with role %q, want its IAMRole's %q", got, role.Status.ARN)
	}
	if got := aws.ToString(h.function(t, allowed.Spec.FunctionName).Configuration.Role); got != allowed.Spec.RoleARN {
		t.Errorf("the function runs with role %q, want %q", got, allowed.Spec.RoleARN)
	}
}

// lambdaTrust is a trust policy for Lambda.
const lambdaTrust = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"lambda.amazonaws.com"},"Action":"sts:AssumeRole"}]}`
