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
	k8stypes "k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// readDoc returns a policy document allowing action on the example's bucket, written compactly.
func readDoc(action string) string {
	return `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"` + action + `","Resource":"arn:aws:s3:::production-app-data/*"}]}`
}

// policyVersions returns the ids of the versions of the policy arn, sorted, and its default.
func (h *harness) policyVersions(t testing.TB, arn string) ([]string, string) {
	t.Helper()
	out, err := h.iam.ListPolicyVersions(context.Background(), &iam.ListPolicyVersionsInput{PolicyArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	def := ""
	for _, v := range out.Versions {
		ids = append(ids, aws.ToString(v.VersionId))
		if v.IsDefaultVersion {
			def = aws.ToString(v.VersionId)
		}
	}
	slices.Sort(ids)
	return ids, def
}

// defaultDocument returns the decoded document of the policy's default version.
func (h *harness) defaultDocument(t testing.TB, arn string) string {
	t.Helper()
	ctx := context.Background()
	p, err := h.iam.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	v, err := h.iam.GetPolicyVersion(ctx, &iam.GetPolicyVersionInput{PolicyArn: aws.String(arn), VersionId: p.Policy.DefaultVersionId})
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := url.QueryUnescape(aws.ToString(v.PolicyVersion.Document))
	return doc
}

// TestIAMPolicy applies the example verbatim: it becomes Ready with its ownership tags; a
// document written another way makes no version; each changed document is a new default
// version, and the sixth deletes the oldest; a default version changed outside the operator is
// put back; the description cannot change; an attached policy's deletion waits with
// DeleteConflict until it is detached.
func TestIAMPolicy(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	ctx := context.Background()
	h.apply(t, "iampolicy.yaml", "default")
	p := kubetest.WaitReady(t, h.c, &v1alpha1.IAMPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "app-bucket-read"}})
	arn := p.Status.ARN
	if s := p.Status; !strings.HasSuffix(arn, ":policy/production-app-bucket-read") || !strings.HasPrefix(s.PolicyID, "ANPA") ||
		s.DefaultVersionID != "v1" || s.AttachmentCount != 0 {
		t.Errorf("status: %+v", s)
	}
	if p.Annotations[shared.AnnotationExternalName] != arn {
		t.Errorf("recorded %q, want the ARN %s", p.Annotations[shared.AnnotationExternalName], arn)
	}
	tags, err := h.iam.ListPolicyTags(ctx, &iam.ListPolicyTagsInput{PolicyArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tg := range tags.Tags {
		got[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
	}
	if got["Environment"] != "production" || got[shared.TagOwnerUID] != string(p.UID) {
		t.Errorf("tags: %v", got)
	}

	// The same document written another way: no new version.
	h.emu.Calls.Reset()
	h.patchSpec(t, p, `{"policyDocument":`+jsonString(`{"Statement":[{"Resource":["arn:aws:s3:::production-app-data/*","arn:aws:s3:::production-app-data"],`+
		`"Action":["s3:ListBucket","s3:GetObject"],"Effect":"Allow"}],"Version":"2012-10-17"}`)+`}`)
	kubetest.WaitFor(t, h.c, p, kubetest.Timeout, "the new generation observed", func(x *v1alpha1.IAMPolicy) bool {
		return x.Status.ObservedGeneration == x.Generation
	})
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "IAM")["CreatePolicyVersion"]; n != 0 {
		t.Errorf("an equivalent document made %d versions", n)
	}

	// Five changes: v2 to v6; the sixth version deletes the oldest, v1.
	for i, action := range []string{"s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:GetObjectTagging", "s3:PutObjectTagging"} {
		h.patchSpec(t, p, `{"policyDocument":`+jsonString(readDoc(action))+`}`)
		want := "v" + string(rune('2'+i))
		kubetest.WaitFor(t, h.c, p, kubetest.Timeout, "default version "+want, func(x *v1alpha1.IAMPolicy) bool {
			return x.Status.DefaultVersionID == want && x.Status.ObservedGeneration == x.Generation
		})
	}
	if ids, def := h.policyVersions(t, arn); !slices.Equal(ids, []string{"v2", "v3", "v4", "v5", "v6"}) || def != "v6" {
		t.Errorf("versions %v, default %s; want v2 to v6, v6 the default", ids, def)
	}
	if doc := h.defaultDocument(t, arn); !strings.Contains(doc, "s3:PutObjectTagging") {
		t.Errorf("the default version says %s", doc)
	}

	// Drift: the default version set back outside the operator; a new version puts the spec's
	// document back.
	if _, err := h.iam.SetDefaultPolicyVersion(ctx, &iam.SetDefaultPolicyVersionInput{PolicyArn: aws.String(arn), VersionId: aws.String("v3")}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, p, "the document put back", func() bool {
		return strings.Contains(h.defaultDocument(t, arn), "s3:PutObjectTagging")
	})
	kubetest.WaitEvent(t, h.c, p, condition.ReasonDriftDetected, "policyDocument")
	if ids, def := h.policyVersions(t, arn); len(ids) != 5 || def != "v7" || slices.Contains(ids, "v2") {
		t.Errorf("versions %v, default %s; want five, v7 the default, v2 deleted", ids, def)
	}

	// The description cannot change: refused at admission with the way out.
	err = h.c.Patch(ctx, p, client.RawPatch(k8stypes.MergePatchType, []byte(`{"spec":{"description":"another"}}`)))
	if err == nil || !strings.Contains(err.Error(), "description cannot change") {
		t.Errorf("a changed description: %v, want a refusal", err)
	}

	// Attached to a role outside the operator: the deletion waits, then completes once detached.
	if _, err := h.iam.CreateRole(ctx, &iam.CreateRoleInput{RoleName: aws.String("policy-holder"), AssumeRolePolicyDocument: aws.String(trust)}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.iam.AttachRolePolicy(ctx, &iam.AttachRolePolicyInput{RoleName: aws.String("policy-holder"), PolicyArn: aws.String(arn)}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, p, "the attachment counted", func() bool {
		x := &v1alpha1.IAMPolicy{}
		return h.c.Get(ctx, client.ObjectKeyFromObject(p), x) == nil && x.Status.AttachmentCount == 1
	})
	if err := h.c.Delete(ctx, p); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitCondition(t, h.c, p, condition.TypeReady, "False", condition.ReasonDeleteConflict)
	if _, err := h.iam.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: aws.String(arn)}); err != nil {
		t.Errorf("the attached policy was deleted: %v", err)
	}
	if _, err := h.iam.DetachRolePolicy(ctx, &iam.DetachRolePolicyInput{RoleName: aws.String("policy-holder"), PolicyArn: aws.String(arn)}); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitGone(t, h.c, p)
	if _, err := h.iam.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: aws.String(arn)}); err == nil {
		t.Errorf("the policy is still there after its object went")
	}
}

