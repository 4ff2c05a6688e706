package operator

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	authnv1 "k8s.io/api/authentication/v1"
	authzv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	authnclient "k8s.io/client-go/kubernetes/typed/authentication/v1"
	authzclient "k8s.io/client-go/kubernetes/typed/authorization/v1"
)

// fakeTokens answers TokenReviews from users (by token), failing first with the errors in
// fail, and counts the reviews.
type fakeTokens struct {
	authnclient.TokenReviewInterface
	users map[string]authnv1.UserInfo
	fail  []error
	calls int
}

func (f *fakeTokens) Create(_ context.Context, r *authnv1.TokenReview, _ metav1.CreateOptions) (*authnv1.TokenReview, error) {
	f.calls++
	if len(f.fail) > 0 {
		err := f.fail[0]
		f.fail = f.fail[1:]
		return nil, err
	}
	out := r.DeepCopy()
	out.Status.User, out.Status.Authenticated = f.users[r.Spec.Token]
	return out, nil
}

// fakeAccess allows the users in allowed to GET /metrics, and counts the reviews.
type fakeAccess struct {
	authzclient.SubjectAccessReviewInterface
	allowed map[string]bool
	calls   int
}

func (f *fakeAccess) Create(_ context.Context, r *authzv1.SubjectAccessReview, _ metav1.CreateOptions) (*authzv1.SubjectAccessReview, error) {
	f.calls++
	out := r.DeepCopy()
	a := r.Spec.NonResourceAttributes
	out.Status.Allowed = f.allowed[r.Spec.User] && a != nil && a.Path == "/metrics" && a.Verb == "get" && r.Spec.ResourceAttributes == nil
	return out, nil
}

// scrape sends GET /metrics through the filter of a with the Authorization header auth, and
// returns the status, the body and what was logged.
func scrape(t *testing.T, a *metricsAuth, auth string) (int, string, string) {
	t.Helper()
	var logged strings.Builder
	log := funcr.New(func(prefix, args string) { logged.WriteString(prefix + args + "\n") }, funcr.Options{Verbosity: 4})
	h, err := a.filter(log, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "metrics") }))
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String(), logged.String()
}

// TestMetricsAuthAnswers checks the filter's answer for each kind of client, and that neither
// the answer nor the log holds the token.
func TestMetricsAuthAnswers(t *testing.T) {
	cases := map[string]struct {
		reason, auth string
		fail         []error
		want         int
		// reviews is how many token reviews the request costs.
		reviews int
	}{
		"NoHeader":       {reason: "A client without a token is not authenticated, with no review.", want: http.StatusUnauthorized},
		"NotBearer":      {reason: "Basic credentials are not a bearer token.", auth: "Basic c2VjcmV0LXRva2Vu", want: http.StatusUnauthorized},
		"EmptyBearer":    {reason: "An empty bearer token is no token.", auth: "Bearer   ", want: http.StatusUnauthorized},
		"UnknownToken":   {reason: "A token the API server does not know is not authenticated.", auth: "Bearer secret-unknown", want: http.StatusUnauthorized, reviews: 1},
		"NotAllowed":     {reason: "A user without GET on /metrics is refused.", auth: "Bearer secret-tenant", want: http.StatusForbidden, reviews: 1},
		"Reader":         {reason: "A user with GET on /metrics reads them.", auth: "bearer secret-reader", want: http.StatusOK, reviews: 1},
		"ReviewRefused":  {reason: "A review the API server refuses is a server error, tried once.", auth: "Bearer secret-reader", fail: []error{apierrors.NewForbidden(schema.GroupResource{Group: "authentication.k8s.io", Resource: "tokenreviews"}, "", errors.New("no"))}, want: http.StatusInternalServerError, reviews: 1},
		"ReviewRecovers": {reason: "A review that fails on an unavailable server is tried again.", auth: "Bearer secret-reader", fail: []error{apierrors.NewServiceUnavailable("starting")}, want: http.StatusOK, reviews: 2},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tokens := &fakeTokens{fail: tc.fail, users: map[string]authnv1.UserInfo{
				"secret-reader": {Username: "system:serviceaccount:monitoring:prometheus"},
				"secret-tenant": {Username: "system:serviceaccount:team-a:app"},
			}}
			access := &fakeAccess{allowed: map[string]bool{"system:serviceaccount:monitoring:prometheus": true}}
			code, body, logged := scrape(t, newMetricsAuth(tokens, access), tc.auth)
			if code != tc.want {
				t.Errorf("%s\nstatus %d, want %d (body %q)", tc.reason, code, tc.want, body)
			}
			if strings.Contains(body+logged, "secret-") || strings.Contains(body+logged, "c2VjcmV0") {
				t.Errorf("%s\nthe answer or the log holds the token: %q %q", tc.reason, body, logged)
			}
			if tokens.calls != tc.reviews {
				t.Errorf("%s\n%d token reviews, want %d", tc.reason, tokens.calls, tc.reviews)
			}
		})
	}
}

// TestMetricsAuthCaches checks that a scraper costs one review of each kind per period: the
// token for a minute, an allowed access for five, a denied one for thirty seconds.
func TestMetricsAuthCaches(t *testing.T) {
	tokens := &fakeTokens{users: map[string]authnv1.UserInfo{
		"secret-reader": {Username: "reader"}, "secret-tenant": {Username: "tenant"},
	}}
	access := &fakeAccess{allowed: map[string]bool{"reader": true}}
	a := newMetricsAuth(tokens, access)
	now := time.Now()
	a.authn.now = func() time.Time { return now }
	a.authz.now = func() time.Time { return now }
	for range 3 {
		if code, _, _ := scrape(t, a, "Bearer secret-reader"); code != http.StatusOK {
			t.Fatalf("status %d, want 200", code)
		}
		if code, _, _ := scrape(t, a, "Bearer secret-tenant"); code != http.StatusForbidden {
			t.Fatalf("status %d, want 403", code)
		}
	}
	if tokens.calls != 2 || access.calls != 2 {
		t.Fatalf("three scrapes by two clients made %d token and %d access reviews, want 2 and 2", tokens.calls, access.calls)
	}
	now = now.Add(31 * time.Second)
	scrape(t, a, "Bearer secret-reader")
	scrape(t, a, "Bearer secret-tenant")
	if tokens.calls != 2 || access.calls != 3 {
		t.Fatalf("after 31 s: %d token and %d access reviews, want 2 and 3 (only the denial expired)", tokens.calls, access.calls)
	}
	now = now.Add(time.Minute)
	scrape(t, a, "Bearer secret-reader")
	if tokens.calls != 3 || access.calls != 3 {
		t.Fatalf("after 91 s: %d token and %d access reviews, want 3 and 3 (the token's review expired)", tokens.calls, access.calls)
	}
}

// TestReviewCacheIsBounded checks that a client sending ever new tokens never grows the cache
// past its size.
func TestReviewCacheIsBounded(t *testing.T) {
	c := newReviewCache[bool](8)
	for i := range 100 {
		c.put(fmt.Sprint(i), true, time.Minute)
		if len(c.entries) > 8 {
			t.Fatalf("%d entries after %d puts, want at most 8", len(c.entries), i+1)
		}
	}
	if _, ok := c.get("99"); !ok {
		t.Error("the last entry put is not kept")
	}
}
