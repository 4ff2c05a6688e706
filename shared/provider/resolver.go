package provider

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go/middleware"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/metrics"
	"github.com/runner-codes/infra-operator/shared/sdkhttp"
)

// Resolver turns AWSProviders into Sessions. It reads AWSProviders and Secret metadata from
// the manager's cache and Secret data directly from the API server, only when a Secret's
// resourceVersion changes, so the operator never caches Secret values cluster-wide.
type Resolver struct {
	// Client reads AWSProviders and Secret metadata, normally from the manager's cache.
	Client client.Reader
	// APIReader reads Secret data, normally the manager's uncached API reader.
	APIReader client.Reader
	// SessionName is the role session name used when a role is assumed.
	SessionName string
	// LoadOptions are appended to the options of every config; tests use them to shorten
	// retries.
	LoadOptions []func(*config.LoadOptions) error

	mu       sync.Mutex
	sessions map[types.NamespacedName]*Session
}

// ForResource returns the Session of the AWSProvider that o refers to, and that provider as it
// is now (its status may be newer than the session's copy). The provider must be in o's
// namespace, or allow o's namespace in spec.allowedNamespaces.
func (r *Resolver) ForResource(ctx context.Context, o v1alpha1.Managed) (*Session, *v1alpha1.AWSProvider, error) {
	ref := o.GetManagedSpec().ProviderRef
	key := ProviderKey(o)
	p := &v1alpha1.AWSProvider{}
	if err := r.Client.Get(ctx, key, p); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil, &Error{Reason: ReasonProviderNotFound, Message: fmt.Sprintf("AWSProvider %s not found", key)}
		}
		return nil, nil, fmt.Errorf("get AWSProvider %s: %w", key, err)
	}
	if ref.Namespace != "" && !p.Allows(o.GetNamespace()) {
		return nil, nil, &Error{Reason: ReasonProviderNotAllowed, Message: fmt.Sprintf(
			"AWSProvider %s does not allow namespace %q (see its spec.allowedNamespaces)", key, o.GetNamespace())}
	}
	s, err := r.ForProvider(ctx, p)
	return s, p, err
}

// ProviderKey returns the namespace and name of the AWSProvider that o refers to.
func ProviderKey(o v1alpha1.Managed) types.NamespacedName {
	ref := o.GetManagedSpec().ProviderRef
	ns := ref.Namespace
	if ns == "" {
		ns = o.GetNamespace()
	}
	return types.NamespacedName{Namespace: ns, Name: ref.Name}
}

// ForProvider returns the Session for p, building it when p's spec or one of its Secrets
// changed since the cached one was built.
func (r *Resolver) ForProvider(ctx context.Context, p *v1alpha1.AWSProvider) (*Session, error) {
	if !KnownRegion(p.Spec.Region) {
		return nil, &Error{Reason: ReasonInvalidRegion, Message: fmt.Sprintf("region %q is not in any AWS partition", p.Spec.Region)}
	}
	key, err := r.sessionKey(ctx, p)
	if err != nil {
		return nil, err
	}
	name := types.NamespacedName{Namespace: p.Namespace, Name: p.Name}
	r.mu.Lock()
	cached := r.sessions[name]
	r.mu.Unlock()
	if cached != nil && cached.key == key {
		return cached, nil
	}
	cfg, err := r.buildConfig(ctx, p)
	if err != nil {
		return nil, err
	}
	s := &Session{Config: cfg, Provider: p.DeepCopy(), key: key}
	r.mu.Lock()
	if r.sessions == nil {
		r.sessions = map[types.NamespacedName]*Session{}
	}
	r.sessions[name] = s
	r.mu.Unlock()
	return s, nil
}

// Forget drops the cached Session of a deleted provider.
func (r *Resolver) Forget(name types.NamespacedName) {
	r.mu.Lock()
	delete(r.sessions, name)
	r.mu.Unlock()
}

// sessionKey identifies one version of a provider's configuration: its UID and generation and
// the resourceVersions of the Secrets it reads.
func (r *Resolver) sessionKey(ctx context.Context, p *v1alpha1.AWSProvider) (string, error) {
	key := fmt.Sprintf("%s/%d", p.UID, p.Generation)
	for _, ref := range secretRefs(p) {
		meta := &metav1.PartialObjectMetadata{}
		meta.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
		name := types.NamespacedName{Namespace: p.Namespace, Name: ref.Name}
		if err := r.Client.Get(ctx, name, meta); err != nil {
			if apierrors.IsNotFound(err) {
				return "", &Error{Reason: ReasonSecretNotFound, Message: fmt.Sprintf("Secret %s not found", name)}
			}
			return "", fmt.Errorf("get Secret %s metadata: %w", name, err)
		}
		key += "/" + meta.ResourceVersion
	}
	return key, nil
}

// secretRefs returns the Secret keys p reads.
func secretRefs(p *v1alpha1.AWSProvider) []*v1alpha1.SecretKeySelector {
	var refs []*v1alpha1.SecretKeySelector
	for _, ref := range []*v1alpha1.SecretKeySelector{p.Spec.AccessKeyIDRef, p.Spec.SecretAccessKeyRef} {
		if ref != nil {
			refs = append(refs, ref)
		}
	}
	return refs
}

