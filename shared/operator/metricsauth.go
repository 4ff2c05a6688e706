package operator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/go-logr/logr"
	authnv1 "k8s.io/api/authentication/v1"
	authzv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	authnclient "k8s.io/client-go/kubernetes/typed/authentication/v1"
	authzclient "k8s.io/client-go/kubernetes/typed/authorization/v1"
	"k8s.io/client-go/rest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// The review timings are those of controller-runtime's metrics filter (and of kube-apiserver's
// delegated authentication): a token's review is trusted for a minute, an allowed scrape for
// five, a denied one for thirty seconds, and each review gets ten seconds with up to five
// attempts.
const (
	tokenReviewTTL  = time.Minute
	allowedTTL      = 5 * time.Minute
	deniedTTL       = 30 * time.Second
	reviewTimeout   = 10 * time.Second
	reviewCacheSize = 1024
)

// reviewBackoff spaces the attempts of a review that failed on a transient error.
var reviewBackoff = wait.Backoff{Duration: 500 * time.Millisecond, Factor: 1.5, Jitter: 0.2, Steps: 5}

// metricsAuth authenticates a /metrics client's bearer token with a TokenReview and authorizes
// the request with a SubjectAccessReview, as controller-runtime's
// filters.WithAuthenticationAndAuthorization does, without that package's dependency on
// k8s.io/apiserver (a quarter of the operator's packages). Results are cached, bounded, by a
// hash of the token (the token itself is never kept) and by the user and request.
type metricsAuth struct {
	tokens  authnclient.TokenReviewInterface
	reviews authzclient.SubjectAccessReviewInterface
	authn   *reviewCache[tokenResult]
	authz   *reviewCache[bool]
}

// tokenResult is the outcome of a token's review: whether it is authenticated, and as whom.
type tokenResult struct {
	user          authnv1.UserInfo
	authenticated bool
}

// metricsAuthFilter is a metricsserver.FilterProvider: it builds the filter from the
// operator's own connection to the API server.
func metricsAuthFilter(cfg *rest.Config, httpClient *http.Client) (metricsserver.Filter, error) {
	authn, err := authnclient.NewForConfigAndClient(cfg, httpClient)
	if err != nil {
		return nil, fmt.Errorf("build the TokenReview client for /metrics: %w", err)
	}
	authz, err := authzclient.NewForConfigAndClient(cfg, httpClient)
	if err != nil {
		return nil, fmt.Errorf("build the SubjectAccessReview client for /metrics: %w", err)
	}
	a := newMetricsAuth(authn.TokenReviews(), authz.SubjectAccessReviews())
	return a.filter, nil
}

// newMetricsAuth returns a metricsAuth that reviews through tokens and reviews.
func newMetricsAuth(tokens authnclient.TokenReviewInterface, reviews authzclient.SubjectAccessReviewInterface) *metricsAuth {
	return &metricsAuth{tokens: tokens, reviews: reviews,
		authn: newReviewCache[tokenResult](reviewCacheSize), authz: newReviewCache[bool](reviewCacheSize)}
}

// filter wraps handler: a request without a valid bearer token gets 401, one whose user may
// not use the request's verb on its path gets 403, and a failed review 500; none of the
// answers or log lines holds the token.
func (a *metricsAuth) filter(log logr.Logger, handler http.Handler) (http.Handler, error) {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		user, ok, err := a.authenticate(req.Context(), bearerToken(req))
		if err != nil {
			log.Error(err, "Authentication of a /metrics client failed")
			http.Error(w, "Authentication failed", http.StatusInternalServerError)
			return
		}
		if !ok {
			log.V(4).Info("Unauthenticated /metrics client")
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
			return
		}
		allowed, err := a.authorize(req.Context(), user, strings.ToLower(req.Method), req.URL.Path)
		if err != nil {
			msg := fmt.Sprintf("Authorization for user %s failed", user.Username)
			log.Error(err, msg)
			http.Error(w, msg, http.StatusInternalServerError)
			return
		}
		if !allowed {
			msg := fmt.Sprintf("Authorization denied for user %s", user.Username)
			log.V(4).Info(msg)
			http.Error(w, msg, http.StatusForbidden)
			return
		}
		handler.ServeHTTP(w, req)
	}), nil
}

