package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// SubnetSpec is the desired state of a subnet.
// +kubebuilder:validation:XValidation:rule="[has(self.vpcID), has(self.vpcRef)].filter(x, x).size() == 1",message="set exactly one of vpcID and vpcRef"
type SubnetSpec struct {
	shared.ManagedSpec `json:",inline"`

	// VPCID is the id of the VPC, for a VPC made outside this cluster.
	// +optional
	// +kubebuilder:validation:Pattern=`^vpc-[0-9a-z]+$`
	VPCID string `json:"vpcID,omitempty"`

	// VPCRef names the VPC object in this namespace; the subnet waits until it is Ready.
	// +optional
	VPCRef *shared.Reference `json:"vpcRef,omitempty"`

	// CIDRBlock is the subnet's IPv4 range, inside the VPC's, from /16 to /28. It cannot
	// change.
	// +kubebuilder:validation:MaxLength=18
	// +kubebuilder:validation:XValidation:rule="isCIDR(self) && cidr(self).ip().family() == 4",message="cidrBlock must be an IPv4 CIDR such as 10.0.1.0/24"
	// +kubebuilder:validation:XValidation:rule="!isCIDR(self) || (cidr(self).prefixLength() >= 16 && cidr(self).prefixLength() <= 28)",message="a subnet's prefix length is /16 to /28"
	// +kubebuilder:validation:XValidation:rule="!isCIDR(self) || cidr(self).masked() == cidr(self)",message="cidrBlock has host bits set; use the network address (for example 10.0.1.0/24)"
	CIDRBlock string `json:"cidrBlock"`

	// AvailabilityZone is the zone, for example us-east-1a; empty lets AWS choose. It cannot
	// change.
	// +optional
	// +kubebuilder:validation:Pattern=`^[a-z]{2}(-gov)?-[a-z]+-[0-9][a-z]$`
	AvailabilityZone string `json:"availabilityZone,omitempty"`

	// MapPublicIPOnLaunch gives instances launched in the subnet a public IPv4 address.
	// +optional
	MapPublicIPOnLaunch bool `json:"mapPublicIpOnLaunch,omitempty"`
}

// SubnetStatus is the observed state of a subnet.
type SubnetStatus struct {
	shared.ManagedStatus `json:",inline"`

	// SubnetID is the subnet's id, for example subnet-0a1b2c3d4e5f60718.
	// +optional
	SubnetID string `json:"subnetID,omitempty" output:""`

	// VPCID is the id of the subnet's VPC.
	// +optional
	VPCID string `json:"vpcID,omitempty" output:""`

	// AvailabilityZone is the subnet's zone.
	// +optional
	AvailabilityZone string `json:"availabilityZone,omitempty" output:""`

	// State is pending or available.
	// +optional
	State string `json:"state,omitempty"`

	// AvailableIPAddressCount is how many IPv4 addresses of the subnet are free.
	// +optional
	AvailableIPAddressCount int32 `json:"availableIpAddressCount,omitempty"`
}

// Subnet is a subnet of a VPC. Its VPC, CIDR block and availability zone can be corrected
// until the subnet exists in AWS (a placeholder vpcID replaced by the real one, for example),
// and not after.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.subnetID) || (self.spec.cidrBlock == oldSelf.spec.cidrBlock && has(self.spec.availabilityZone) == has(oldSelf.spec.availabilityZone) && (!has(self.spec.availabilityZone) || self.spec.availabilityZone == oldSelf.spec.availabilityZone))",message="cidrBlock and availabilityZone cannot change once the subnet exists; create a new Subnet"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.subnetID) || (has(self.spec.vpcID) == has(oldSelf.spec.vpcID) && (!has(self.spec.vpcID) || self.spec.vpcID == oldSelf.spec.vpcID) && has(self.spec.vpcRef) == has(oldSelf.spec.vpcRef) && (!has(self.spec.vpcRef) || self.spec.vpcRef.name == oldSelf.spec.vpcRef.name))",message="the VPC of a subnet cannot change once the subnet exists; create a new Subnet"
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-networking}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="SUBNET",type=string,JSONPath=`.status.subnetID`
// +kubebuilder:printcolumn:name="CIDR",type=string,JSONPath=`.spec.cidrBlock`
// +kubebuilder:printcolumn:name="AZ",type=string,JSONPath=`.status.availabilityZone`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type Subnet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   SubnetSpec   `json:"spec"`
	Status SubnetStatus `json:"status,omitempty"`
}

// SubnetList is a list of Subnets.
// +kubebuilder:object:root=true
type SubnetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Subnet `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (s *Subnet) GetManagedSpec() *shared.ManagedSpec { return &s.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (s *Subnet) GetManagedStatus() *shared.ManagedStatus { return &s.Status.ManagedStatus }
