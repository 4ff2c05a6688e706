package security_test

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// trust is a trust policy for EC2, written the way AWS rewrites it: one statement as an
// object, the action as a list, other key order.
const trust = `{"Statement":{"Action":["sts:AssumeRole"],"Principal":{"Service":"ec2.amazonaws.com"},"Effect":"Allow"},"Version":"2012-10-17"}`

// attached returns the ARNs of the managed policies attached to role.
func (h *harness) attached(t testing.TB, role string) []string {
	t.Helper()
	out, err := h.iam.ListAttachedRolePolicies(context.Background(), &iam.ListAttachedRolePoliciesInput{RoleName: aws.String(role)})
	if err != nil {
		t.Fatal(err)
	}
	var arns []string
	for _, p := range out.AttachedPolicies {
		arns = append(arns, aws.ToString(p.PolicyArn))
	}
	slices.Sort(arns)
	return arns
}

// inline returns the names of role's inline policies.
func (h *harness) inline(t testing.TB, role string) []string {
	t.Helper()
	out, err := h.iam.ListRolePolicies(context.Background(), &iam.ListRolePoliciesInput{RoleName: aws.String(role)})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out.PolicyNames)
	return out.PolicyNames
}

// TestIAMRoleSeedExamples applies both seed roles verbatim: each becomes Ready with its trust
// policy, managed policies, inline policy and tags; an unchanged policy written another way
// never causes an update, and deleting a role empties and deletes it.
func TestIAMRoleSeedExamples(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	h.apply(t, "iamrole-ec2.yaml", "default")
	h.apply(t, "iamrole-lambda.yaml", "default")
	ec2Role := kubetest.WaitReady(t, h.c, &v1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "ec2-web-server-role"}})
	lambdaRole := kubetest.WaitReady(t, h.c, &v1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "lambda-execution-role"}})
	if s := ec2Role.Status; s.RoleName != "production-ec2-web-server" || !strings.HasSuffix(s.ARN, ":role/production-ec2-web-server") ||
		!strings.HasPrefix(s.RoleID, "AROA") || s.AttachedPolicies != 2 || s.CreateDate == nil {
		t.Errorf("status: %+v", s)
	}
	if got := h.attached(t, "production-lambda-execution"); len(got) != 2 || lambdaRole.Status.AttachedPolicies != 2 {
		t.Errorf("the Lambda role's managed policies: %v", got)
	}
	if got := h.inline(t, "production-ec2-web-server"); !slices.Equal(got, []string{"s3-access"}) {
		t.Errorf("inline policies: %v", got)
	}
	role, err := h.iam.GetRole(context.Background(), &iam.GetRoleInput{RoleName: aws.String("production-ec2-web-server")})
	if err != nil {
		t.Fatal(err)
	}
	tags := map[string]string{}
	for _, tg := range role.Role.Tags {
		tags[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
	}
	if tags["Environment"] != "production" || tags[shared.TagOwnerUID] != string(ec2Role.UID) {
		t.Errorf("tags: %v", tags)
	}

	// The same trust policy, written another way: no update.
	h.emu.Calls.Reset()
	h.patchSpec(t, ec2Role, `{"assumeRolePolicyDocument":`+jsonString(trust)+`}`)
	kubetest.WaitFor(t, h.c, ec2Role, kubetest.Timeout, "the new generation observed", func(r *v1alpha1.IAMRole) bool {
		return r.Status.ObservedGeneration == r.Generation
	})
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "IAM")["UpdateAssumeRolePolicy"]; n != 0 {
		t.Errorf("an equivalent trust policy was written %d times", n)
	}

	kubetest.Delete(t, h.c, lambdaRole)
	if _, err := h.iam.GetRole(context.Background(), &iam.GetRoleInput{RoleName: aws.String("production-lambda-execution")}); err == nil {
		t.Errorf("the role is still there after its object went")
	}
}

