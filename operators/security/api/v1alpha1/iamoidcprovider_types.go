package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// IAMOIDCProviderSpec is the desired state of an IAM OpenID Connect identity provider.
// +kubebuilder:validation:XValidation:rule="has(self.url) != has(self.clusterRef)",message="set exactly one of url and clusterRef"
// +kubebuilder:validation:XValidation:rule="has(self.url) == has(oldSelf.url) && has(self.clusterRef) == has(oldSelf.clusterRef)",message="the issuer cannot change between url and clusterRef; create a new IAMOIDCProvider"
type IAMOIDCProviderSpec struct {
	shared.ManagedSpec `json:",inline"`

	// URL is the issuer's URL (https://, for example an EKS cluster's
	// https://oidc.eks.us-east-1.amazonaws.com/id/EXAMPLED539D4633E53DE1B71EXAMPLE). IAM has one
	// provider per URL in an account, named by its ARN,
	// arn:aws:iam::<account>:oidc-provider/<url without https://>. It cannot change.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="self.startsWith('https://') && size(self) > 8",message="url must begin with https://"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="url cannot change; create a new IAMOIDCProvider"
	URL string `json:"url,omitempty"`

	// ClusterRef names the EKSCluster object in this namespace whose OpenID Connect issuer the
	// provider is for, in place of url (IAM roles for service accounts); the provider waits
	// until the cluster is Ready. It cannot change.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="clusterRef cannot change; create a new IAMOIDCProvider"
	ClusterRef *shared.Reference `json:"clusterRef,omitempty"`

	// ClientIDs are the audiences (client IDs) the provider accepts: sts.amazonaws.com, what
	// the AWS SDKs send for IAM roles for service accounts, unless given.
	// +optional
	// +listType=set
	// +kubebuilder:default={"sts.amazonaws.com"}
	// +kubebuilder:validation:MaxItems=100
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=255
	ClientIDs []string `json:"clientIDs,omitempty"`

	// Thumbprints are the hex-encoded SHA-1 thumbprints (40 characters) of the issuer's
	// certificates, at most five. AWS no longer needs them for most issuers (EKS's included) and
	// computes one when none is given: the operator then leaves the provider's thumbprints as
	// AWS keeps them, and manages them only when the spec lists some.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:Pattern=`^[0-9A-Fa-f]{40}$`
	Thumbprints []string `json:"thumbprints,omitempty"`
}

// IAMOIDCProviderStatus is the observed state of an IAM OpenID Connect identity provider.
type IAMOIDCProviderStatus struct {
	shared.ManagedStatus `json:",inline"`

	// ARN is the provider's ARN, which the trust policies of roles for service accounts name
	// (Principal Federated).
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// URL is the provider's URL as IAM keeps it, without https://: the prefix of the condition
	// keys of trust policies (<url>:sub, <url>:aud).
	// +optional
	URL string `json:"url,omitempty"`
}

// IAMOIDCProvider is an IAM OpenID Connect identity provider, which lets the identities an
// issuer signs (the service accounts of an EKS cluster) assume IAM roles.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-security}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="URL",type=string,JSONPath=`.status.url`
// +kubebuilder:printcolumn:name="ARN",type=string,JSONPath=`.status.arn`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type IAMOIDCProvider struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   IAMOIDCProviderSpec   `json:"spec"`
	Status IAMOIDCProviderStatus `json:"status,omitempty"`
}

// IAMOIDCProviderList is a list of IAMOIDCProviders.
// +kubebuilder:object:root=true
type IAMOIDCProviderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []IAMOIDCProvider `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (i *IAMOIDCProvider) GetManagedSpec() *shared.ManagedSpec { return &i.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (i *IAMOIDCProvider) GetManagedStatus() *shared.ManagedStatus { return &i.Status.ManagedStatus }
