package operator_test

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/runner-codes/infra-operator/shared/internal/ststest"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// TestSecureMetrics checks the default metrics endpoint: HTTPS, refused without a token (401),
// refused to a ServiceAccount that may not GET /metrics (403), and served to one that may.
func TestSecureMetrics(t *testing.T) {
	env := testenv.Start(t, testenv.Options{AWS: &ststest.Server{Accounts: map[string]string{"AKIDTEST": "123456789012"}}})
	opts := operator.DefaultOptions()
	if !opts.MetricsSecure {
		t.Fatal("metrics are not secure by default")
	}
	opts.MetricsAddress = testenv.FreeAddress(t)
	opts.ProbeAddress = "0"
	opts.SharedProcess = true
	ctx, cancel := context.WithCancel(context.Background())
	mgr, err := operator.NewManager(ctx, env.Config, []operator.Family{{Name: "edge"}}, "edge@test", opts)
	if err != nil {
		t.Fatal(err)
	}
	testenv.Run(t, mgr, ctx, cancel)

	kube, err := kubernetes.NewForConfig(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	ns := env.Namespace(t)
	// The provider's validation sets the operator's own infra_operator_provider_ready, which
	// the allowed scraper must then read.
	env.Provider(t, ns, "aws", "AKIDTEST", "secret")
	allowed := serviceAccountToken(t, kube, ns, "scraper")
	denied := serviceAccountToken(t, kube, ns, "tenant")
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "metrics-reader-" + ns},
		Rules: []rbacv1.PolicyRule{{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}}}}
	if _, err := kube.RbacV1().ClusterRoles().Create(context.Background(), role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: role.Name},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name},
		Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: ns, Name: "scraper"}}}
	if _, err := kube.RbacV1().ClusterRoleBindings().Create(context.Background(), binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	url := "https://" + opts.MetricsAddress + "/metrics"
	cases := map[string]struct {
		reason, token string
		want          int
	}{
		"NoToken":       {reason: "An anonymous client is not authenticated.", want: http.StatusUnauthorized},
		"NotAllowed":    {reason: "A ServiceAccount without GET on /metrics is not authorized.", token: denied, want: http.StatusForbidden},
		"MetricsReader": {reason: "A ServiceAccount bound to a role with GET on /metrics reads them.", token: allowed, want: http.StatusOK},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			testenv.Eventually(t, 20*time.Second, func() string {
				code, body, err := getWithToken(url, tc.token)
				if err != nil {
					return err.Error()
				}
				if code != tc.want {
					return fmt.Sprintf("%s\nstatus %d, want %d", tc.reason, code, tc.want)
				}
				if code == http.StatusOK && !strings.Contains(body, "infra_operator_") {
					return "the metrics lack the operator's own: " + body[:min(len(body), 300)]
				}
				return ""
			})
		})
	}
	if code, _, err := getWithToken("http://"+opts.MetricsAddress+"/metrics", allowed); err == nil && code == http.StatusOK {
		t.Error("the secure metrics endpoint also serves plain HTTP")
	}
}

// serviceAccountToken creates the ServiceAccount name in ns and returns a token for it.
func serviceAccountToken(t *testing.T, kube kubernetes.Interface, ns, name string) string {
	t.Helper()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	if _, err := kube.CoreV1().ServiceAccounts(ns).Create(context.Background(), sa, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	tr, err := kube.CoreV1().ServiceAccounts(ns).CreateToken(context.Background(), name, &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("request a token for ServiceAccount %s/%s: %v", ns, name, err)
	}
	return tr.Status.Token
}

// getWithToken GETs url, trusting any certificate (the endpoint's is self-signed), with token
// as bearer token when it is not empty.
func getWithToken(url, token string) (int, string, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, "", err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // the test endpoint's certificate is self-signed.
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}
