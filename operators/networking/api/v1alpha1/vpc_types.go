package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// VPCSpec is the desired state of a VPC.
type VPCSpec struct {
	shared.ManagedSpec `json:",inline"`

	// CIDRBlock is the VPC's IPv4 range, from /16 to /28. It cannot change.
	// +kubebuilder:validation:MaxLength=18
	// +kubebuilder:validation:XValidation:rule="isCIDR(self) && cidr(self).ip().family() == 4",message="cidrBlock must be an IPv4 CIDR such as 10.0.0.0/16"
	// +kubebuilder:validation:XValidation:rule="!isCIDR(self) || (cidr(self).prefixLength() >= 16 && cidr(self).prefixLength() <= 28)",message="a VPC's prefix length is /16 to /28"
	// +kubebuilder:validation:XValidation:rule="!isCIDR(self) || cidr(self).masked() == cidr(self)",message="cidrBlock has host bits set; use the network address (for example 10.0.0.0/16)"
	CIDRBlock string `json:"cidrBlock"`

	// EnableDNSSupport turns the Amazon DNS server on (AWS's default: true).
	// +optional
	// +kubebuilder:default=true
	EnableDNSSupport *bool `json:"enableDnsSupport,omitempty"`

	// EnableDNSHostnames gives instances public DNS names (AWS's default: false).
	// +optional
	// +kubebuilder:default=false
	EnableDNSHostnames *bool `json:"enableDnsHostnames,omitempty"`

	// InstanceTenancy is default or dedicated. It cannot change.
	// +optional
	// +kubebuilder:validation:Enum=default;dedicated
	InstanceTenancy string `json:"instanceTenancy,omitempty"`
}

// VPCStatus is the observed state of a VPC.
type VPCStatus struct {
	shared.ManagedStatus `json:",inline"`

	// VPCID is the VPC's id, for example vpc-0a1b2c3d4e5f60718.
	// +optional
	VPCID string `json:"vpcID,omitempty" output:""`

	// CIDRBlock is the VPC's IPv4 range.
	// +optional
	CIDRBlock string `json:"cidrBlock,omitempty" output:""`

	// State is pending or available.
	// +optional
	State string `json:"state,omitempty"`
}

// VPC is an Amazon VPC. Its CIDR block and tenancy can be corrected until the VPC exists in
// AWS, and not after.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.vpcID) || (self.spec.cidrBlock == oldSelf.spec.cidrBlock && has(self.spec.instanceTenancy) == has(oldSelf.spec.instanceTenancy) && (!has(self.spec.instanceTenancy) || self.spec.instanceTenancy == oldSelf.spec.instanceTenancy))",message="cidrBlock and instanceTenancy cannot change once the VPC exists; create a new VPC"
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-networking}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="VPC",type=string,JSONPath=`.status.vpcID`
// +kubebuilder:printcolumn:name="CIDR",type=string,JSONPath=`.spec.cidrBlock`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type VPC struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   VPCSpec   `json:"spec"`
	Status VPCStatus `json:"status,omitempty"`
}

// VPCList is a list of VPCs.
// +kubebuilder:object:root=true
type VPCList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []VPC `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (v *VPC) GetManagedSpec() *shared.ManagedSpec { return &v.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (v *VPC) GetManagedStatus() *shared.ManagedStatus { return &v.Status.ManagedStatus }
