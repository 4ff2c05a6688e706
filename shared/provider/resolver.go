package provider

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	ststypes "github.com/aws/aws-sdk-go-v2/service/sts/types"
	"github.com/aws/smithy-go/middleware"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/metrics"
	"github.com/runner-codes/infra-operator/shared/sdkhttp"
)

// Resolver turns AWSProviders and ClusterAWSProviders into Sessions. It reads providers and
// Secret metadata from the manager's cache and Secret data directly from the API server, only
// when a Secret's resourceVersion changes, so the operator never caches Secret values
// cluster-wide.
type Resolver struct {
	// Client reads providers and Secret metadata, normally from the manager's cache.
	Client client.Reader
	// APIReader reads Secret data, normally the manager's uncached API reader.
	APIReader client.Reader
	// SessionName is the start of the role session name used when a role is assumed; the
	// namespace the session acts for is appended ("<SessionName>@<namespace>").
	SessionName string
	// NoSessionTags leaves out the session tags (TagNamespace, TagProvider) that AssumeRole
	// otherwise carries, for roles whose trust policy does not allow sts:TagSession.
	NoSessionTags bool
	// Tenancy is what the cluster administrator lets namespaced providers borrow from the
	// operator; nil allows everything (a library default for embedding and tests: the
	// operator binaries always set it from their flags).
	Tenancy *Tenancy
	// InstallID identifies this install of the operator; it is tagged on every created
	// resource (TagInstallID) so that two installs never both manage one resource.
	InstallID string
	// HTTPTimeout bounds every HTTP request of the SDK clients (default 30s).
	HTTPTimeout time.Duration
	// LoadOptions are appended to the options of every config; tests use them to shorten
	// retries.
	LoadOptions []func(*config.LoadOptions) error

	mu       sync.Mutex
	sessions map[sessionID]*Session
}

// Session tags every AssumeRole call carries (unless Resolver.NoSessionTags), so that a role's
// trust policy can require them (aws:RequestTag/infra-operator/namespace on sts:TagSession)
// and the role's policies and CloudTrail can tell namespaces apart
// (aws:PrincipalTag/infra-operator/namespace).
const (
	// TagNamespace is the session tag naming the namespace whose objects the session acts
	// for; it is absent from a ClusterAWSProvider's own validation session.
	TagNamespace = "infra-operator/namespace"
	// TagProvider is the session tag naming the provider: "namespace/name" for an
	// AWSProvider, "ClusterAWSProvider/name" for a ClusterAWSProvider.
	TagProvider = "infra-operator/provider"
)

// maxSessions bounds the session cache. A provider that assumes a role has a session per
// namespace that uses it; past the bound an arbitrary session is dropped, and rebuilt (one
// more AssumeRole) when it is needed again.
const maxSessions = 4096

// sessionID identifies a cached session: the provider, and the namespace the session acts for
// when the provider assumes a role (the namespace is in the role session's name and tags);
// empty otherwise.
type sessionID struct {
	Key
	namespace string
}

// ForResource returns the Session of the provider that o refers to, and that provider as it
// is now (its status may be newer than the session's copy). An AWSProvider must be in o's
// namespace or allow it in spec.allowedNamespaces; a ClusterAWSProvider must allow it.
func (r *Resolver) ForResource(ctx context.Context, o v1alpha1.Managed) (*Session, v1alpha1.ProviderObject, error) {
	return r.ForReference(ctx, o, o.GetManagedSpec().ProviderRef)
}

// ForReference is ForResource for another provider reference of o's spec than providerRef (a
// peering connection's accepter account): the same rules decide whether o may use it.
func (r *Resolver) ForReference(ctx context.Context, o v1alpha1.Managed, ref v1alpha1.ProviderReference) (*Session, v1alpha1.ProviderObject, error) {
	key := KeyFor(ref, o.GetNamespace())
	p := key.New()
	if err := r.Client.Get(ctx, key.NamespacedName(), p); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil, &Error{Reason: condition.ReasonProviderNotFound, Message: key.Describe() + " not found"}
		}
		return nil, nil, fmt.Errorf("get %s: %w", key.Describe(), err)
	}
	if p.GetNamespace() != o.GetNamespace() && !p.Allows(o.GetNamespace()) {
		return nil, nil, &Error{Reason: condition.ReasonProviderNotAllowed, Message: fmt.Sprintf(
			"%s does not allow namespace %q (see its spec.allowedNamespaces)", key.Describe(), o.GetNamespace())}
	}
	s, err := r.forNamespace(ctx, p, o.GetNamespace())
	return s, p, err
}