// SecretNames returns the names of the Secrets p reads, for indexing providers by Secret.
func SecretNames(p *v1alpha1.AWSProvider) []string {
	var names []string
	for _, ref := range secretRefs(p) {
		names = append(names, ref.Name)
	}
	return names
}

// buildConfig loads the AWS configuration for p. Credentials come from, in order: static keys
// in the referenced Secret; a web identity token (IRSA), exchanged directly for spec.roleARN
// when it is set; the default chain (EKS Pod Identity, environment, instance role). A roleARN
// is assumed on top of static keys and of the default chain.
func (r *Resolver) buildConfig(ctx context.Context, p *v1alpha1.AWSProvider) (aws.Config, error) {
	opts := []func(*config.LoadOptions) error{
		config.WithRegion(p.Spec.Region),
		config.WithAppID("infra-operator"),
		config.WithAPIOptions([]func(*middleware.Stack) error{metrics.AddAWSCallMetrics}),
	}
	static := p.Spec.AccessKeyIDRef != nil
	tokenFile := os.Getenv("AWS_WEB_IDENTITY_TOKEN_FILE")
	webIdentity := !static && p.Spec.RoleARN != "" && tokenFile != ""
	if webIdentity {
		// The token itself is the credential (AssumeRoleWithWebIdentity is unsigned), so the
		// default chain is not consulted; it may not even be complete (no AWS_ROLE_ARN).
		opts = append(opts, config.WithCredentialsProvider(aws.AnonymousCredentials{}))
	}
	if static {
		id, err := r.secretValue(ctx, p.Namespace, p.Spec.AccessKeyIDRef)
		if err != nil {
			return aws.Config{}, err
		}
		secret, err := r.secretValue(ctx, p.Namespace, p.Spec.SecretAccessKeyRef)
		if err != nil {
			return aws.Config{}, err
		}
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(id, secret, "")))
	}
	opts = append(opts, r.LoadOptions...)
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, &Error{Reason: ReasonConfigFailed, Message: "cannot load the AWS configuration", Err: err}
	}
	cfg.HTTPClient = sdkhttp.Wrap(cfg.HTTPClient)
	if p.Spec.Endpoint != "" {
		cfg.BaseEndpoint = aws.String(p.Spec.Endpoint)
	}
	switch {
	case webIdentity:
		cfg.Credentials = r.webIdentityCredentials(cfg, p.Spec.RoleARN, tokenFile)
	case p.Spec.RoleARN != "":
		cfg.Credentials = r.assumedRoleCredentials(cfg, p.Spec.RoleARN)
	}
	return cfg, nil
}

// webIdentityCredentials exchanges the pod's web identity token for role.
func (r *Resolver) webIdentityCredentials(cfg aws.Config, role, tokenFile string) aws.CredentialsProvider {
	return aws.NewCredentialsCache(stscreds.NewWebIdentityRoleProvider(sts.NewFromConfig(cfg), role,
		stscreds.IdentityTokenFile(tokenFile),
		func(o *stscreds.WebIdentityRoleOptions) { o.RoleSessionName = r.sessionName() }))
}

// assumedRoleCredentials assumes role with the base credentials in cfg.
func (r *Resolver) assumedRoleCredentials(cfg aws.Config, role string) aws.CredentialsProvider {
	return aws.NewCredentialsCache(stscreds.NewAssumeRoleProvider(sts.NewFromConfig(cfg), role,
		func(o *stscreds.AssumeRoleOptions) { o.RoleSessionName = r.sessionName() }))
}

func (r *Resolver) sessionName() string {
	if r.SessionName == "" {
		return "infra-operator"
	}
	return r.SessionName
}

// secretValue reads one key of a Secret. Errors name the Secret and key, never the value.
func (r *Resolver) secretValue(ctx context.Context, ns string, ref *v1alpha1.SecretKeySelector) (string, error) {
	name := types.NamespacedName{Namespace: ns, Name: ref.Name}
	s := &corev1.Secret{}
	if err := r.APIReader.Get(ctx, name, s); err != nil {
		if apierrors.IsNotFound(err) {
			return "", &Error{Reason: ReasonSecretNotFound, Message: fmt.Sprintf("Secret %s not found", name)}
		}
		return "", fmt.Errorf("get Secret %s: %w", name, err)
	}
	v, ok := s.Data[ref.Key]
	if !ok {
		return "", &Error{Reason: ReasonSecretKeyNotFound, Message: fmt.Sprintf("Secret %s has no key %q", name, ref.Key)}
	}
	value := string(v)
	if value == "" || strings.ContainsAny(value, " \t\r\n") {
		return "", &Error{Reason: ReasonSecretValueInvalid, Message: fmt.Sprintf(
			"key %q of Secret %s is empty or contains whitespace", ref.Key, name)}
	}
	return value, nil
}
