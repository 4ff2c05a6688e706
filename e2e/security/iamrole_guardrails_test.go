package security_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/security"
	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/security/iamrole"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// hostileRole returns an IAMRole of namespace ns trusted by EC2, changed by mutate.
func hostileRole(ns, name string, mutate func(*v1alpha1.IAMRole)) *v1alpha1.IAMRole {
	r := &v1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	r.Spec.ProviderRef.Name = "aws"
	r.Spec.RoleName, r.Spec.AssumeRolePolicyDocument = ns+"-"+name, trust
	if mutate != nil {
		mutate(r)
	}
	return r
}

// iamCalls returns the IAM calls the emulator counted since its counters were reset.
func (h *harness) iamCalls() map[string]int {
	return kubetest.Calls(h.emu.Calls.Snapshot(), "IAM")
}

// refusedWithoutIAM creates r and waits until it is refused with reason, then checks that the
// refusal made no IAM call at all and names the operator flag that changes the rule.
func (h *harness) refusedWithoutIAM(t *testing.T, r *v1alpha1.IAMRole, reason, flag string) {
	t.Helper()
	h.emu.Calls.Reset()
	kubetest.Create(t, h.c, r)
	got := kubetest.WaitCondition(t, h.c, r, condition.TypeSynced, "False", reason)
	if calls := h.iamCalls(); len(calls) != 0 {
		t.Errorf("%s: refused, yet IAM was called: %v", r.Name, calls)
	}
	if msg := metaMessage(got.Status.Conditions, condition.TypeSynced); !strings.Contains(msg, flag) {
		t.Errorf("%s: the refusal %q does not name the operator flag %s", r.Name, msg, flag)
	}
	if _, err := h.iam.GetRole(context.Background(), &iam.GetRoleInput{RoleName: aws.String(r.Spec.RoleName)}); err == nil {
		t.Errorf("%s: the refused role exists in IAM", r.Name)
	}
}

// metaMessage returns the message of the condition typ.
func metaMessage(conds []metav1.Condition, typ string) string {
	for _, c := range conds {
		if c.Type == typ {
			return c.Message
		}
	}
	return ""
}

// TestIAMRoleGuardrailsDefaults tries, as a hostile tenant with the operator's default flags,
// to make the roles that reach beyond the namespace: one trusting an outside account, one with
// AdministratorAccess, one whose inline policy allows iam:* on everything. Each is refused
// before any IAM call; a harmless role is made, and a later change of its spec that adds
// AdministratorAccess is refused without attaching it.
func TestIAMRoleGuardrailsDefaults(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")

	h.refusedWithoutIAM(t, hostileRole(ns, "outside", func(r *v1alpha1.IAMRole) {
		r.Spec.AssumeRolePolicyDocument = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::999999999999:root"},` +
			`"Action":"sts:AssumeRole","Condition":{"StringEquals":{"sts:ExternalId":"friendly"}}}]}`
	}), condition.ReasonTrustPrincipalNotAllowed, "--iam-trusted-accounts")
	h.refusedWithoutIAM(t, hostileRole(ns, "admin", func(r *v1alpha1.IAMRole) {
		r.Spec.ManagedPolicyARNs = []string{"arn:aws:iam::aws:policy/AdministratorAccess"}
	}), condition.ReasonManagedPolicyDenied, "--iam-denied-policies")
	h.refusedWithoutIAM(t, hostileRole(ns, "iamstar", func(r *v1alpha1.IAMRole) {
		r.Spec.InlinePolicies = []v1alpha1.InlinePolicy{{PolicyName: "all-iam", PolicyDocument: `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"iam:*","Resource":"*"}]}`}}
	}), condition.ReasonInlinePolicyDenied, "--passable-roles")

	// A harmless role is made; AdministratorAccess added later is refused and never attached.
	ok := hostileRole(ns, "app", func(r *v1alpha1.IAMRole) {
		r.Spec.ManagedPolicyARNs = []string{"arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore"}
	})
	kubetest.Create(t, h.c, ok)
	ok = kubetest.WaitReady(t, h.c, ok)
	h.emu.Calls.Reset()
	h.patchSpec(t, ok, `{"managedPolicyARNs":["arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore","arn:aws:iam::aws:policy/AdministratorAccess"]}`)
	kubetest.WaitCondition(t, h.c, ok, condition.TypeSynced, "False", condition.ReasonManagedPolicyDenied)
	if n := h.iamCalls()["AttachRolePolicy"]; n != 0 {
		t.Errorf("AdministratorAccess added to the spec was attached (%d AttachRolePolicy calls)", n)
	}
	if got := h.attached(t, ok.Spec.RoleName); len(got) != 1 || got[0] != "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore" {
		t.Errorf("managed policies after the refused change: %v", got)
	}
}

