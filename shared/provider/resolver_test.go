package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
)

func testProvider(mutate ...func(*v1alpha1.AWSProvider)) *v1alpha1.AWSProvider {
	p := &v1alpha1.AWSProvider{
		ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "aws", UID: "p1", Generation: 1},
		Spec: v1alpha1.AWSProviderSpec{Region: "eu-west-1",
			AccessKeyIDRef:     &v1alpha1.SecretKeySelector{Name: "creds", Key: "id"},
			SecretAccessKeyRef: &v1alpha1.SecretKeySelector{Name: "creds", Key: "secret"}},
	}
	for _, m := range mutate {
		m(p)
	}
	return p
}

func testSecret(id, secret string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "creds"},
		Data: map[string][]byte{"id": []byte(id), "secret": []byte(secret)}}
}

// resolverArgs are the cluster objects, the resource's namespace and its providerRef namespace.
type resolverArgs struct {
	objs  []client.Object
	ns    string
	refNS string
}

func TestResolverForResource(t *testing.T) {
	cases := map[string]struct {
		reason string
		args   resolverArgs
		want   string
	}{
		"SameNamespace": {
			reason: "A provider in the resource's namespace is used.",
			args:   resolverArgs{objs: []client.Object{testProvider(), testSecret("AKID", "s")}, ns: "infra"},
			want:   "",
		},
		"OtherNamespaceRefused": {
			reason: "A tenant cannot borrow another namespace's provider.",
			args:   resolverArgs{objs: []client.Object{testProvider(), testSecret("AKID", "s")}, ns: "tenant", refNS: "infra"},
			want:   condition.ReasonProviderNotAllowed,
		},
		"OtherNamespaceAllowed": {
			reason: "A provider that lists the namespace may be used from it.",
			args:   resolverArgs{objs: []client.Object{testProvider(func(p *v1alpha1.AWSProvider) { p.Spec.AllowedNamespaces = []string{"tenant"} }), testSecret("AKID", "s")}, ns: "tenant", refNS: "infra"},
			want:   "",
		},
		"ProviderMissing": {
			reason: "A missing provider is named.",
			args:   resolverArgs{ns: "infra"},
			want:   condition.ReasonProviderNotFound,
		},
		"SecretMissing": {
			reason: "A missing Secret is named.",
			args:   resolverArgs{objs: []client.Object{testProvider()}, ns: "infra"},
			want:   condition.ReasonSecretNotFound,
		},
		"KeyMissing": {
			reason: "A Secret without the key is named with the key.",
			args:   resolverArgs{objs: []client.Object{testProvider(func(p *v1alpha1.AWSProvider) { p.Spec.AccessKeyIDRef.Key = "nope" }), testSecret("AKID", "s")}, ns: "infra"},
			want:   condition.ReasonSecretKeyNotFound,
		},
		"MalformedValue": {
			reason: "A value with whitespace (a pasted newline) is refused without echoing it.",
			args:   resolverArgs{objs: []client.Object{testProvider(), testSecret("AKID\n", "s")}, ns: "infra"},
			want:   condition.ReasonSecretValueInvalid,
		},
		"UnknownRegion": {
			reason: "A region outside every AWS partition is refused.",
			args:   resolverArgs{objs: []client.Object{testProvider(func(p *v1alpha1.AWSProvider) { p.Spec.Region = "xx-nowhere-1" }), testSecret("AKID", "s")}, ns: "infra"},
			want:   condition.ReasonInvalidRegion,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := fakeClient(t, tc.args.objs...)
			r := &Resolver{Client: c, APIReader: c}
			w := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: tc.args.ns, Name: "w"}}
			w.Spec.ProviderRef = v1alpha1.ProviderReference{Name: "aws", Namespace: tc.args.refNS}
			_, _, err := r.ForResource(context.Background(), w)
			got := ""
			if err != nil {
				pe, ok := AsError(err)
				if !ok {
					t.Fatalf("unexpected error %v", err)
				}
				got = pe.Reason
				if containsAny(pe.Error(), "AKID", "\n") {
					t.Errorf("error text leaks the Secret value: %q", pe.Error())
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestResolverCachesSessions(t *testing.T) {
	ctx := context.Background()
	p, s := testProvider(), testSecret("AKID", "s")
	c := fakeClient(t, p, s)
	r := &Resolver{Client: c, APIReader: c}
	first, err := r.ForProvider(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	again, err := r.ForProvider(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if first != again {
		t.Error("an unchanged provider got a new session")
	}
	s.Data["secret"] = []byte("rotated")
	if err := c.Update(ctx, s); err != nil {
		t.Fatal(err)
	}
	rotated, err := r.ForProvider(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if rotated == first {
		t.Error("a rotated Secret did not rebuild the session")
	}
	creds, err := rotated.Config.Credentials.Retrieve(ctx)
	if err != nil || creds.SecretAccessKey != "rotated" {
		t.Errorf("the rebuilt session does not use the rotated key (err %v)", err)
	}
}

func TestKnownRegion(t *testing.T) {
	for region, want := range map[string]bool{
		"us-east-1": true, "eu-central-2": true, "ap-southeast-7": true, "cn-north-1": true,
		"us-gov-west-1": true, "il-central-1": true, "xx-nowhere-1": false, "useast1": false, "": false,
	} {
		if got := KnownRegion(region); got != want {
			t.Errorf("KnownRegion(%q) = %v, want %v", region, got, want)
		}
	}
}

func fakeClient(t *testing.T, objs ...client.Object) client.Client {
	t.Helper()
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, v1alpha1.AddToScheme, testkind.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	return fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).Build()
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
