package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// IAMInstanceProfileSpec is the desired state of an IAM instance profile.
// +kubebuilder:validation:XValidation:rule="!(has(self.roleName) && has(self.roleRef))",message="set at most one of roleName and roleRef"
type IAMInstanceProfileSpec struct {
	shared.ManagedSpec `json:",inline"`

	// InstanceProfileName is the instance profile's name in the account, which an EC2
	// instance names (spec.iamInstanceProfile of an EC2Instance). It cannot change.
	// +kubebuilder:validation:Pattern=`^[\w+=,.@-]{1,128}$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="instanceProfileName cannot change; create a new IAMInstanceProfile"
	InstanceProfileName string `json:"instanceProfileName"`

	// Path is the instance profile's path, / unless given. It cannot change.
	// +optional
	// +kubebuilder:default="/"
	// +kubebuilder:validation:Pattern=`^/([\x21-\x7E]{0,510}/)?$`
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="path cannot change; create a new IAMInstanceProfile"
	Path string `json:"path,omitempty"`

	// RoleName is the name of the role the instance profile holds (an instance profile holds
	// at most one), which EC2 instances started with the profile run with. The role is passed
	// to EC2: the administrator's pass-role rule (--passable-roles) applies to it.
	// +optional
	// +kubebuilder:validation:Pattern=`^[\w+=,.@-]{1,64}$`
	RoleName string `json:"roleName,omitempty"`

	// RoleRef names the IAMRole object in this namespace whose role the instance profile
	// holds, in place of roleName; the instance profile waits until it is Ready.
	// +optional
	RoleRef *shared.Reference `json:"roleRef,omitempty"`
}

// IAMInstanceProfileStatus is the observed state of an IAM instance profile.
type IAMInstanceProfileStatus struct {
	shared.ManagedStatus `json:",inline"`

	// InstanceProfileName is the instance profile's name, what an EC2 instance names.
	// +optional
	InstanceProfileName string `json:"instanceProfileName,omitempty" output:""`

	// ARN is the instance profile's ARN.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// InstanceProfileID is the instance profile's unique id (AIPA...).
	// +optional
	InstanceProfileID string `json:"instanceProfileID,omitempty" output:""`

	// RoleName is the name of the role the instance profile holds.
	// +optional
	RoleName string `json:"roleName,omitempty"`
}

// IAMInstanceProfile is an IAM instance profile holding a role, which EC2 instances name to run
// with the role.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-security}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="ROLE",type=string,JSONPath=`.status.roleName`
// +kubebuilder:printcolumn:name="ARN",type=string,JSONPath=`.status.arn`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type IAMInstanceProfile struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   IAMInstanceProfileSpec   `json:"spec"`
	Status IAMInstanceProfileStatus `json:"status,omitempty"`
}

// IAMInstanceProfileList is a list of IAMInstanceProfiles.
// +kubebuilder:object:root=true
type IAMInstanceProfileList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []IAMInstanceProfile `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (i *IAMInstanceProfile) GetManagedSpec() *shared.ManagedSpec { return &i.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (i *IAMInstanceProfile) GetManagedStatus() *shared.ManagedStatus { return &i.Status.ManagedStatus }
