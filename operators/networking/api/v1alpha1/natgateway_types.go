package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// NATGatewaySpec is the desired state of a NAT gateway.
// +kubebuilder:validation:XValidation:rule="[has(self.subnetID), has(self.subnetRef)].filter(x, x).size() == 1",message="set exactly one of subnetID and subnetRef"
// +kubebuilder:validation:XValidation:rule="!(has(self.allocationID) && has(self.allocationRef))",message="set at most one of allocationID and allocationRef"
// +kubebuilder:validation:XValidation:rule="!has(self.connectivityType) || self.connectivityType != 'private' || (!has(self.allocationID) && !has(self.allocationRef))",message="a private NAT gateway has no Elastic IP; remove allocationID and allocationRef"
type NATGatewaySpec struct {
	shared.ManagedSpec `json:",inline"`

	// SubnetID is the id of the subnet to place the gateway in (a public subnet for a public
	// gateway), for a subnet made outside this cluster.
	// +optional
	// +kubebuilder:validation:Pattern=`^subnet-[0-9a-z-]+$`
	SubnetID string `json:"subnetID,omitempty"`

	// SubnetRef names the Subnet object in this namespace to place the gateway in; the gateway
	// waits until it is Ready.
	// +optional
	SubnetRef *shared.Reference `json:"subnetRef,omitempty"`

	// ConnectivityType is public (traffic leaves through an internet gateway, with an Elastic
	// IP) or private (to other VPCs and on-premises networks, no Elastic IP). It cannot change
	// once the gateway exists.
	// +optional
	// +kubebuilder:default=public
	// +kubebuilder:validation:Enum=public;private
	ConnectivityType string `json:"connectivityType,omitempty"`

	// AllocationID is the allocation id of an Elastic IP made outside this cluster, for a
	// public gateway. Without it and without allocationRef, the operator allocates an
	// address for the gateway and releases it after the gateway is deleted.
	// +optional
	// +kubebuilder:validation:Pattern=`^eipalloc-[0-9a-z-]+$`
	AllocationID string `json:"allocationID,omitempty"`

	// AllocationRef names the ElasticIP object in this namespace whose address the public
	// gateway uses; the gateway waits until it is Ready.
	// +optional
	AllocationRef *shared.Reference `json:"allocationRef,omitempty"`
}

// NATGatewayStatus is the observed state of a NAT gateway.
type NATGatewayStatus struct {
	shared.ManagedStatus `json:",inline"`

	// NATGatewayID is the gateway's id, for example nat-0a1b2c3d4e5f60718.
	// +optional
	NATGatewayID string `json:"natGatewayID,omitempty" output:""`

	// SubnetID is the id of the subnet the gateway is in.
	// +optional
	SubnetID string `json:"subnetID,omitempty" output:""`

	// PublicIP is the gateway's Elastic IP address (public gateways).
	// +optional
	PublicIP string `json:"publicIP,omitempty" output:""`

	// PrivateIP is the gateway's private address in its subnet.
	// +optional
	PrivateIP string `json:"privateIP,omitempty" output:""`

	// State is pending, available, failed, deleting or deleted.
	// +optional
	State string `json:"state,omitempty"`

	// AllocationID is the allocation id of the gateway's Elastic IP: the spec's, or the one
	// the operator allocated for it.
	// +optional
	AllocationID string `json:"allocationID,omitempty" output:""`

	// FailureCode is AWS's code for why the gateway failed, for example Gateway.NotAttached.
	// +optional
	FailureCode string `json:"failureCode,omitempty"`

	// FailureMessage is AWS's explanation of why the gateway failed.
	// +optional
	FailureMessage string `json:"failureMessage,omitempty"`
}

// NATGateway is a NAT gateway in a subnet. Its subnet, connectivity type and Elastic IP can be
// corrected until the gateway exists in AWS (a placeholder subnetID replaced by the real one,
// for example), and after it failed or was deleted, and not otherwise.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.natGatewayID) || (has(oldSelf.status.state) && oldSelf.status.state in ['failed', 'deleted']) || (has(self.spec.connectivityType) == has(oldSelf.spec.connectivityType) && (!has(self.spec.connectivityType) || self.spec.connectivityType == oldSelf.spec.connectivityType))",message="connectivityType cannot change once the NAT gateway exists; create a new NATGateway"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.natGatewayID) || (has(oldSelf.status.state) && oldSelf.status.state in ['failed', 'deleted']) || (has(self.spec.subnetID) == has(oldSelf.spec.subnetID) && (!has(self.spec.subnetID) || self.spec.subnetID == oldSelf.spec.subnetID) && has(self.spec.subnetRef) == has(oldSelf.spec.subnetRef) && (!has(self.spec.subnetRef) || self.spec.subnetRef.name == oldSelf.spec.subnetRef.name))",message="the subnet of a NAT gateway cannot change once the gateway exists; create a new NATGateway"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.natGatewayID) || (has(oldSelf.status.state) && oldSelf.status.state in ['failed', 'deleted']) || (has(self.spec.allocationID) == has(oldSelf.spec.allocationID) && (!has(self.spec.allocationID) || self.spec.allocationID == oldSelf.spec.allocationID) && has(self.spec.allocationRef) == has(oldSelf.spec.allocationRef) && (!has(self.spec.allocationRef) || self.spec.allocationRef.name == oldSelf.spec.allocationRef.name))",message="the Elastic IP of a NAT gateway cannot change once the gateway exists; create a new NATGateway"
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=natgw,categories={aws,aws-networking}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="GATEWAY",type=string,JSONPath=`.status.natGatewayID`
// +kubebuilder:printcolumn:name="STATE",type=string,JSONPath=`.status.state`
// +kubebuilder:printcolumn:name="PUBLIC-IP",type=string,JSONPath=`.status.publicIP`
// +kubebuilder:printcolumn:name="SUBNET",type=string,JSONPath=`.status.subnetID`,priority=1
// +kubebuilder:printcolumn:name="PRIVATE-IP",type=string,JSONPath=`.status.privateIP`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type NATGateway struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   NATGatewaySpec   `json:"spec"`
	Status NATGatewayStatus `json:"status,omitempty"`
}

// NATGatewayList is a list of NATGateways.
// +kubebuilder:object:root=true
type NATGatewayList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []NATGateway `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (g *NATGateway) GetManagedSpec() *shared.ManagedSpec { return &g.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (g *NATGateway) GetManagedStatus() *shared.ManagedStatus { return &g.Status.ManagedStatus }
