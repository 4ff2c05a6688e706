package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Kinds a providerRef may name.
const (
	// KindAWSProvider is the namespaced provider, the default of providerRef.kind.
	KindAWSProvider = "AWSProvider"
	// KindClusterAWSProvider is the cluster administrator's cluster-scoped provider.
	KindClusterAWSProvider = "ClusterAWSProvider"
)

// ProviderObject is an AWSProvider or a ClusterAWSProvider: what the resolver turns into AWS
// credentials and the provider controller validates.
// +kubebuilder:object:generate=false
type ProviderObject interface {
	metav1.Object
	runtime.Object
	// ProviderSpec returns the region, credentials, endpoint and default tags.
	ProviderSpec() *AWSProviderSpec
	// ProviderStatus returns the validation status.
	ProviderStatus() *AWSProviderStatus
	// SecretNamespace returns the namespace of the Secrets the spec names.
	SecretNamespace() string
	// ProviderKind returns KindAWSProvider or KindClusterAWSProvider.
	ProviderKind() string
	// Allows reports whether resources in namespace ns may use the provider.
	Allows(ns string) bool
	// AdministratorOwned reports whether the cluster administrator owns the provider, rather
	// than whoever may write in a namespace.
	AdministratorOwned() bool
}

var (
	_ ProviderObject = (*AWSProvider)(nil)
	_ ProviderObject = (*ClusterAWSProvider)(nil)
)

// ProviderSpec returns the provider's spec.
func (p *AWSProvider) ProviderSpec() *AWSProviderSpec { return &p.Spec }

// ProviderStatus returns the provider's status.
func (p *AWSProvider) ProviderStatus() *AWSProviderStatus { return &p.Status }

// SecretNamespace returns the provider's own namespace, where its Secrets are.
func (p *AWSProvider) SecretNamespace() string { return p.Namespace }

// ProviderKind returns "AWSProvider".
func (p *AWSProvider) ProviderKind() string { return KindAWSProvider }

// AdministratorOwned reports false: a namespaced AWSProvider belongs to whoever may write in
// its namespace.
func (p *AWSProvider) AdministratorOwned() bool { return false }
