package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SecretKeySelector names one key of a Secret in the same namespace as the object that refers
// to it.
type SecretKeySelector struct {
	// Name of the Secret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// Key within the Secret's data.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Key string `json:"key"`
}

// AWSProviderSpec says how to reach one AWS account in one region.
// +kubebuilder:validation:XValidation:rule="has(self.accessKeyIDRef) == has(self.secretAccessKeyRef)",message="accessKeyIDRef and secretAccessKeyRef must be set together"
type AWSProviderSpec struct {
	// Region is the AWS region, for example us-east-1.
	// +kubebuilder:validation:Pattern=`^[a-z]{2,3}(-[a-z]+)+-[0-9]+$`
	Region string `json:"region"`

	// RoleARN is an IAM role assumed on top of the base credentials. With IRSA (a web
	// identity token in the pod) the token is exchanged for this role directly.
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:iam::[0-9]{12}:role/.+$`
	RoleARN string `json:"roleARN,omitempty"`

	// ExternalID is passed to STS AssumeRole when roleARN is assumed on top of static keys or
	// the default chain, for a role whose trust policy requires sts:ExternalId. It is not sent
	// when a web identity token (IRSA) is exchanged for the role: AssumeRoleWithWebIdentity
	// takes no external ID.
	// +optional
	// +kubebuilder:validation:MinLength=2
	// +kubebuilder:validation:MaxLength=1224
	// +kubebuilder:validation:Pattern=`^[\w+=,.@:/-]+$`
	ExternalID string `json:"externalID,omitempty"`

	// AccessKeyIDRef names the Secret key that holds a static access key ID.
	// +optional
	AccessKeyIDRef *SecretKeySelector `json:"accessKeyIDRef,omitempty"`

	// SecretAccessKeyRef names the Secret key that holds the static secret access key.
	// +optional
	SecretAccessKeyRef *SecretKeySelector `json:"secretAccessKeyRef,omitempty"`

	// Endpoint overrides the endpoint of every AWS service, for example the infra-operator
	// emulator or LocalStack.
	// +optional
	// +kubebuilder:validation:Pattern=`^https?://[^\s]+$`
	Endpoint string `json:"endpoint,omitempty"`

	// DefaultTags are added to every resource created through this provider. A resource's own
	// tags win.
	// +optional
	// +kubebuilder:validation:MaxProperties=40
	// +kubebuilder:validation:XValidation:rule="self.all(k, k.size() >= 1 && k.size() <= 128)",message="tag keys are 1 to 128 characters long"
	// +kubebuilder:validation:XValidation:rule=`self.all(k, k.matches(r'^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$'))`,message="tag keys may hold only letters, digits, spaces and _ . : / = + - @"
	// +kubebuilder:validation:XValidation:rule="self.all(k, self[k].size() <= 256)",message="tag values are at most 256 characters long"
	// +kubebuilder:validation:XValidation:rule="self.all(k, !k.startsWith('aws:') && !k.startsWith('aws-infra-operator.runner.codes/'))",message="tag keys starting with 'aws:' or 'aws-infra-operator.runner.codes/' are reserved"
	DefaultTags map[string]string `json:"defaultTags,omitempty"`

	// AllowedNamespaces lists the namespaces, other than its own, whose resources may use this
	// provider. "*" allows every namespace. Empty means only its own namespace.
	// +optional
	// +listType=set
	AllowedNamespaces []string `json:"allowedNamespaces,omitempty"`
}

// AWSProviderStatus reports whether the provider's credentials work.
type AWSProviderStatus struct {
	// Ready is true when the credentials were validated with STS GetCallerIdentity.
	// +optional
	Ready bool `json:"ready"`

	// AccountID is the AWS account the credentials belong to.
	// +optional
	AccountID string `json:"accountID,omitempty"`

	// CallerIdentity is the ARN of the identity the credentials authenticate as.
	// +optional
	CallerIdentity string `json:"callerIdentity,omitempty"`

	// Identity is the same ARN under the name the services guide gives it (status.identity).
	// +optional
	Identity string `json:"identity,omitempty"`

	// Conditions holds the Ready condition.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// ObservedGeneration is the generation of the spec that was last validated.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// LastSyncTime is when the credentials were last validated.
	// +optional
	LastSyncTime *metav1.Time `json:"lastSyncTime,omitempty"`

	// ValidatedBy names the operator instance that validates this provider. With several
	// families installed, only that instance calls STS and writes this status; another takes
	// over when it stops refreshing.
	// +optional
	ValidatedBy string `json:"validatedBy,omitempty"`
}

// AWSProvider holds the credentials, region and default tags that managed resources use.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=awsp,categories=aws
// +kubebuilder:printcolumn:name="Region",type=string,JSONPath=`.spec.region`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Account",type=string,JSONPath=`.status.accountID`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type AWSProvider struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   AWSProviderSpec   `json:"spec,omitempty"`
	Status AWSProviderStatus `json:"status,omitempty"`
}

// AWSProviderList is a list of AWSProviders.
// +kubebuilder:object:root=true
type AWSProviderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []AWSProvider `json:"items"`
}

// Allows reports whether resources in namespace ns may use this provider.
func (p *AWSProvider) Allows(ns string) bool {
	if ns == p.Namespace {
		return true
	}
	for _, allowed := range p.Spec.AllowedNamespaces {
		if allowed == "*" || allowed == ns {
			return true
		}
	}
	return false
}
