package provider

import (
	"k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// Key identifies one provider: an AWSProvider by namespace and name, or a ClusterAWSProvider by
// name.
type Key struct {
	// Kind is v1alpha1.KindAWSProvider or v1alpha1.KindClusterAWSProvider.
	Kind string
	// Namespace is the AWSProvider's namespace; empty for a ClusterAWSProvider.
	Namespace string
	// Name is the provider's name.
	Name string
}

// String returns "namespace/name" for an AWSProvider and "ClusterAWSProvider/name" for a
// ClusterAWSProvider, for messages and indexes.
func (k Key) String() string {
	if k.Kind == v1alpha1.KindClusterAWSProvider {
		return k.Kind + "/" + k.Name
	}
	return k.Namespace + "/" + k.Name
}

// Describe names the provider for condition messages, for example "AWSProvider team-a/aws".
func (k Key) Describe() string {
	if k.Kind == v1alpha1.KindClusterAWSProvider {
		return "ClusterAWSProvider " + k.Name
	}
	return "AWSProvider " + k.Namespace + "/" + k.Name
}

// NamespacedName returns the key the API server knows the provider by.
func (k Key) NamespacedName() types.NamespacedName {
	return types.NamespacedName{Namespace: k.Namespace, Name: k.Name}
}

// New returns an empty object of the provider's kind.
func (k Key) New() v1alpha1.ProviderObject {
	if k.Kind == v1alpha1.KindClusterAWSProvider {
		return &v1alpha1.ClusterAWSProvider{}
	}
	return &v1alpha1.AWSProvider{}
}

// KeyOf returns the key of provider p.
func KeyOf(p v1alpha1.ProviderObject) Key {
	return Key{Kind: p.ProviderKind(), Namespace: p.GetNamespace(), Name: p.GetName()}
}

// ProviderKey returns the key of the provider that o refers to.
func ProviderKey(o v1alpha1.Managed) Key {
	return KeyFor(o.GetManagedSpec().ProviderRef, o.GetNamespace())
}

// KeyFor returns the key of the provider that ref names for an object of namespace ns (an
// AWSProvider of ns when ref names no namespace).
func KeyFor(ref v1alpha1.ProviderReference, ns string) Key {
	if ref.Kind == v1alpha1.KindClusterAWSProvider {
		return Key{Kind: ref.Kind, Name: ref.Name}
	}
	if ref.Namespace != "" {
		ns = ref.Namespace
	}
	return Key{Kind: v1alpha1.KindAWSProvider, Namespace: ns, Name: ref.Name}
}
