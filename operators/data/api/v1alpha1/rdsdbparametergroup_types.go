package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// Scopes of an RDSDBParameterGroup (spec.scope).
const (
	// ParameterGroupScopeInstance is a DB parameter group, for RDSInstance objects.
	ParameterGroupScopeInstance = "Instance"
	// ParameterGroupScopeCluster is a DB cluster parameter group, for RDSDBCluster objects.
	ParameterGroupScopeCluster = "Cluster"
)

// RDSDBParameterGroupSpec is the desired state of an RDSDBParameterGroup: a custom DB parameter
// group of one family and the parameters it sets, for RDSInstance objects that name it with
// dbParameterGroupRef, or, of scope Cluster, a DB cluster parameter group for RDSDBCluster
// objects that name it with dbClusterParameterGroupRef.
type RDSDBParameterGroupSpec struct {
	shared.ManagedSpec `json:",inline"`

	// Scope is Instance for a DB parameter group (RDSInstance's dbParameterGroupRef) or
	// Cluster for a DB cluster parameter group (RDSDBCluster's dbClusterParameterGroupRef):
	// RDS keeps the two apart, under the same families. It cannot change.
	// +optional
	// +kubebuilder:default=Instance
	// +kubebuilder:validation:Enum=Instance;Cluster
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="scope cannot change; create a new RDSDBParameterGroup of the other scope"
	Scope string `json:"scope,omitempty"`

	// Name is the group's name in AWS, unique in the account and region: 1 to 255 letters,
	// digits and hyphens, starting with a letter, not ending with a hyphen nor holding two in a
	// row; RDS keeps it in lower case. When absent the object's name is used. It cannot change.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[a-zA-Z](?:[a-zA-Z0-9]|-[a-zA-Z0-9])*$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="name cannot change; create a new RDSDBParameterGroup"
	Name string `json:"name,omitempty"`

	// Family is the DB parameter group family: the engine and major version the group is for,
	// for example postgres17 or mysql8.0, or aurora-postgresql16 for a cluster group. It cannot
	// change.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="family cannot change; create a new RDSDBParameterGroup for the other family"
	Family string `json:"family"`

	// Description describes the group. RDS cannot change it once the group exists.
	// +optional
	// +kubebuilder:default="Managed by infra-operator"
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="description cannot change: RDS cannot change a parameter group's description"
	Description string `json:"description,omitempty"`

	// Parameters are the parameters the group sets, as a set by name: parameters the spec
	// adds or changes are modified, parameters it no longer names return to the engine's
	// defaults, and a value changed outside the operator is put back. Parameters not named keep
	// the engine's defaults.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=400
	Parameters []DBParameter `json:"parameters,omitempty"`
}

// DBParameter is one parameter of a DB parameter group.
type DBParameter struct {
	// Name is the parameter's name, for example max_connections or shared_buffers.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	Name string `json:"name"`

	// Value is the parameter's value, as RDS takes it (a number, a word, a list).
	// +kubebuilder:validation:MaxLength=4096
	Value string `json:"value"`

	// ApplyMethod is immediate (a dynamic parameter, applied to running instances at once) or
	// pending-reboot (applied when each instance of the group reboots; the only method static
	// parameters take). When absent the operator uses immediate for dynamic parameters and
	// pending-reboot for static ones, as RDS reports each parameter's apply type.
	// +optional
	// +kubebuilder:validation:Enum=immediate;pending-reboot
	ApplyMethod string `json:"applyMethod,omitempty"`
}

// RDSDBParameterGroupStatus is the observed state of an RDSDBParameterGroup.
type RDSDBParameterGroupStatus struct {
	shared.ManagedStatus `json:",inline"`

	// Name is the group's name in AWS; references to the RDSDBParameterGroup resolve to it.
	// +optional
	Name string `json:"name,omitempty" output:""`

	// ARN is the group's ARN.
	// +optional
	ARN string `json:"arn,omitempty" output:""`
}

// RDSDBParameterGroup is a custom RDS DB parameter group, managed by the data family.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-data}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="NAME",type=string,JSONPath=`.status.name`
// +kubebuilder:printcolumn:name="FAMILY",type=string,JSONPath=`.spec.family`
// +kubebuilder:printcolumn:name="SCOPE",type=string,JSONPath=`.spec.scope`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type RDSDBParameterGroup struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RDSDBParameterGroupSpec   `json:"spec"`
	Status RDSDBParameterGroupStatus `json:"status,omitempty"`
}

// RDSDBParameterGroupList is a list of RDSDBParameterGroups.
// +kubebuilder:object:root=true
type RDSDBParameterGroupList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []RDSDBParameterGroup `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (r *RDSDBParameterGroup) GetManagedSpec() *shared.ManagedSpec { return &r.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (r *RDSDBParameterGroup) GetManagedStatus() *shared.ManagedStatus {
	return &r.Status.ManagedStatus
}
