package security_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"k8s.io/apimachinery/pkg/api/meta"
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

// profileRoles returns the names of the roles the instance profile name holds.
func (h *harness) profileRoles(t testing.TB, name string) []string {
	t.Helper()
	out, err := h.iam.GetInstanceProfile(context.Background(), &iam.GetInstanceProfileInput{InstanceProfileName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, r := range out.InstanceProfile.Roles {
		roles = append(roles, aws.ToString(r.RoleName))
	}
	return roles
}

// TestIAMInstanceProfile applies the example verbatim, with the IAMRole its roleRef names: it
// becomes Ready holding the role, with its ownership tags; a role changed outside the operator
// is put back; switching to roleName changes the role; deleting takes the role out and deletes
// the profile, leaving the role.
func TestIAMInstanceProfile(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	ctx := context.Background()
	h.apply(t, "iamrole-ec2.yaml", "default")
	h.apply(t, "iaminstanceprofile.yaml", "default")
	p := &v1alpha1.IAMInstanceProfile{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-server-profile"}}
	if created, ready := h.createdThenReady(t, p); ready.Sub(created) < 500*time.Millisecond {
		t.Errorf("the instance profile was Ready %s after it was created, before IAM could propagate it (1s in this harness)", ready.Sub(created))
	}
	const name = "production-web-server-profile"
	if s := p.Status; !strings.HasSuffix(s.ARN, ":instance-profile/"+name) || !strings.HasPrefix(s.InstanceProfileID, "AIPA") ||
		s.RoleName != "production-ec2-web-server" || s.InstanceProfileName != name {
		t.Errorf("status: %+v", s)
	}
	out, err := h.iam.GetInstanceProfile(ctx, &iam.GetInstanceProfileInput{InstanceProfileName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	tags := map[string]string{}
	for _, tg := range out.InstanceProfile.Tags {
		tags[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
	}
	if tags["Environment"] != "production" || tags[shared.TagOwnerUID] != string(p.UID) {
		t.Errorf("tags: %v", tags)
	}

	// Drift: the role taken out and another put in outside the operator.
	if _, err := h.iam.CreateRole(ctx, &iam.CreateRoleInput{RoleName: aws.String("other-role"), AssumeRolePolicyDocument: aws.String(trust)}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.iam.RemoveRoleFromInstanceProfile(ctx, &iam.RemoveRoleFromInstanceProfileInput{InstanceProfileName: aws.String(name),
		RoleName: aws.String("production-ec2-web-server")}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.iam.AddRoleToInstanceProfile(ctx, &iam.AddRoleToInstanceProfileInput{InstanceProfileName: aws.String(name), RoleName: aws.String("other-role")}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, p, "the role put back", func() bool {
		roles := h.profileRoles(t, name)
		return len(roles) == 1 && roles[0] == "production-ec2-web-server"
	})
	kubetest.WaitEvent(t, h.c, p, condition.ReasonDriftDetected, "roleName")

	// Another role, by name.
	h.patchSpec(t, p, `{"roleRef":null,"roleName":"other-role"}`)
	kubetest.WaitFor(t, h.c, p, kubetest.Timeout, "the other role", func(x *v1alpha1.IAMInstanceProfile) bool {
		return x.Status.RoleName == "other-role" && x.Status.ObservedGeneration == x.Generation
	})
	if roles := h.profileRoles(t, name); len(roles) != 1 || roles[0] != "other-role" {
		t.Errorf("roles %v, want other-role", roles)
	}

	kubetest.Delete(t, h.c, p)
	if _, err := h.iam.GetInstanceProfile(ctx, &iam.GetInstanceProfileInput{InstanceProfileName: aws.String(name)}); err == nil {
		t.Errorf("the instance profile is still there after its object went")
	}
	if _, err := h.iam.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String("other-role")}); err != nil {
		t.Errorf("the role went with the instance profile: %v", err)
	}
}

// TestIAMInstanceProfileBadInputAndPassRole refuses at admission what the schema can tell is
// wrong; with a --passable-roles rule, a profile holding another role of the account is refused
// (RoleNotPassable) before any IAM call, while one holding the namespace's own IAMRole's role
// (roleRef) is made.
func TestIAMInstanceProfileBadInputAndPassRole(t *testing.T) {
	h := startWith(t, security.Tunables{IAMRole: iamrole.Tunables{Propagation: time.Second}}, func(o *operator.Options) {
		o.WaitInterval = 200 * time.Millisecond
		o.PassableRoles = []string{"*=arn:aws:iam::{account}:role/shared-*"}
	})
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	newProfile := func(name string, mutate func(*v1alpha1.IAMInstanceProfile)) *v1alpha1.IAMInstanceProfile {
		p := &v1alpha1.IAMInstanceProfile{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		p.Spec.ProviderRef.Name = "aws"
		p.Spec.InstanceProfileName = ns + "-" + name
		if mutate != nil {
			mutate(p)
		}
		return p
	}
	for _, tc := range []struct {
		mutate func(*v1alpha1.IAMInstanceProfile)
		text   string
	}{
		{func(p *v1alpha1.IAMInstanceProfile) { p.Spec.InstanceProfileName = "has spaces" }, "spec.instanceProfileName"},
		{func(p *v1alpha1.IAMInstanceProfile) {
			p.Spec.RoleName, p.Spec.RoleRef = "a", &shared.Reference{Name: "b"}
		}, "set at most one of roleName and roleRef"},
	} {
		kubetest.MustRefuse(t, h.c, newProfile("bad", tc.mutate), tc.text)
	}

	if _, err := h.iam.CreateRole(ctx, &iam.CreateRoleInput{RoleName: aws.String("platform-admin"), AssumeRolePolicyDocument: aws.String(trust)}); err != nil {
		t.Fatal(err)
	}
	h.emu.Calls.Reset()
	hostile := newProfile("hostile", func(p *v1alpha1.IAMInstanceProfile) { p.Spec.RoleName = "platform-admin" })
	kubetest.Create(t, h.c, hostile)
	got := kubetest.WaitCondition(t, h.c, hostile, condition.TypeSynced, "False", condition.ReasonRoleNotPassable)
	if msg := strings.Join(kubetest.ConditionTexts(got.Status.Conditions), " "); !strings.Contains(msg, "--passable-roles") || !strings.Contains(msg, "spec.roleName") {
		t.Errorf("the refusal does not name the field and the flag: %s", msg)
	}
	if n := kubetest.Total(kubetest.Calls(h.emu.Calls.Snapshot(), "IAM")); n != 0 {
		t.Errorf("%d IAM calls for a profile refused before any", n)
	}

	role := &v1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web"}}
	role.Spec.ProviderRef.Name = "aws"
	role.Spec.RoleName, role.Spec.Path, role.Spec.AssumeRolePolicyDocument = ns+"-web", "/apps/", trust
	kubetest.Create(t, h.c, role)
	own := newProfile("own", func(p *v1alpha1.IAMInstanceProfile) { p.Spec.RoleRef = &shared.Reference{Name: "web"} })
	kubetest.Create(t, h.c, own)
	if own = kubetest.WaitReady(t, h.c, own); own.Status.RoleName != ns+"-web" {
		t.Errorf("the profile holds %q, want the IAMRole's role", own.Status.RoleName)
	}
}

// createdThenReady polls p every 20ms until it is Ready and returns when its status first named
// the instance profile (the pass that created it) and when it was first Ready.
func (h *harness) createdThenReady(t *testing.T, p *v1alpha1.IAMInstanceProfile) (created, ready time.Time) {
	t.Helper()
	deadline := time.Now().Add(kubetest.Timeout)
	for time.Now().Before(deadline) {
		if err := h.c.Get(context.Background(), client.ObjectKeyFromObject(p), p); err == nil {
			if p.Status.ARN != "" && created.IsZero() {
				created = time.Now()
			}
			if meta.IsStatusConditionTrue(p.Status.Conditions, "Ready") {
				return created, time.Now()
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s not Ready within %s: %+v", p.Name, kubetest.Timeout, p.Status.Conditions)
	return created, ready
}
