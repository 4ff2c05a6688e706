package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// ElasticIPSpec is the desired state of an Elastic IP address.
type ElasticIPSpec struct {
	shared.ManagedSpec `json:",inline"`

	// Domain is vpc, the only domain AWS still allocates addresses in. It cannot change.
	// +optional
	// +kubebuilder:default=vpc
	// +kubebuilder:validation:Enum=vpc
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="domain cannot change"
	Domain string `json:"domain,omitempty"`
}

// ElasticIPStatus is the observed state of an Elastic IP address.
type ElasticIPStatus struct {
	shared.ManagedStatus `json:",inline"`

	// AllocationID is the address's allocation id, for example eipalloc-0a1b2c3d4e5f60718;
	// references (allocationRef) resolve to it.
	// +optional
	AllocationID string `json:"allocationID,omitempty" output:""`

	// PublicIP is the public IPv4 address.
	// +optional
	PublicIP string `json:"publicIP,omitempty" output:""`
}

// ElasticIP is an Elastic IP address, for a NAT gateway (allocationRef) for example. AWS
// refuses to release an address while something uses it; the ElasticIP then waits with
// DependencyViolation until it is free.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=eip,categories={aws,aws-networking}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="ALLOCATION",type=string,JSONPath=`.status.allocationID`
// +kubebuilder:printcolumn:name="PUBLIC-IP",type=string,JSONPath=`.status.publicIP`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type ElasticIP struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ElasticIPSpec   `json:"spec"`
	Status ElasticIPStatus `json:"status,omitempty"`
}

// ElasticIPList is a list of ElasticIPs.
// +kubebuilder:object:root=true
type ElasticIPList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ElasticIP `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (e *ElasticIP) GetManagedSpec() *shared.ManagedSpec { return &e.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (e *ElasticIP) GetManagedStatus() *shared.ManagedStatus { return &e.Status.ManagedStatus }
