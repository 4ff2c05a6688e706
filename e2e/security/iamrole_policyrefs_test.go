package security_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/security"
	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/security/iamrole"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestIAMRolePolicyRefs attaches the policies of IAMPolicy objects to a role through policyRefs,
// beside its managedPolicyARNs: the role waits for the IAMPolicy, then attaches its ARN; the
// IAMPolicy counts the attachment and, deleted while attached, waits (DeleteConflict) until the
// role no longer names it. A policy the administrator's denied patterns match is refused when
// named through policyRefs as when named by ARN, before any IAM call.
func TestIAMRolePolicyRefs(t *testing.T) {
	h := startWith(t, security.Tunables{IAMRole: iamrole.Tunables{Propagation: time.Second}}, func(o *operator.Options) {
		o.WaitInterval = 200 * time.Millisecond
		o.IAMDeniedPolicies = append(slices.Clone(o.IAMDeniedPolicies), "arn:aws*:iam::*:policy/*-denied")
	})
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	newPolicy := func(name string) *v1alpha1.IAMPolicy {
		p := &v1alpha1.IAMPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		p.Spec.ProviderRef.Name = "aws"
		p.Spec.PolicyName, p.Spec.PolicyDocument = ns+"-"+name, readDoc("s3:GetObject")
		return p
	}
	newRole := func(name string, refs ...string) *v1alpha1.IAMRole {
		r := &v1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		r.Spec.ProviderRef.Name = "aws"
		r.Spec.RoleName, r.Spec.AssumeRolePolicyDocument = ns+"-"+name, trust
		r.Spec.ManagedPolicyARNs = []string{"arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore"}
		for _, ref := range refs {
			r.Spec.PolicyRefs = append(r.Spec.PolicyRefs, shared.Reference{Name: ref})
		}
		return r
	}

	// The role first, then its policy: it waits for the reference, then attaches both.
	role := newRole("app", "read")
	kubetest.Create(t, h.c, role)
	kubetest.WaitCondition(t, h.c, role, condition.TypeReady, "False", condition.ReasonReferenceNotFound)
	pol := newPolicy("read")
	kubetest.Create(t, h.c, pol)
	pol = kubetest.WaitReady(t, h.c, pol)
	role = kubetest.WaitFor(t, h.c, role, kubetest.Timeout, "both policies attached", func(r *v1alpha1.IAMRole) bool {
		return r.Status.AttachedPolicies == 2 && r.Status.ObservedGeneration == r.Generation
	})
	want := []string{"arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore", pol.Status.ARN}
	slices.Sort(want)
	if got := h.attached(t, role.Spec.RoleName); !slices.Equal(got, want) {
		t.Errorf("attached %v, want %v", got, want)
	}
	kubetest.ResyncUntil(t, h.c, pol, "the attachment counted", func() bool {
		x := &v1alpha1.IAMPolicy{}
		return h.c.Get(ctx, client.ObjectKeyFromObject(pol), x) == nil && x.Status.AttachmentCount == 1
	})

	// The IAMPolicy deleted while the role names it: it waits; the role no longer naming it
	// detaches it, and the deletion completes.
	if err := h.c.Delete(ctx, pol); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitCondition(t, h.c, pol, condition.TypeReady, "False", condition.ReasonDeleteConflict)
	h.patchSpec(t, role, `{"policyRefs":null}`)
	kubetest.WaitGone(t, h.c, pol)
	if got := h.attached(t, role.Spec.RoleName); !slices.Equal(got, []string{"arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore"}) {
		t.Errorf("attached %v after the reference went", got)
	}
	if _, err := h.iam.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: aws.String(pol.Status.ARN)}); err == nil {
		t.Errorf("the policy is still there after its object went")
	}

	// A denied policy through policyRefs: refused like its ARN, before the role is made.
	denied := newPolicy("denied")
	kubetest.Create(t, h.c, denied)
	kubetest.WaitReady(t, h.c, denied)
	h.emu.Calls.Reset()
	hostile := newRole("hostile", "denied")
	kubetest.Create(t, h.c, hostile)
	kubetest.WaitCondition(t, h.c, hostile, condition.TypeSynced, "False", condition.ReasonManagedPolicyDenied)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "IAM")["CreateRole"]; n != 0 {
		t.Errorf("a role naming a denied policy was created (%d CreateRole)", n)
	}
}