// TestIAMPolicyBadInputAndOwnership refuses at admission what the schema can tell is wrong, a
// document that is not JSON and one the guardrails refuse before any AWS call, and a policy of
// the name made outside the operator with the way to adopt it.
func TestIAMPolicyBadInputAndOwnership(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	newPolicy := func(name string, mutate func(*v1alpha1.IAMPolicy)) *v1alpha1.IAMPolicy {
		p := &v1alpha1.IAMPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		p.Spec.ProviderRef.Name = "aws"
		p.Spec.PolicyName, p.Spec.PolicyDocument = ns+"-"+name, readDoc("s3:GetObject")
		if mutate != nil {
			mutate(p)
		}
		return p
	}
	for _, tc := range []struct {
		mutate func(*v1alpha1.IAMPolicy)
		text   string
	}{
		{func(p *v1alpha1.IAMPolicy) { p.Spec.PolicyName = "has spaces" }, "spec.policyName"},
		{func(p *v1alpha1.IAMPolicy) { p.Spec.Path = "no-slashes" }, "spec.path"},
		{func(p *v1alpha1.IAMPolicy) { p.Spec.PolicyDocument = "" }, "spec.policyDocument"},
	} {
		kubetest.MustRefuse(t, h.c, newPolicy("bad", tc.mutate), tc.text)
	}
	notJSON := newPolicy("not-json", func(p *v1alpha1.IAMPolicy) { p.Spec.PolicyDocument = "allow s3" })
	kubetest.Create(t, h.c, notJSON)
	kubetest.WaitCondition(t, h.c, notJSON, "Synced", "False", condition.ReasonInvalidSpec)
	admin := newPolicy("admin", func(p *v1alpha1.IAMPolicy) {
		p.Spec.PolicyDocument = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`
	})
	kubetest.Create(t, h.c, admin)
	got := kubetest.WaitCondition(t, h.c, admin, "Synced", "False", condition.ReasonPolicyDocumentDenied)
	if msg := strings.Join(kubetest.ConditionTexts(got.Status.Conditions), " "); !strings.Contains(msg, `allows "*"`) {
		t.Errorf("the refusal does not say why: %s", msg)
	}
	if n := kubetest.Total(kubetest.Calls(h.emu.Calls.Snapshot(), "IAM")); n != 0 {
		t.Errorf("%d IAM calls for specs refused before any", n)
	}

	if _, err := h.iam.CreatePolicy(ctx, &iam.CreatePolicyInput{PolicyName: aws.String(ns + "-taken"), PolicyDocument: aws.String(readDoc("s3:GetObject"))}); err != nil {
		t.Fatal(err)
	}
	taken := newPolicy("taken", nil)
	kubetest.Create(t, h.c, taken)
	got = kubetest.WaitCondition(t, h.c, taken, "Synced", "False", condition.ReasonAlreadyExists)
	if msg := kubetest.ConditionTexts(got.Status.Conditions); !strings.Contains(strings.Join(msg, " "), shared.AnnotationExternalName) {
		t.Errorf("AlreadyExists does not say how to adopt: %v", msg)
	}
}
