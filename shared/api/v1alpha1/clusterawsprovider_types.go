package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ClusterAWSProviderSpec is an AWSProviderSpec owned by the cluster administrator. Its
// allowedNamespaces lists every namespace whose resources may use it ("*" for all; empty
// allows none), and static keys come from Secrets in secretNamespace.
// +kubebuilder:validation:XValidation:rule="!has(self.accessKeyIDRef) || (has(self.secretNamespace) && self.secretNamespace.size() > 0)",message="secretNamespace names the namespace of the Secrets that accessKeyIDRef and secretAccessKeyRef name; it is required with static keys"
type ClusterAWSProviderSpec struct {
	AWSProviderSpec `json:",inline"`

	// SecretNamespace is the namespace of the Secrets that accessKeyIDRef and
	// secretAccessKeyRef name.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	SecretNamespace string `json:"secretNamespace,omitempty"`
}

// ClusterAWSProvider is the cluster administrator's AWSProvider: cluster-scoped, usable by the
// namespaces it allows, with `providerRef: {kind: ClusterAWSProvider, name: ...}`.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=cawsp,categories=aws
// +kubebuilder:printcolumn:name="Region",type=string,JSONPath=`.spec.region`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Account",type=string,JSONPath=`.status.accountID`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type ClusterAWSProvider struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ClusterAWSProviderSpec `json:"spec,omitempty"`
	Status AWSProviderStatus      `json:"status,omitempty"`
}

// ClusterAWSProviderList is a list of ClusterAWSProviders.
// +kubebuilder:object:root=true
type ClusterAWSProviderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ClusterAWSProvider `json:"items"`
}

// ProviderSpec returns the provider's spec.
func (p *ClusterAWSProvider) ProviderSpec() *AWSProviderSpec { return &p.Spec.AWSProviderSpec }

// ProviderStatus returns the provider's status.
func (p *ClusterAWSProvider) ProviderStatus() *AWSProviderStatus { return &p.Status }

// SecretNamespace returns the namespace of the Secrets the provider reads.
func (p *ClusterAWSProvider) SecretNamespace() string { return p.Spec.SecretNamespace }

// ProviderKind returns "ClusterAWSProvider".
func (p *ClusterAWSProvider) ProviderKind() string { return KindClusterAWSProvider }

// Allows reports whether resources in namespace ns may use this provider: ns, or "*", is in
// spec.allowedNamespaces.
func (p *ClusterAWSProvider) Allows(ns string) bool {
	for _, allowed := range p.Spec.AllowedNamespaces {
		if allowed == "*" || allowed == ns {
			return true
		}
	}
	return false
}

// AdministratorOwned reports true: a ClusterAWSProvider is the cluster administrator's, so
// the tenancy settings that restrict what namespaced providers may borrow do not apply to it.
func (p *ClusterAWSProvider) AdministratorOwned() bool { return true }