// ForProvider returns the Session for p, building it when p's spec or one of its Secrets
// changed since the cached one was built. The administrator's tenancy settings are checked
// first: a refused provider gets no session and no AWS call is made for it. While p is being
// deleted, a Secret that is already gone (a namespace being deleted takes everything at once)
// does not keep the cached session from the resources that still need it to delete.
//
// The session acts for p's own namespace; a ClusterAWSProvider's for none.
func (r *Resolver) ForProvider(ctx context.Context, p v1alpha1.ProviderObject) (*Session, error) {
	return r.forNamespace(ctx, p, p.GetNamespace())
}

// forNamespace returns the Session for p acting for the objects of namespace ns. A provider
// that assumes a role has one session per namespace, whose role session name and tags carry
// the namespace; any other provider has one session for every namespace.
func (r *Resolver) forNamespace(ctx context.Context, p v1alpha1.ProviderObject, ns string) (*Session, error) {
	spec := p.ProviderSpec()
	if !KnownRegion(spec.Region) {
		return nil, &Error{Reason: condition.ReasonInvalidRegion, Message: fmt.Sprintf("region %q is not in any AWS partition", spec.Region)}
	}
	if err := r.Tenancy.check(p); err != nil {
		return nil, err
	}
	name := sessionID{Key: KeyOf(p)}
	if spec.RoleARN != "" {
		name.namespace = ns
	}
	r.mu.Lock()
	cached := r.sessions[name]
	r.mu.Unlock()
	key, err := r.sessionKey(ctx, p)
	if err != nil {
		if pe, ok := AsError(err); ok && pe.Reason == condition.ReasonSecretNotFound && cached != nil &&
			!p.GetDeletionTimestamp().IsZero() && cached.Provider.GetUID() == p.GetUID() {
			return cached, nil
		}
		return nil, err
	}
	if cached != nil && cached.key == key {
		return cached, nil
	}
	cfg, err := r.buildConfig(ctx, p, name.namespace)
	if err != nil {
		return nil, err
	}
	s := &Session{Config: cfg, Provider: p.DeepCopyObject().(v1alpha1.ProviderObject), key: key, installID: r.InstallID}
	r.mu.Lock()
	if r.sessions == nil {
		r.sessions = map[sessionID]*Session{}
	}
	if _, ok := r.sessions[name]; !ok && len(r.sessions) >= maxSessions {
		for id := range r.sessions {
			delete(r.sessions, id)
			break
		}
	}
	r.sessions[name] = s
	r.mu.Unlock()
	return s, nil
}

// Forget drops the cached Sessions of a deleted provider, for every namespace.
func (r *Resolver) Forget(name Key) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id := range r.sessions {
		if id.Key == name {
			delete(r.sessions, id)
		}
	}
}

// sessionKey identifies one version of a provider's configuration: its UID and generation and
// the resourceVersions of the Secrets it reads.
func (r *Resolver) sessionKey(ctx context.Context, p v1alpha1.ProviderObject) (string, error) {
	key := fmt.Sprintf("%s/%d", p.GetUID(), p.GetGeneration())
	for _, ref := range secretRefs(p) {
		meta := &metav1.PartialObjectMetadata{}
		meta.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
		name := types.NamespacedName{Namespace: p.SecretNamespace(), Name: ref.Name}
		if err := r.Client.Get(ctx, name, meta); err != nil {
			if apierrors.IsNotFound(err) {
				return "", &Error{Reason: condition.ReasonSecretNotFound, Message: fmt.Sprintf("Secret %s not found", name)}
			}
			return "", fmt.Errorf("get Secret %s metadata: %w", name, err)
		}
		key += "/" + meta.ResourceVersion
	}
	return key, nil
}

// secretRefs returns the Secret keys p reads.
func secretRefs(p v1alpha1.ProviderObject) []*v1alpha1.SecretKeySelector {
	var refs []*v1alpha1.SecretKeySelector
	spec := p.ProviderSpec()
	for _, ref := range []*v1alpha1.SecretKeySelector{spec.AccessKeyIDRef, spec.SecretAccessKeyRef} {
		if ref != nil {
			refs = append(refs, ref)
		}
	}
	return refs
}

