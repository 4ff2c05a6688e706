// Package iamoidcprovider manages IAM OpenID Connect identity providers for the IAMOIDCProvider
// kind, what IAM roles for service accounts (IRSA) need of a cluster: the provider of an issuer
// URL, given or an EKSCluster's, with its client IDs, thumbprints and tags. IAM has one provider
// per URL in an account and names it by ARN (arn:aws:iam::<account>:oidc-provider/<url without
// https://>): a provider is found by the ARN its URL gives, built from the provider's account,
// and claimed through managed.Claim.
package iamoidcprovider

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/security/iamarn"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the IAMOIDCProvider kind to the engine.
func Kind() managed.Kind[*v1alpha1.IAMOIDCProvider, State] {
	return managed.Kind[*v1alpha1.IAMOIDCProvider, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.IAMOIDCProvider) managed.Driver[*v1alpha1.IAMOIDCProvider, State] {
			return &driver{api: provider.Client(s, "iam", func(c aws.Config) *iam.Client { return iam.NewFromConfig(c) }), session: s}
		},
		References: []managed.Ref[*v1alpha1.IAMOIDCProvider]{
			managed.One(targets.EKSClusterOIDCIssuer, "spec.clusterRef", func(p *v1alpha1.IAMOIDCProvider) (*shared.Reference, *string) {
				return p.Spec.ClusterRef, &p.Spec.URL
			}),
		},
	}
}

// driver manages one provider's OpenID Connect providers.
type driver struct {
	api     *iam.Client
	session *provider.Session
}

// host returns an issuer URL as IAM keeps it: without https:// and a trailing slash.
func host(url string) string {
	return strings.TrimSuffix(strings.TrimPrefix(url, "https://"), "/")
}

// arn returns the ARN of the object's provider: the one recorded, else the one its account and
// URL give, "" when neither is known (a clusterRef is not resolved while deleting).
func (d *driver) arn(ctx context.Context, p *v1alpha1.IAMOIDCProvider) (string, error) {
	if id := managed.ExternalName(p); id != "" {
		return id, nil
	}
	if p.Spec.URL == "" {
		return "", nil
	}
	return iamarn.For(ctx, d.session, "oidc-provider/"+host(p.Spec.URL))
}
