package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// ElastiCacheParameterGroupSpec is the desired state of an ElastiCacheParameterGroup: a custom
// cache parameter group of one family and the parameters it sets, for ElastiCacheCluster objects
// that name it with parameterGroupRef.
type ElastiCacheParameterGroupSpec struct {
	shared.ManagedSpec `json:",inline"`

	// Name is the group's name in AWS, unique in the account and region: 1 to 255 letters,
	// digits and hyphens, starting with a letter, not ending with a hyphen nor holding two in a
	// row; ElastiCache keeps it in lower case. When absent the object's name is used. It cannot
	// change.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[a-zA-Z](?:[a-zA-Z0-9]|-[a-zA-Z0-9])*$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="name cannot change; create a new ElastiCacheParameterGroup"
	Name string `json:"name,omitempty"`

	// Family is the cache parameter group family: the engine and major version the group is
	// for, for example redis7, valkey8 or memcached1.6. A cluster can use the group only when it
	// runs an engine version of that family. It cannot change.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^(redis|valkey|memcached)[0-9][0-9.x]*$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="family cannot change; create a new ElastiCacheParameterGroup for the other family"
	Family string `json:"family"`

	// Description describes the group. The operator does not change it once the group exists.
	// +optional
	// +kubebuilder:default="Managed by infra-operator"
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="description cannot change once the group exists"
	Description string `json:"description,omitempty"`

	// Parameters are the parameters the group sets, as a set by name: parameters the spec adds
	// or changes are modified (20 a call), parameters it no longer names return to the family's
	// defaults, and a value changed outside the operator is put back. Parameters not named keep
	// the family's defaults. A change of a parameter whose change type is requires-reboot
	// reaches a cluster once its nodes reboot: the cluster's status.parameterApplyStatus says
	// pending-reboot until then, and the operator never reboots a cluster by itself.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=200
	Parameters []CacheParameter `json:"parameters,omitempty"`
}

// CacheParameter is one parameter of a cache parameter group.
type CacheParameter struct {
	// Name is the parameter's name, for example maxmemory-policy, timeout or max_item_size.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	Name string `json:"name"`

	// Value is the parameter's value, as ElastiCache takes it (a number, a word, a list of
	// flags).
	// +kubebuilder:validation:MaxLength=4096
	Value string `json:"value"`
}

// ElastiCacheParameterGroupStatus is the observed state of an ElastiCacheParameterGroup.
type ElastiCacheParameterGroupStatus struct {
	shared.ManagedStatus `json:",inline"`

	// Name is the group's name in AWS; references to the ElastiCacheParameterGroup resolve to
	// it.
	// +optional
	Name string `json:"name,omitempty" output:""`

	// ARN is the group's ARN.
	// +optional
	ARN string `json:"arn,omitempty" output:""`
}

// ElastiCacheParameterGroup is a custom ElastiCache cache parameter group, managed by the caching
// family.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-caching}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="NAME",type=string,JSONPath=`.status.name`
// +kubebuilder:printcolumn:name="FAMILY",type=string,JSONPath=`.spec.family`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type ElastiCacheParameterGroup struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ElastiCacheParameterGroupSpec   `json:"spec"`
	Status ElastiCacheParameterGroupStatus `json:"status,omitempty"`
}

// ElastiCacheParameterGroupList is a list of ElastiCacheParameterGroups.
// +kubebuilder:object:root=true
type ElastiCacheParameterGroupList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ElastiCacheParameterGroup `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (g *ElastiCacheParameterGroup) GetManagedSpec() *shared.ManagedSpec { return &g.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (g *ElastiCacheParameterGroup) GetManagedStatus() *shared.ManagedStatus {
	return &g.Status.ManagedStatus
}
