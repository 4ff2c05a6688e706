package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// IAMPolicySpec is the desired state of a customer managed IAM policy.
// +kubebuilder:validation:XValidation:rule="has(self.description) == has(oldSelf.description) && (!has(self.description) || self.description == oldSelf.description)",message="description cannot change: IAM has no call that changes a managed policy's description; create a new IAMPolicy"
type IAMPolicySpec struct {
	shared.ManagedSpec `json:",inline"`

	// PolicyName is the policy's name in the account (IAM is global: one name per account).
	// It cannot change.
	// +kubebuilder:validation:Pattern=`^[\w+=,.@-]{1,128}$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="policyName cannot change; create a new IAMPolicy"
	PolicyName string `json:"policyName"`

	// Path is the policy's path, / unless given (for example /team-a/). It cannot change.
	// +optional
	// +kubebuilder:default="/"
	// +kubebuilder:validation:Pattern=`^/([\x21-\x7E]{0,510}/)?$`
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="path cannot change; create a new IAMPolicy"
	Path string `json:"path,omitempty"`

	// Description describes the policy. IAM sets it at creation only: it cannot change.
	// +optional
	// +kubebuilder:validation:MaxLength=1000
	Description string `json:"description,omitempty"`

	// PolicyDocument is the policy, as JSON. It is compared as a policy, not as text: a change
	// creates a new version of the policy and makes it the default (IAM keeps five versions;
	// the oldest non-default one is deleted first when five exist).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=6144
	PolicyDocument string `json:"policyDocument"`
}

// IAMPolicyStatus is the observed state of a customer managed IAM policy.
type IAMPolicyStatus struct {
	shared.ManagedStatus `json:",inline"`

	// ARN is the policy's ARN, which references to the IAMPolicy (an IAMRole's policyRefs)
	// resolve to.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// PolicyID is the policy's unique id (ANPA...).
	// +optional
	PolicyID string `json:"policyID,omitempty" output:""`

	// DefaultVersionID is the id of the policy's default version (v1, v2, ...).
	// +optional
	DefaultVersionID string `json:"defaultVersionID,omitempty" output:""`

	// AttachmentCount is how many roles, users and groups the policy is attached to. A policy
	// that is attached is not deleted: its deletion waits (DeleteConflict) until it is detached.
	// +optional
	AttachmentCount int32 `json:"attachmentCount,omitempty"`
}

// IAMPolicy is a customer managed IAM policy, which IAMRoles attach (managedPolicyARNs,
// policyRefs).
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-security}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="VERSION",type=string,JSONPath=`.status.defaultVersionID`
// +kubebuilder:printcolumn:name="ATTACHMENTS",type=integer,JSONPath=`.status.attachmentCount`
// +kubebuilder:printcolumn:name="ARN",type=string,JSONPath=`.status.arn`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type IAMPolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   IAMPolicySpec   `json:"spec"`
	Status IAMPolicyStatus `json:"status,omitempty"`
}

// IAMPolicyList is a list of IAMPolicies.
// +kubebuilder:object:root=true
type IAMPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []IAMPolicy `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (i *IAMPolicy) GetManagedSpec() *shared.ManagedSpec { return &i.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (i *IAMPolicy) GetManagedStatus() *shared.ManagedStatus { return &i.Status.ManagedStatus }
