package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// IAMRoleSpec is the desired state of an IAM role.
type IAMRoleSpec struct {
	shared.ManagedSpec `json:",inline"`

	// RoleName is the role's name in the account (IAM is global: one name per account). It
	// cannot change.
	// +kubebuilder:validation:Pattern=`^[\w+=,.@-]{1,64}$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="roleName cannot change; create a new IAMRole"
	RoleName string `json:"roleName"`

	// Path is the role's path, / unless given (for example /service-roles/). It cannot change.
	// +optional
	// +kubebuilder:default="/"
	// +kubebuilder:validation:Pattern=`^/([\x21-\x7E]{0,510}/)?$`
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="path cannot change; create a new IAMRole"
	Path string `json:"path,omitempty"`

	// Description describes the role.
	// +optional
	// +kubebuilder:validation:MaxLength=1000
	Description string `json:"description,omitempty"`

	// AssumeRolePolicyDocument is the trust policy, as JSON: who may assume the role. It is
	// compared as a policy, not as text.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	AssumeRolePolicyDocument string `json:"assumeRolePolicyDocument"`

	// ManagedPolicyARNs are the managed policies attached to the role, as a set: a policy
	// attached outside the operator is detached.
	// +optional
	// +kubebuilder:validation:MaxItems=20
	// +listType=set
	// +kubebuilder:validation:items:Pattern=`^arn:aws[a-z-]*:iam::(aws|\d{12}):policy/`
	ManagedPolicyARNs []string `json:"managedPolicyARNs,omitempty"`

	// PolicyRefs name IAMPolicy objects of this namespace whose customer managed policies are
	// attached to the role, with managedPolicyARNs (the same set, the same guardrail check); the
	// role waits until each is Ready.
	// +optional
	// +kubebuilder:validation:MaxItems=20
	PolicyRefs []shared.Reference `json:"policyRefs,omitempty"`

	// InlinePolicies are the role's inline policies, as a set by name: one added outside the
	// operator is deleted.
	// +optional
	// +kubebuilder:validation:MaxItems=50
	// +listType=map
	// +listMapKey=policyName
	InlinePolicies []InlinePolicy `json:"inlinePolicies,omitempty"`

	// MaxSessionDuration is the longest session, in seconds, that assuming the role gives:
	// 3600 (the default) to 43200.
	// +optional
	// +kubebuilder:validation:Minimum=3600
	// +kubebuilder:validation:Maximum=43200
	MaxSessionDuration int32 `json:"maxSessionDuration,omitempty"`

	// PermissionsBoundary is the ARN of the managed policy that bounds the role's permissions.
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:iam::(aws|\d{12}):policy/`
	PermissionsBoundary string `json:"permissionsBoundary,omitempty"`

	// InstanceProfile makes an instance profile of the role's name holding the role, which an
	// EC2 instance names to run with the role (spec.iamInstanceProfile of an EC2Instance).
	// +optional
	InstanceProfile bool `json:"instanceProfile,omitempty"`
}

// InlinePolicy is a policy embedded in the role.
type InlinePolicy struct {
	// PolicyName is the policy's name within the role.
	// +kubebuilder:validation:Pattern=`^[\w+=,.@-]{1,128}$`
	PolicyName string `json:"policyName"`

	// PolicyDocument is the policy, as JSON. It is compared as a policy, not as text.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=10240
	PolicyDocument string `json:"policyDocument"`
}

// IAMRoleStatus is the observed state of an IAM role.
type IAMRoleStatus struct {
	shared.ManagedStatus `json:",inline"`

	// RoleName is the role's name.
	// +optional
	RoleName string `json:"roleName,omitempty" output:""`

	// ARN is the role's ARN, which other kinds' roleARN fields take.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// RoleID is the role's unique id (AROA...).
	// +optional
	RoleID string `json:"roleID,omitempty" output:""`

	// AttachedPolicies is how many managed policies are attached to the role.
	// +optional
	AttachedPolicies int32 `json:"attachedPolicies,omitempty"`

	// InstanceProfileARN is the ARN of the role's instance profile, with spec.instanceProfile.
	// +optional
	InstanceProfileARN string `json:"instanceProfileARN,omitempty" output:""`

	// CreateDate is when the role was created. IAM is eventually consistent: a new role is
	// Ready only once the propagation time has passed since, so that services that assume it
	// (Lambda, EC2) find it.
	// +optional
	CreateDate *metav1.Time `json:"createDate,omitempty"`
}

// IAMRole is an IAM role with its trust policy, managed and inline policies, and optionally an
// instance profile.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=role,categories={aws,aws-security}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="ROLE",type=string,JSONPath=`.status.roleName`
// +kubebuilder:printcolumn:name="POLICIES",type=integer,JSONPath=`.status.attachedPolicies`
// +kubebuilder:printcolumn:name="ARN",type=string,JSONPath=`.status.arn`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type IAMRole struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   IAMRoleSpec   `json:"spec"`
	Status IAMRoleStatus `json:"status,omitempty"`
}

// IAMRoleList is a list of IAMRoles.
// +kubebuilder:object:root=true
type IAMRoleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []IAMRole `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (r *IAMRole) GetManagedSpec() *shared.ManagedSpec { return &r.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (r *IAMRole) GetManagedStatus() *shared.ManagedStatus { return &r.Status.ManagedStatus }