// TestIAMRoleGuardrailsLockedDown runs the operator with a permissions boundary and a name
// prefix for every namespace: a role that names no boundary is created carrying the
// namespace's (read back from IAM), a boundary removed outside the operator is put back, a spec
// that names another boundary is refused without an IAM write, and a name outside the prefix is
// refused before any IAM call.
func TestIAMRoleGuardrailsLockedDown(t *testing.T) {
	h := startWith(t, security.Tunables{IAMRole: iamrole.Tunables{Propagation: time.Second}}, func(o *operator.Options) {
		o.WaitInterval = 200 * time.Millisecond
		o.IAMPermissionsBoundary = []string{"*=arn:aws:iam::{account}:policy/tenant-boundary"}
		o.IAMRolePrefix = []string{"*={namespace}-"}
	})
	ctx := context.Background()
	boundary := "arn:aws:iam::" + emulator.DefaultAccount + ":policy/tenant-boundary"
	if _, err := h.iam.CreatePolicy(ctx, &iam.CreatePolicyInput{PolicyName: aws.String("tenant-boundary"),
		PolicyDocument: aws.String(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:*","logs:*"],"Resource":"*"}]}`)}); err != nil {
		t.Fatal(err)
	}
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")

	r := hostileRole(ns, "app", nil)
	kubetest.Create(t, h.c, r)
	r = kubetest.WaitReady(t, h.c, r)
	boundaryOf := func() string {
		out, err := h.iam.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String(r.Spec.RoleName)})
		if err != nil {
			t.Fatal(err)
		}
		if b := out.Role.PermissionsBoundary; b != nil {
			return aws.ToString(b.PermissionsBoundaryArn)
		}
		return ""
	}
	if got := boundaryOf(); got != boundary {
		t.Fatalf("the role's permissions boundary is %q, want %q", got, boundary)
	}

	// Removed outside the operator: put back.
	if _, err := h.iam.DeleteRolePermissionsBoundary(ctx, &iam.DeleteRolePermissionsBoundaryInput{RoleName: aws.String(r.Spec.RoleName)}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, r, "the boundary put back", func() bool { return boundaryOf() == boundary })

	// Replaced in the spec: refused, the boundary stays.
	h.emu.Calls.Reset()
	h.patchSpec(t, r, `{"permissionsBoundary":"arn:aws:iam::aws:policy/AdministratorAccess"}`)
	kubetest.WaitCondition(t, h.c, r, condition.TypeSynced, "False", condition.ReasonPermissionsBoundaryRequired)
	calls := h.iamCalls()
	if n := calls["PutRolePermissionsBoundary"] + calls["DeleteRolePermissionsBoundary"]; n != 0 {
		t.Errorf("a refused boundary change wrote to IAM: %v", calls)
	}
	if got := boundaryOf(); got != boundary {
		t.Errorf("after the refused change the boundary is %q, want %q", got, boundary)
	}

	// A name outside the namespace's prefix.
	h.refusedWithoutIAM(t, hostileRole(ns, "other", func(x *v1alpha1.IAMRole) { x.Spec.RoleName = "platform-admin" }),
		condition.ReasonRoleNameNotAllowed, "--iam-role-prefix")
}
