package security_test

import (
	"context"
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

// exampleIssuer is the issuer URL of examples/security/iamoidcprovider.yaml.
const exampleIssuer = "https://oidc.eks.us-east-1.amazonaws.com/id/EXAMPLED539D4633E53DE1B71EXAMPLE"

// oidcProvider returns what IAM says of the provider arn: its client IDs and thumbprints,
// sorted, and its tags.
func (h *harness) oidcProvider(t testing.TB, arn string) (clientIDs, thumbprints []string, tags map[string]string) {
	t.Helper()
	out, err := h.iam.GetOpenIDConnectProvider(context.Background(), &iam.GetOpenIDConnectProviderInput{OpenIDConnectProviderArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	tags = map[string]string{}
	for _, tg := range out.Tags {
		tags[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
	}
	clientIDs, thumbprints = slices.Sorted(slices.Values(out.ClientIDList)), slices.Sorted(slices.Values(out.ThumbprintList))
	return clientIDs, thumbprints, tags
}

// TestIAMOIDCProvider applies the example verbatim: it becomes Ready with the ARN IAM names the
// URL by and its ownership tags; a client ID added and one removed are one call each; the
// thumbprints are one UpdateOpenIDConnectProviderThumbprint; a steady state makes no change;
// deletion deletes the provider.
func TestIAMOIDCProvider(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	ctx := context.Background()
	h.apply(t, "iamoidcprovider.yaml", "default")
	p := kubetest.WaitReady(t, h.c, &v1alpha1.IAMOIDCProvider{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "production-cluster-oidc"}})
	arn := p.Status.ARN
	if !strings.HasPrefix(arn, "arn:aws:iam::") || !strings.HasSuffix(arn, ":oidc-provider/"+strings.TrimPrefix(exampleIssuer, "https://")) ||
		p.Status.URL != strings.TrimPrefix(exampleIssuer, "https://") {
		t.Errorf("status: %+v", p.Status)
	}
	if p.Annotations[shared.AnnotationExternalName] != arn {
		t.Errorf("recorded %q, want the ARN %s", p.Annotations[shared.AnnotationExternalName], arn)
	}
	ids, thumbs, tags := h.oidcProvider(t, arn)
	if !slices.Equal(ids, []string{"sts.amazonaws.com"}) || len(thumbs) != 0 || tags["Environment"] != "production" || tags[shared.TagOwnerUID] != string(p.UID) {
		t.Errorf("provider: client IDs %v, thumbprints %v, tags %v", ids, thumbs, tags)
	}

	// Client IDs: one added, one removed, one call each.
	h.emu.Calls.Reset()
	h.patchSpec(t, p, `{"clientIDs":["my-app"]}`)
	kubetest.WaitFor(t, h.c, p, kubetest.Timeout, "the client IDs applied", func(x *v1alpha1.IAMOIDCProvider) bool {
		return x.Status.ObservedGeneration == x.Generation && x.Status.Ready
	})
	if ids, _, _ := h.oidcProvider(t, arn); !slices.Equal(ids, []string{"my-app"}) {
		t.Errorf("client IDs %v, want [my-app]", ids)
	}
	calls := kubetest.Calls(h.emu.Calls.Snapshot(), "IAM")
	if calls["AddClientIDToOpenIDConnectProvider"] != 1 || calls["RemoveClientIDFromOpenIDConnectProvider"] != 1 || calls["UpdateOpenIDConnectProviderThumbprint"] != 0 {
		t.Errorf("IAM calls for the client IDs: %v", calls)
	}

	// Thumbprints: one call.
	thumb := strings.Repeat("9E", 20)
	h.emu.Calls.Reset()
	h.patchSpec(t, p, `{"thumbprints":["`+thumb+`"]}`)
	kubetest.WaitFor(t, h.c, p, kubetest.Timeout, "the thumbprints applied", func(x *v1alpha1.IAMOIDCProvider) bool {
		return x.Status.ObservedGeneration == x.Generation && x.Status.Ready
	})
	if _, thumbs, _ := h.oidcProvider(t, arn); !slices.Equal(thumbs, []string{thumb}) {
		t.Errorf("thumbprints %v, want [%s]", thumbs, thumb)
	}
	calls = kubetest.Calls(h.emu.Calls.Snapshot(), "IAM")
	if calls["UpdateOpenIDConnectProviderThumbprint"] != 1 || calls["AddClientIDToOpenIDConnectProvider"]+calls["RemoveClientIDFromOpenIDConnectProvider"] != 0 {
		t.Errorf("IAM calls for the thumbprints: %v", calls)
	}

	// The same thumbprint in lower case is no change.
	h.emu.Calls.Reset()
	h.patchSpec(t, p, `{"thumbprints":["`+strings.ToLower(thumb)+`"]}`)
	kubetest.WaitFor(t, h.c, p, kubetest.Timeout, "the new generation observed", func(x *v1alpha1.IAMOIDCProvider) bool {
		return x.Status.ObservedGeneration == x.Generation
	})
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "IAM")["UpdateOpenIDConnectProviderThumbprint"]; n != 0 {
		t.Errorf("the same thumbprints in lower case made %d updates", n)
	}

	// The URL cannot change: refused at admission with the way out.
	err := h.c.Patch(ctx, p, client.RawPatch(k8stypes.MergePatchType, []byte(`{"spec":{"url":"https://issuer.example.com"}}`)))
	if err == nil || !strings.Contains(err.Error(), "url cannot change") {
		t.Errorf("a changed URL: %v, want a refusal", err)
	}

	if err := h.c.Delete(ctx, p); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitGone(t, h.c, p)
	if _, err := h.iam.GetOpenIDConnectProvider(ctx, &iam.GetOpenIDConnectProviderInput{OpenIDConnectProviderArn: aws.String(arn)}); err == nil {
		t.Errorf("the provider is still there after its object went")
	}
}

// TestIAMOIDCProviderBadInputAndOwnership refuses at admission what the schema can tell is
// wrong, and a URL whose provider another object owns, or that was made outside the operator,
// with the way to adopt it; it makes no provider then.
func TestIAMOIDCProviderBadInputAndOwnership(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	newProvider := func(name, url string, mutate func(*v1alpha1.IAMOIDCProvider)) *v1alpha1.IAMOIDCProvider {
		p := &v1alpha1.IAMOIDCProvider{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		p.Spec.ProviderRef.Name = "aws"
		p.Spec.URL = url
		if mutate != nil {
			mutate(p)
		}
		return p
	}
	for _, tc := range []struct {
		mutate func(*v1alpha1.IAMOIDCProvider)
		text   string
	}{
		{func(p *v1alpha1.IAMOIDCProvider) { p.Spec.URL = "http://issuer.example.com" }, "url must begin with https://"},
		{func(p *v1alpha1.IAMOIDCProvider) { p.Spec.URL = "" }, "set exactly one of url and clusterRef"},
		{func(p *v1alpha1.IAMOIDCProvider) { p.Spec.ClusterRef = &shared.Reference{Name: "cluster"} }, "set exactly one of url and clusterRef"},
		{func(p *v1alpha1.IAMOIDCProvider) { p.Spec.URL = "https://" + strings.Repeat("a", 250) }, "spec.url"},
		{func(p *v1alpha1.IAMOIDCProvider) { p.Spec.Thumbprints = []string{"not-hex"} }, "spec.thumbprints"},
		{func(p *v1alpha1.IAMOIDCProvider) {
			p.Spec.Thumbprints = []string{strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40), strings.Repeat("d", 40),
				strings.Repeat("e", 40), strings.Repeat("f", 40)}
		}, "spec.thumbprints"},
	} {
		kubetest.MustRefuse(t, h.c, newProvider("bad", "https://issuer.example.com/"+ns, tc.mutate), tc.text)
	}

	// Another object's provider: the second object is refused, naming the owner.
	url := "https://issuer.example.com/" + ns
	first := newProvider("first", url, nil)
	kubetest.Create(t, h.c, first)
	first = kubetest.WaitReady(t, h.c, first)
	if first.Spec.ClientIDs == nil || first.Spec.ClientIDs[0] != "sts.amazonaws.com" {
		t.Errorf("clientIDs defaulted to %v, want [sts.amazonaws.com]", first.Spec.ClientIDs)
	}
	h.emu.Calls.Reset()
	second := newProvider("second", url, nil)
	kubetest.Create(t, h.c, second)
	got := kubetest.WaitCondition(t, h.c, second, "Synced", "False", condition.ReasonAlreadyExists)
	if msg := strings.Join(kubetest.ConditionTexts(got.Status.Conditions), " "); !strings.Contains(msg, ns+"/first") || !strings.Contains(msg, shared.AnnotationExternalName) {
		t.Errorf("AlreadyExists does not name the owner and how to adopt: %s", msg)
	}
	calls := kubetest.Calls(h.emu.Calls.Snapshot(), "IAM")
	if calls["CreateOpenIDConnectProvider"]+calls["AddClientIDToOpenIDConnectProvider"]+calls["TagOpenIDConnectProvider"]+calls["DeleteOpenIDConnectProvider"] != 0 {
		t.Errorf("IAM calls for a provider another object owns: %v", calls)
	}

	// A provider made outside the operator: refused the same way.
	if _, err := h.iam.CreateOpenIDConnectProvider(ctx, &iam.CreateOpenIDConnectProviderInput{Url: aws.String(url + "/outside")}); err != nil {
		t.Fatal(err)
	}
	outside := newProvider("outside", url+"/outside", nil)
	kubetest.Create(t, h.c, outside)
	kubetest.WaitCondition(t, h.c, outside, "Synced", "False", condition.ReasonAlreadyExists)

	// Deleting the refused object leaves the owner's provider.
	if err := h.c.Delete(ctx, second); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitGone(t, h.c, second)
	if _, err := h.iam.GetOpenIDConnectProvider(ctx, &iam.GetOpenIDConnectProviderInput{OpenIDConnectProviderArn: aws.String(first.Status.ARN)}); err != nil {
		t.Errorf("deleting the refused object deleted the owner's provider: %v", err)
	}
}