// jsonString returns s as a JSON string.
func jsonString(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// TestIAMRoleSets changes the policies and reverts what was changed outside the operator: a
// managed policy attached and an inline policy added in IAM are removed (with DriftDetected),
// a changed inline policy and trust policy are restored; the instance profile is made on
// request and removed when no longer asked for.
func TestIAMRoleSets(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	name := ns + "-app"
	r := &v1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "app"}}
	r.Spec.ProviderRef.Name = "aws"
	r.Spec.RoleName, r.Spec.AssumeRolePolicyDocument = name, trust
	r.Spec.ManagedPolicyARNs = []string{"arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore"}
	r.Spec.InlinePolicies = []v1alpha1.InlinePolicy{{PolicyName: "logs", PolicyDocument: `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"logs:*","Resource":"*"}]}`}}
	r.Spec.InstanceProfile = true
	kubetest.Create(t, h.c, r)
	r = kubetest.WaitReady(t, h.c, r)
	if !strings.HasSuffix(r.Status.InstanceProfileARN, ":instance-profile/"+name) {
		t.Errorf("instance profile: %q", r.Status.InstanceProfileARN)
	}

	// Drift: a policy attached, an inline policy added and one changed, the trust policy changed.
	for _, call := range []func() error{
		func() error {
			_, err := h.iam.AttachRolePolicy(ctx, &iam.AttachRolePolicyInput{RoleName: aws.String(name), PolicyArn: aws.String("arn:aws:iam::aws:policy/AdministratorAccess")})
			return err
		},
		func() error {
			_, err := h.iam.PutRolePolicy(ctx, &iam.PutRolePolicyInput{RoleName: aws.String(name), PolicyName: aws.String("extra"),
				PolicyDocument: aws.String(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}`)})
			return err
		},
		func() error {
			_, err := h.iam.PutRolePolicy(ctx, &iam.PutRolePolicyInput{RoleName: aws.String(name), PolicyName: aws.String("logs"),
				PolicyDocument: aws.String(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"logs:PutLogEvents","Resource":"*"}]}`)})
			return err
		},
		func() error {
			_, err := h.iam.UpdateAssumeRolePolicy(ctx, &iam.UpdateAssumeRolePolicyInput{RoleName: aws.String(name),
				PolicyDocument: aws.String(strings.Replace(trust, "ec2.amazonaws.com", "lambda.amazonaws.com", 1))})
			return err
		},
	} {
		if err := call(); err != nil {
			t.Fatal(err)
		}
	}
	kubetest.ResyncUntil(t, h.c, r, "the drift reverted", func() bool {
		role, err := h.iam.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String(name)})
		if err != nil {
			return false
		}
		doc, _ := url.QueryUnescape(aws.ToString(role.Role.AssumeRolePolicyDocument))
		logs, err := h.iam.GetRolePolicy(ctx, &iam.GetRolePolicyInput{RoleName: aws.String(name), PolicyName: aws.String("logs")})
		if err != nil {
			return false
		}
		logsDoc, _ := url.QueryUnescape(aws.ToString(logs.PolicyDocument))
		return slices.Equal(h.attached(t, name), []string{"arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore"}) &&
			slices.Equal(h.inline(t, name), []string{"logs"}) && strings.Contains(doc, "ec2.amazonaws.com") && strings.Contains(logsDoc, "logs:*")
	})
	kubetest.WaitEvent(t, h.c, r, condition.ReasonDriftDetected, "managedPolicyARNs")

	// No instance profile any more: removed. Then deleted with the role.
	h.patchSpec(t, r, `{"instanceProfile":false,"managedPolicyARNs":null}`)
	kubetest.WaitFor(t, h.c, r, kubetest.Timeout, "no instance profile", func(x *v1alpha1.IAMRole) bool {
		return x.Status.InstanceProfileARN == "" && x.Status.AttachedPolicies == 0
	})
	kubetest.Delete(t, h.c, r)
}

// TestIAMRoleBadInputAndOwnership refuses at admission what the schema can tell is wrong and a
// trust policy that is not JSON before any AWS call; a role of the name made outside the
// operator is refused with the way to adopt it; a lost CreateRole answer is claimed by the tags.
func TestIAMRoleBadInputAndOwnership(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	newRole := func(name string, mutate func(*v1alpha1.IAMRole)) *v1alpha1.IAMRole {
		r := &v1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		r.Spec.ProviderRef.Name = "aws"
		r.Spec.RoleName, r.Spec.AssumeRolePolicyDocument = ns+"-"+name, trust
		if mutate != nil {
			mutate(r)
		}
		return r
	}
	for _, tc := range []struct {
		mutate func(*v1alpha1.IAMRole)
		text   string
	}{
		{func(r *v1alpha1.IAMRole) { r.Spec.RoleName = "has spaces" }, "spec.roleName"},
		{func(r *v1alpha1.IAMRole) { r.Spec.MaxSessionDuration = 60 }, "spec.maxSessionDuration"},
		{func(r *v1alpha1.IAMRole) { r.Spec.ManagedPolicyARNs = []string{"AdministratorAccess"} }, "spec.managedPolicyARNs"},
		{func(r *v1alpha1.IAMRole) { r.Spec.Path = "no-slashes" }, "spec.path"},
	} {
		kubetest.MustRefuse(t, h.c, newRole("bad", tc.mutate), tc.text)
	}
	notJSON := newRole("not-json", func(r *v1alpha1.IAMRole) { r.Spec.AssumeRolePolicyDocument = "allow ec2" })
	kubetest.Create(t, h.c, notJSON)
	kubetest.WaitCondition(t, h.c, notJSON, "Synced", "False", condition.ReasonInvalidSpec)
	if n := kubetest.Total(kubetest.Calls(h.emu.Calls.Snapshot(), "IAM")); n != 0 {
		t.Errorf("%d IAM calls for a spec refused before any", n)
	}

	if _, err := h.iam.CreateRole(ctx, &iam.CreateRoleInput{RoleName: aws.String(ns + "-taken"), AssumeRolePolicyDocument: aws.String(trust)}); err != nil {
		t.Fatal(err)
	}
	taken := newRole("taken", nil)
	kubetest.Create(t, h.c, taken)
	got := kubetest.WaitCondition(t, h.c, taken, "Synced", "False", condition.ReasonAlreadyExists)
	if msg := kubetest.ConditionTexts(got.Status.Conditions); !strings.Contains(strings.Join(msg, " "), shared.AnnotationExternalName) {
		t.Errorf("AlreadyExists does not say how to adopt: %v", msg)
	}

	h.emu.Faults.Set("IAM.CreateRole", emulator.Fault{ErrorAfterRate: 1})
	lost := newRole("lost", nil)
	kubetest.Create(t, h.c, lost)
	lost = kubetest.WaitReady(t, h.c, lost)
	h.emu.Faults.Set("IAM.CreateRole", emulator.Fault{})
	if lost.Annotations[shared.AnnotationExternalName] != lost.Spec.RoleName {
		t.Errorf("the role whose create answer was lost is recorded as %q", lost.Annotations[shared.AnnotationExternalName])
	}
}
