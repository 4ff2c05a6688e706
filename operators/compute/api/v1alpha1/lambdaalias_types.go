package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// LambdaAliasSpec is the desired state of a Lambda alias: a name for a version of a function,
// optionally sending a share of its invocations to a second version for a gradual rollout.
// +kubebuilder:validation:XValidation:rule="[has(self.functionRef), has(self.functionName)].filter(x, x).size() == 1",message="set exactly one of functionRef and functionName"
// +kubebuilder:validation:XValidation:rule="!has(self.routingConfig) || !has(self.routingConfig.additionalVersionWeights) || size(self.routingConfig.additionalVersionWeights) == 0 || self.functionVersion != '$LATEST'",message="a routing configuration needs a published functionVersion, not $LATEST"
// +kubebuilder:validation:XValidation:rule="!has(self.routingConfig) || !has(self.routingConfig.additionalVersionWeights) || !(self.functionVersion in self.routingConfig.additionalVersionWeights)",message="the additional version must differ from functionVersion"
type LambdaAliasSpec struct {
	shared.ManagedSpec `json:",inline"`

	// FunctionRef names the LambdaFunction object in this namespace the alias belongs to; the
	// alias waits until it is Ready. It cannot change.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="functionRef cannot change; create a new LambdaAlias"
	FunctionRef *shared.Reference `json:"functionRef,omitempty"`

	// FunctionName is the function's name or ARN, for a function made outside this namespace.
	// It cannot change.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=140
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="functionName cannot change; create a new LambdaAlias"
	FunctionName string `json:"functionName,omitempty"`

	// Name is the alias's name. It cannot change.
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9_-]{1,128}$`
	// +kubebuilder:validation:XValidation:rule="!self.matches('^[0-9]+$')",message="an alias name cannot be only digits (that is a version number)"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="name cannot change; create a new LambdaAlias"
	Name string `json:"name"`

	// FunctionVersion is the version the alias points to: $LATEST or a published version.
	// +kubebuilder:validation:Pattern=`^(\$LATEST|[0-9]+)$`
	FunctionVersion string `json:"functionVersion"`

	// Description describes the alias.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	Description string `json:"description,omitempty"`

	// RoutingConfig sends a share of the alias's invocations to a second version.
	// +optional
	RoutingConfig *LambdaAliasRoutingConfig `json:"routingConfig,omitempty"`
}

// LambdaAliasRoutingConfig is an alias's traffic shift to a second version.
type LambdaAliasRoutingConfig struct {
	// AdditionalVersionWeights maps one published version to the share of invocations it
	// receives, a decimal from 0 to 1 written as a string (for example "0.1" for 10%).
	// +optional
	// +kubebuilder:validation:MaxProperties=1
	// +kubebuilder:validation:XValidation:rule="self.all(k, k.matches('^[0-9]+$') && self[k].matches('^(0(\\\\.[0-9]{1,6})?|1(\\\\.0{1,6})?)$'))",message="each key is a published version number, each value a weight from 0 to 1 such as \"0.1\""
	AdditionalVersionWeights map[string]string `json:"additionalVersionWeights,omitempty"`
}

// LambdaAliasStatus is the observed state of a Lambda alias.
type LambdaAliasStatus struct {
	shared.ManagedStatus `json:",inline"`

	// AliasARN is the alias's ARN, the function's ARN qualified by the alias name.
	// +optional
	AliasARN string `json:"aliasARN,omitempty" output:""`

	// FunctionVersion is the version the alias points to.
	// +optional
	FunctionVersion string `json:"functionVersion,omitempty"`

	// RevisionID is the alias's revision.
	// +optional
	RevisionID string `json:"revisionID,omitempty"`
}

// LambdaAlias is an alias of a Lambda function. Lambda aliases carry no tags: an alias the
// operator did not create is adopted only with the external-name annotation.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-compute}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="VERSION",type=string,JSONPath=`.status.functionVersion`
// +kubebuilder:printcolumn:name="ARN",type=string,JSONPath=`.status.aliasARN`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type LambdaAlias struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   LambdaAliasSpec   `json:"spec"`
	Status LambdaAliasStatus `json:"status,omitempty"`
}

// LambdaAliasList is a list of LambdaAliases.
// +kubebuilder:object:root=true
type LambdaAliasList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []LambdaAlias `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (l *LambdaAlias) GetManagedSpec() *shared.ManagedSpec { return &l.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (l *LambdaAlias) GetManagedStatus() *shared.ManagedStatus { return &l.Status.ManagedStatus }