// bearerToken returns the token of req's "Authorization: Bearer" header, or "" when it has
// none.
func bearerToken(req *http.Request) string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(req.Header.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// authenticate returns the user token belongs to, and false when the API server does not
// authenticate it (or there is no token).
func (a *metricsAuth) authenticate(ctx context.Context, token string) (authnv1.UserInfo, bool, error) {
	if token == "" {
		return authnv1.UserInfo{}, false, nil
	}
	sum := sha256.Sum256([]byte(token))
	key := hex.EncodeToString(sum[:])
	if r, found := a.authn.get(key); found {
		return r.user, r.authenticated, nil
	}
	var status authnv1.TokenReviewStatus
	err := review(ctx, func(ctx context.Context) error {
		r, err := a.tokens.Create(ctx, &authnv1.TokenReview{Spec: authnv1.TokenReviewSpec{Token: token}}, metav1.CreateOptions{})
		if err == nil {
			status = r.Status
		}
		return err
	})
	if err != nil {
		return authnv1.UserInfo{}, false, fmt.Errorf("review the token: %w", err)
	}
	a.authn.put(key, tokenResult{user: status.User, authenticated: status.Authenticated}, tokenReviewTTL)
	return status.User, status.Authenticated, nil
}

// authorize tells whether user may use verb on the non-resource path.
func (a *metricsAuth) authorize(ctx context.Context, user authnv1.UserInfo, verb, path string) (bool, error) {
	key := accessKey(user, verb, path)
	if allowed, found := a.authz.get(key); found {
		return allowed, nil
	}
	extra := make(map[string]authzv1.ExtraValue, len(user.Extra))
	for k, v := range user.Extra {
		extra[k] = authzv1.ExtraValue(v)
	}
	sar := &authzv1.SubjectAccessReview{Spec: authzv1.SubjectAccessReviewSpec{
		User: user.Username, UID: user.UID, Groups: user.Groups, Extra: extra,
		NonResourceAttributes: &authzv1.NonResourceAttributes{Path: path, Verb: verb},
	}}
	var allowed bool
	err := review(ctx, func(ctx context.Context) error {
		r, err := a.reviews.Create(ctx, sar, metav1.CreateOptions{})
		if err == nil {
			allowed = r.Status.Allowed
		}
		return err
	})
	if err != nil {
		return false, fmt.Errorf("review the access of %s to %s %s: %w", user.Username, verb, path, err)
	}
	ttl := deniedTTL
	if allowed {
		ttl = allowedTTL
	}
	a.authz.put(key, allowed, ttl)
	return allowed, nil
}

// accessKey identifies a user's request for the authorization cache.
func accessKey(user authnv1.UserInfo, verb, path string) string {
	var b strings.Builder
	for _, s := range []string{user.Username, user.UID, verb, path} {
		fmt.Fprintf(&b, "%d:%s|", len(s), s)
	}
	for _, g := range user.Groups {
		fmt.Fprintf(&b, "g%d:%s|", len(g), g)
	}
	keys := make([]string, 0, len(user.Extra))
	for k := range user.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "e%d:%s=%q|", len(k), k, user.Extra[k])
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// review runs call with a deadline of reviewTimeout, again with backoff while it fails on an
// error that may pass (a timeout, throttling, an unavailable or failing server, a broken
// connection).
func review(ctx context.Context, call func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, reviewTimeout)
	defer cancel()
	var last error
	err := wait.ExponentialBackoffWithContext(ctx, reviewBackoff, func(ctx context.Context) (bool, error) {
		last = call(ctx)
		if last == nil {
			return true, nil
		}
		return false, transientReviewError(last)
	})
	if err != nil && last != nil {
		return last
	}
	return err
}

// transientReviewError returns nil when err may pass on another attempt, and err otherwise.
func transientReviewError(err error) error {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return nil
	}
	if apierrors.IsTimeout(err) || apierrors.IsServerTimeout(err) || apierrors.IsTooManyRequests(err) ||
		apierrors.IsInternalError(err) || apierrors.IsServiceUnavailable(err) {
		return nil
	}
	return err
}
