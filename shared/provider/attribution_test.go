package provider

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/ststest"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
)

// TestRoleSessionAttribution checks that every role session opened for an object carries the
// object's namespace to STS: in the role session name (so GetCallerIdentity and CloudTrail name
// it) and, for AssumeRole, in the session tags, with the provider's externalID.
func TestRoleSessionAttribution(t *testing.T) {
	const role = "arn:aws:iam::210987654321:role/deployer"
	srv := &ststest.Server{Accounts: map[string]string{"AKID": "123456789012"}}
	endpoint := httptest.NewServer(srv)
	defer endpoint.Close()
	withRole := func(p *v1alpha1.AWSProvider) {
		p.Spec.RoleARN = role
		p.Spec.Endpoint = endpoint.URL
	}
	cluster := &v1alpha1.ClusterAWSProvider{ObjectMeta: metav1.ObjectMeta{Name: "shared", UID: "c1", Generation: 1}}
	cluster.Spec.AWSProviderSpec = testProvider(withRole).Spec
	cluster.Spec.SecretNamespace = "infra"
	cluster.Spec.AllowedNamespaces = []string{"*"}
	longNS := strings.Repeat("n", 63)

	type args struct {
		provider client.Object
		ref      v1alpha1.ProviderReference
		// namespaces are the namespaces of the objects that use the provider, in order.
		namespaces []string
		noTags     bool
	}
	type want struct {
		sessions []ststest.Session
		// callers are the identities GetCallerIdentity reports, one per namespace.
		callers []string
	}
	cases := map[string]struct {
		reason string
		args   args
		want   want
	}{
		"AWSProvider": {
			reason: "A namespace's session names the namespace, is tagged with it and the provider, and passes the external ID.",
			args: args{
				provider:   testProvider(withRole, func(p *v1alpha1.AWSProvider) { p.Spec.ExternalID = "team-infra-7" }),
				ref:        v1alpha1.ProviderReference{Name: "aws"},
				namespaces: []string{"infra"},
			},
			want: want{
				sessions: []ststest.Session{{Action: "AssumeRole", RoleARN: role, Name: "infra-operator-test@infra", ExternalID: "team-infra-7",
					Tags: map[string]string{TagNamespace: "infra", TagProvider: "infra/aws"}}},
				callers: []string{"arn:aws:sts::210987654321:assumed-role/deployer/infra-operator-test@infra"},
			},
		},
		"AllowedNamespace": {
			reason: "An AWSProvider used from another namespace it allows opens a session of that namespace.",
			args: args{
				provider: testProvider(withRole, func(p *v1alpha1.AWSProvider) {
					p.Spec.AllowedNamespaces = []string{"team-b"}
				}),
				ref:        v1alpha1.ProviderReference{Name: "aws", Namespace: "infra"},
				namespaces: []string{"team-b"},
			},
			want: want{
				sessions: []ststest.Session{{Action: "AssumeRole", RoleARN: role, Name: "infra-operator-test@team-b",
					Tags: map[string]string{TagNamespace: "team-b", TagProvider: "infra/aws"}}},
				callers: []string{"arn:aws:sts::210987654321:assumed-role/deployer/infra-operator-test@team-b"},
			},
		},
		"ClusterAWSProviderPerNamespace": {
			reason: "The administrator's ClusterAWSProvider opens one session per namespace, each attributed to its namespace.",
			args: args{
				provider:   cluster,
				ref:        v1alpha1.ProviderReference{Kind: v1alpha1.KindClusterAWSProvider, Name: "shared"},
				namespaces: []string{"team-a", "team-b", "team-a"},
			},
			want: want{
				sessions: []ststest.Session{
					{Action: "AssumeRole", RoleARN: role, Name: "infra-operator-test@team-a",
						Tags: map[string]string{TagNamespace: "team-a", TagProvider: "ClusterAWSProvider/shared"}},
					{Action: "AssumeRole", RoleARN: role, Name: "infra-operator-test@team-b",
						Tags: map[string]string{TagNamespace: "team-b", TagProvider: "ClusterAWSProvider/shared"}},
				},
				callers: []string{
					"arn:aws:sts::210987654321:assumed-role/deployer/infra-operator-test@team-a",
					"arn:aws:sts::210987654321:assumed-role/deployer/infra-operator-test@team-b",
					"arn:aws:sts::210987654321:assumed-role/deployer/infra-operator-test@team-a",
				},
			},
		},
		"LongNamespace": {
			reason: "A long namespace is kept whole and the session name is cut to STS's 64 characters.",
			args: args{
				provider:   cluster,
				ref:        v1alpha1.ProviderReference{Kind: v1alpha1.KindClusterAWSProvider, Name: "shared"},
				namespaces: []string{longNS},
			},
			want: want{
				sessions: []ststest.Session{{Action: "AssumeRole", RoleARN: role, Name: "@" + longNS,
					Tags: map[string]string{TagNamespace: longNS, TagProvider: "ClusterAWSProvider/shared"}}},
				callers: []string{"arn:aws:sts::210987654321:assumed-role/deployer/@" + longNS},
			},
		},
		"NoSessionTags": {
			reason: "The administrator may turn session tags off for trust policies without sts:TagSession; the name still carries the namespace.",
			args: args{
				provider:   testProvider(withRole),
				ref:        v1alpha1.ProviderReference{Name: "aws"},
				namespaces: []string{"infra"},
				noTags:     true,
			},
			want: want{
				sessions: []ststest.Session{{Action: "AssumeRole", RoleARN: role, Name: "infra-operator-test@infra"}},
				callers:  []string{"arn:aws:sts::210987654321:assumed-role/deployer/infra-operator-test@infra"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			before := len(srv.Sessions())
			c := fakeClient(t, tc.args.provider.DeepCopyObject().(client.Object), testSecret("AKID", "s"))
			r := &Resolver{Client: c, APIReader: c, SessionName: "infra-operator-test", NoSessionTags: tc.args.noTags,
				LoadOptions: []func(*config.LoadOptions) error{config.WithRetryMaxAttempts(1)}}
			var callers []string
			for _, ns := range tc.args.namespaces {
				w := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "w"}}
				w.Spec.ProviderRef = tc.args.ref
				sess, _, err := r.ForResource(context.Background(), w)
				if err != nil {
					t.Fatal(err)
				}
				out, err := sts.NewFromConfig(sess.Config).GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
				if err != nil {
					t.Fatal(err)
				}
				callers = append(callers, aws.ToString(out.Arn))
			}
			got := want{sessions: srv.Sessions()[before:], callers: callers}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestWebIdentitySessionName checks that a web identity exchange, which takes no session
// tags, names the namespace in the role session name.
func TestWebIdentitySessionName(t *testing.T) {
	srv := &ststest.Server{}
	endpoint := httptest.NewServer(srv)
	defer endpoint.Close()
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte(ststest.WebIdentityToken), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_WEB_IDENTITY_TOKEN_FILE", token)
	t.Setenv("AWS_ROLE_ARN", "")
	p := testProvider(func(p *v1alpha1.AWSProvider) {
		p.Spec.AccessKeyIDRef, p.Spec.SecretAccessKeyRef = nil, nil
		p.Spec.RoleARN = "arn:aws:iam::111122223333:role/infra-operator"
		p.Spec.ExternalID = "not-sent"
	})
	c := fakeClient(t, p)
	r := &Resolver{Client: c, APIReader: c, SessionName: "infra-operator-test",
		Tenancy: &Tenancy{OperatorIdentityNamespaces: []string{"*"}, STSEndpoint: endpoint.URL}}
	w := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "w"}}
	w.Spec.ProviderRef = v1alpha1.ProviderReference{Name: "aws"}
	sess, _, err := r.ForResource(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Config.Credentials.Retrieve(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []ststest.Session{{Action: "AssumeRoleWithWebIdentity", RoleARN: "arn:aws:iam::111122223333:role/infra-operator",
		Name: "infra-operator-test@infra"}}
	if diff := cmp.Diff(want, srv.Sessions()); diff != "" {
		t.Errorf("the web identity session\n-want +got:\n%s", diff)
	}
}

func TestRoleSessionName(t *testing.T) {
	cases := map[string]struct {
		reason string
		base   string
		ns     string
		want   string
	}{
		"Namespace":      {reason: "The namespace follows the base after an @.", base: "infra-operator-data", ns: "team-a", want: "infra-operator-data@team-a"},
		"NoNamespace":    {reason: "A ClusterAWSProvider's own validation session has no namespace.", base: "infra-operator-data", want: "infra-operator-data"},
		"DefaultBase":    {reason: "An empty base is infra-operator.", ns: "team-a", want: "infra-operator@team-a"},
		"InvalidChars":   {reason: "Characters STS refuses become dashes.", base: "infra operator/data", ns: "a", want: "infra-operator-data@a"},
		"LongBase":       {reason: "A long base is cut so that the namespace stays whole.", base: strings.Repeat("b", 70), ns: "team-a", want: strings.Repeat("b", 57) + "@team-a"},
		"LongBaseNoNS":   {reason: "A long base alone is cut to 64 characters.", base: strings.Repeat("b", 70), want: strings.Repeat("b", 64)},
		"ShortBaseNoNS":  {reason: "A name is at least two characters long.", base: "x", want: "x-"},
		"LongestNSAlone": {reason: "A 63-character namespace leaves no room for the base.", base: "infra-operator", ns: strings.Repeat("n", 63), want: "@" + strings.Repeat("n", 63)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, RoleSessionName(tc.base, tc.ns)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
