package provider_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/ststest"
	"github.com/runner-codes/infra-operator/shared/provider"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// TestTenancy checks the cluster administrator's tenancy settings against a real API server:
// a namespaced AWSProvider that asks for the operator's identity, a role or an endpoint that
// the settings do not grant is refused with Ready=False and a reason naming the setting, and
// nothing is sent anywhere; the administrator's ClusterAWSProvider is not restricted.
func TestTenancy(t *testing.T) {
	sts := &ststest.Server{Accounts: map[string]string{goodKey: account}}
	env := testenv.Start(t, testenv.Options{AWS: sts})
	var tenantCalls atomic.Int32
	tenant := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		tenantCalls.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer tenant.Close()
	mgr := env.Manager(t)
	ctx, cancel := context.WithCancel(context.Background())
	c := &provider.Controller{
		Client: mgr.GetClient(),
		Resolver: &provider.Resolver{Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(),
			LoadOptions: []func(*config.LoadOptions) error{config.WithRetryMaxAttempts(1)},
			Tenancy: &provider.Tenancy{
				OperatorIdentityNamespaces: []string{"platform"},
				AssumeRoles:                []provider.RoleRule{{Namespace: "team-*", RoleARNPattern: "arn:aws:iam::123456789012:role/team-*"}},
				AllowEndpointOverride:      false,
			}},
		Instance:      "tenancy",
		RetryInterval: time.Second,
	}
	if err := c.SetupWithManager(ctx, mgr); err != nil {
		t.Fatal(err)
	}
	testenv.Run(t, mgr, ctx, cancel)

	cases := map[string]struct {
		reason string
		mutate func(*v1alpha1.AWSProvider)
		want   string
	}{
		"OperatorIdentity": {
			reason: "A namespace not in --operator-identity-namespaces may not use the operator's own identity.",
			mutate: func(p *v1alpha1.AWSProvider) {
				p.Spec.AccessKeyIDRef, p.Spec.SecretAccessKeyRef, p.Spec.Endpoint = nil, nil, ""
			},
			want: "False/" + condition.ReasonOperatorIdentityNotAllowed,
		},
		"Role": {
			reason: "A role that no --assume-role-policy rule of the namespace matches is refused.",
			mutate: func(p *v1alpha1.AWSProvider) {
				p.Spec.RoleARN = "arn:aws:iam::123456789012:role/admin"
				p.Spec.Endpoint = ""
			},
			want: "False/" + condition.ReasonRoleNotAllowed,
		},
		"Endpoint": {
			reason: "spec.endpoint is not honoured without --allow-endpoint-override; nothing is sent to it.",
			mutate: func(p *v1alpha1.AWSProvider) { p.Spec.Endpoint = tenant.URL },
			want:   "False/" + condition.ReasonEndpointNotAllowed,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ns := env.Namespace(t)
			env.Provider(t, ns, "aws", goodKey, goodSecret)
			updateProvider(t, env, ns, tc.mutate)
			testenv.Eventually(t, 20*time.Second, func() string {
				if got := readyReason(getProvider(t, env, ns, "aws")); got != tc.want {
					return tc.reason + " Ready is " + got
				}
				return ""
			})
		})
	}
	if n := tenantCalls.Load(); n != 0 {
		t.Errorf("the tenant's endpoint received %d requests; want none", n)
	}

	t.Run("ClusterAWSProvider", func(t *testing.T) {
		ns := env.Namespace(t)
		secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "admin-keys"},
			StringData: map[string]string{"id": goodKey, "secret": goodSecret}}
		if err := env.Client.Create(context.Background(), secret); err != nil {
			t.Fatal(err)
		}
		cp := &v1alpha1.ClusterAWSProvider{ObjectMeta: metav1.ObjectMeta{Name: "shared-" + ns}}
		cp.Spec.Region = "us-east-1"
		cp.Spec.Endpoint = env.AWSEndpoint
		cp.Spec.SecretNamespace = ns
		cp.Spec.AccessKeyIDRef = &v1alpha1.SecretKeySelector{Name: "admin-keys", Key: "id"}
		cp.Spec.SecretAccessKeyRef = &v1alpha1.SecretKeySelector{Name: "admin-keys", Key: "secret"}
		cp.Spec.AllowedNamespaces = []string{"*"}
		if err := env.Client.Create(context.Background(), cp); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 20*time.Second, func() string {
			got := &v1alpha1.ClusterAWSProvider{}
			if err := env.Client.Get(context.Background(), clientKey(cp.Name), got); err != nil {
				return err.Error()
			}
			for _, c := range got.Status.Conditions {
				if c.Type == condition.TypeReady && c.Status == metav1.ConditionTrue && got.Status.AccountID == account {
					return ""
				}
			}
			return "the administrator's ClusterAWSProvider is not validated: " + readyConditions(got.Status.Conditions)
		})
	})
}

func clientKey(name string) types.NamespacedName { return types.NamespacedName{Name: name} }

func readyConditions(conds []metav1.Condition) string {
	out := ""
	for _, c := range conds {
		out += c.Type + "=" + string(c.Status) + "/" + c.Reason + ": " + c.Message + "; "
	}
	return out
}