// SecretNames returns the names of the Secrets p reads, for indexing providers by Secret.
func SecretNames(p v1alpha1.ProviderObject) []string {
	var names []string
	for _, ref := range secretRefs(p) {
		names = append(names, ref.Name)
	}
	return names
}

// buildConfig loads the AWS configuration for p. Credentials come from, in order: static keys
// in the referenced Secret; a web identity token (IRSA), exchanged directly for spec.roleARN
// when it is set; the default chain (EKS Pod Identity, environment, instance role). A roleARN
// is assumed on top of static keys and of the default chain. The operator's own identity (the
// web identity token, the default chain) is only ever exchanged at AWS's STS for the region or
// the administrator's Tenancy.STSEndpoint, never at spec.endpoint.
//
// Role sessions act for namespace ns: the session name ends with "@<ns>" and, for AssumeRole,
// the session tags TagNamespace and TagProvider say which namespace and provider act (a web
// identity exchange takes no session tags, so there the namespace is in the name only), and
// spec.externalID is passed.
func (r *Resolver) buildConfig(ctx context.Context, p v1alpha1.ProviderObject, ns string) (aws.Config, error) {
	spec := p.ProviderSpec()
	httpClient := awshttp.NewBuildableClient().WithTimeout(r.httpTimeout())
	if spec.Endpoint != "" && !p.AdministratorOwned() && r.Tenancy != nil {
		// A namespace's endpoint reaches only what its name may: every address it resolves
		// to is checked when dialled, and the cluster's DNS search list is not consulted.
		httpClient = httpClient.WithDialerOptions(func(d *net.Dialer) { d.Control = r.Tenancy.dialControl }).
			WithTransportOptions(r.Tenancy.fullyQualifiedDial(p.GetNamespace()))
	}
	opts := []func(*config.LoadOptions) error{
		config.WithRegion(spec.Region),
		config.WithAppID("infra-operator"),
		config.WithAPIOptions([]func(*middleware.Stack) error{metrics.AWSCallMetrics(p.GetNamespace(), p.GetName())}),
		config.WithHTTPClient(httpClient),
		// The SDK's client-side retry quota would, once a burst of throttling drained it, fail
		// every call of every object of the provider; the work queue's per-object backoff
		// spaces retries instead.
		config.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(o *retry.StandardOptions) { o.RateLimiter = ratelimit.None })
		}),
	}
	static := spec.AccessKeyIDRef != nil
	tokenFile := os.Getenv("AWS_WEB_IDENTITY_TOKEN_FILE")
	webIdentity := !static && spec.RoleARN != "" && tokenFile != ""
	if webIdentity {
		// The token itself is the credential (AssumeRoleWithWebIdentity is unsigned), so the
		// default chain is not consulted; it may not even be complete (no AWS_ROLE_ARN).
		opts = append(opts, config.WithCredentialsProvider(aws.AnonymousCredentials{}))
	}
	if static {
		id, err := r.secretValue(ctx, p.SecretNamespace(), spec.AccessKeyIDRef)
		if err != nil {
			return aws.Config{}, err
		}
		secret, err := r.secretValue(ctx, p.SecretNamespace(), spec.SecretAccessKeyRef)
		if err != nil {
			return aws.Config{}, err
		}
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(id, secret, "")))
	}
	opts = append(opts, r.LoadOptions...)
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, &Error{Reason: condition.ReasonConfigFailed, Message: "cannot load the AWS configuration", Err: err}
	}
	cfg.HTTPClient = sdkhttp.Wrap(cfg.HTTPClient)
	// The STS client that exchanges credentials for a role: static keys are the namespace's
	// own and go where its services go; the operator's own identity goes only to AWS's STS or
	// the administrator's.
	stsCfg := cfg.Copy()
	if spec.Endpoint != "" {
		cfg.BaseEndpoint = aws.String(spec.Endpoint)
		if static {
			stsCfg.BaseEndpoint = aws.String(spec.Endpoint)
		}
	}
	if !static && r.Tenancy != nil && r.Tenancy.STSEndpoint != "" {
		stsCfg.BaseEndpoint = aws.String(r.Tenancy.STSEndpoint)
	}
	switch {
	case webIdentity:
		cfg.Credentials = r.webIdentityCredentials(stsCfg, spec.RoleARN, tokenFile, ns)
	case spec.RoleARN != "":
		cfg.Credentials = r.assumedRoleCredentials(stsCfg, spec.RoleARN, spec.ExternalID, r.sessionTags(KeyOf(p), ns), ns)
	}
	return cfg, nil
}

// httpTimeout bounds one HTTP request of the SDK clients.
func (r *Resolver) httpTimeout() time.Duration {
	if r.HTTPTimeout > 0 {
		return r.HTTPTimeout
	}
	return 30 * time.Second
}

// webIdentityCredentials exchanges the pod's web identity token for role, in a session named
// for namespace ns. AssumeRoleWithWebIdentity takes neither session tags (they come from the
// token's claims) nor an external ID.
func (r *Resolver) webIdentityCredentials(cfg aws.Config, role, tokenFile, ns string) aws.CredentialsProvider {
	return aws.NewCredentialsCache(stscreds.NewWebIdentityRoleProvider(sts.NewFromConfig(cfg), role,
		stscreds.IdentityTokenFile(tokenFile),
		func(o *stscreds.WebIdentityRoleOptions) { o.RoleSessionName = RoleSessionName(r.SessionName, ns) }))
}

// assumedRoleCredentials assumes role with the base credentials in cfg, in a session named
// for namespace ns that carries tags and, when not empty, externalID.
func (r *Resolver) assumedRoleCredentials(cfg aws.Config, role, externalID string, tags []ststypes.Tag, ns string) aws.CredentialsProvider {
	return aws.NewCredentialsCache(stscreds.NewAssumeRoleProvider(sts.NewFromConfig(cfg), role,
		func(o *stscreds.AssumeRoleOptions) {
			o.RoleSessionName = RoleSessionName(r.SessionName, ns)
			o.Tags = tags
			if externalID != "" {
				o.ExternalID = aws.String(externalID)
			}
		}))
}

// sessionTags returns the session tags of a role session of provider key acting for namespace
// ns, none when the administrator turned them off.
func (r *Resolver) sessionTags(key Key, ns string) []ststypes.Tag {
	if r.NoSessionTags {
		return nil
	}
	tags := []ststypes.Tag{{Key: aws.String(TagProvider), Value: aws.String(key.String())}}
	if ns != "" {
		tags = append(tags, ststypes.Tag{Key: aws.String(TagNamespace), Value: aws.String(ns)})
	}
	return tags
}

// maxSessionName is the longest role session name STS accepts.
const maxSessionName = 64

// RoleSessionName returns the role session name of a session acting for namespace ns:
// "<base>@<ns>", or base alone when ns is empty. STS accepts 2 to 64 characters of
// [\w+=,.@-]: other characters of base become "-", and base is shortened so that the namespace
// (at most 63 characters) is always whole. An empty base is "infra-operator".
func RoleSessionName(base, ns string) string {
	if base == "" {
		base = "infra-operator"
	}
	base = strings.Map(func(c rune) rune {
		if c < 0x80 && (c == '_' || c == '+' || c == '=' || c == ',' || c == '.' || c == '@' || c == '-' ||
			'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return c
		}
		return '-'
	}, base)
	suffix := ""
	if ns != "" {
		suffix = "@" + ns
	}
	if len(base)+len(suffix) > maxSessionName {
		base = base[:max(0, maxSessionName-len(suffix))]
	}
	name := base + suffix
	if len(name) > maxSessionName {
		name = name[:maxSessionName]
	}
	for len(name) < 2 {
		name += "-"
	}
	return name
}

// secretValue reads one key of a Secret. Errors name the Secret and key, never the value.
func (r *Resolver) secretValue(ctx context.Context, ns string, ref *v1alpha1.SecretKeySelector) (string, error) {
	name := types.NamespacedName{Namespace: ns, Name: ref.Name}
	s := &corev1.Secret{}
	if err := r.APIReader.Get(ctx, name, s); err != nil {
		if apierrors.IsNotFound(err) {
			return "", &Error{Reason: condition.ReasonSecretNotFound, Message: fmt.Sprintf("Secret %s not found", name)}
		}
		return "", fmt.Errorf("get Secret %s: %w", name, err)
	}
	v, ok := s.Data[ref.Key]
	if !ok {
		return "", &Error{Reason: condition.ReasonSecretKeyNotFound, Message: fmt.Sprintf("Secret %s has no key %q", name, ref.Key)}
	}
	value := string(v)
	if value == "" || strings.ContainsAny(value, " \t\r\n") {
		return "", &Error{Reason: condition.ReasonSecretValueInvalid, Message: fmt.Sprintf(
			"key %q of Secret %s is empty or contains whitespace", ref.Key, name)}
	}
	return value, nil
}
