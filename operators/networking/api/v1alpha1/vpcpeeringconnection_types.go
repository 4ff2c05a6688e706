package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// VPCPeeringConnectionSpec is the desired state of a VPC peering connection between the
// requester VPC (vpcRef or vpcID, in the provider's account and region) and a peer VPC in the
// same region: a VPC of this namespace (peerVPCRef), or one named by id (peerVPCID), of the same
// account or of another (peerOwnerID). The peer's owner must accept the request: the operator
// accepts it itself for a peer of the same account, and through accepterProviderRef for another
// account; without it the connection waits, Ready=False with reason AwaitingAcceptance naming
// the account, until that account accepts it. Accepting a connection into a peer VPC of the same
// account named by id joins that VPC's routing domain, so the VPC must be one an object of this
// namespace made (the foreign-write rule, --foreign-write-namespaces).
// +kubebuilder:validation:XValidation:rule="[has(self.vpcID), has(self.vpcRef)].filter(x, x).size() == 1",message="set exactly one of vpcID and vpcRef"
// +kubebuilder:validation:XValidation:rule="[has(self.peerVPCID), has(self.peerVPCRef)].filter(x, x).size() == 1",message="set exactly one of peerVPCID and peerVPCRef"
// +kubebuilder:validation:XValidation:rule="!has(self.peerOwnerID) || has(self.peerVPCID)",message="peerOwnerID goes with peerVPCID: a peerVPCRef names a VPC of this namespace's account"
// +kubebuilder:validation:XValidation:rule="!has(self.accepterProviderRef) || has(self.peerOwnerID)",message="accepterProviderRef is the peer account's provider: set peerOwnerID and peerVPCID with it (a peer of the provider's own account is accepted through providerRef)"
// +kubebuilder:validation:XValidation:rule="!has(self.accepterOptions) || !has(self.peerOwnerID) || has(self.accepterProviderRef)",message="accepterOptions are set by the peer account: name its provider in accepterProviderRef, or leave them to that account"
// +kubebuilder:validation:XValidation:rule="has(self.vpcID) == has(oldSelf.vpcID) && (!has(self.vpcID) || self.vpcID == oldSelf.vpcID) && has(self.vpcRef) == has(oldSelf.vpcRef) && (!has(self.vpcRef) || self.vpcRef.name == oldSelf.vpcRef.name)",message="the requester VPC cannot change; create a new VPCPeeringConnection"
// +kubebuilder:validation:XValidation:rule="has(self.peerVPCID) == has(oldSelf.peerVPCID) && (!has(self.peerVPCID) || self.peerVPCID == oldSelf.peerVPCID) && has(self.peerVPCRef) == has(oldSelf.peerVPCRef) && (!has(self.peerVPCRef) || self.peerVPCRef.name == oldSelf.peerVPCRef.name) && has(self.peerOwnerID) == has(oldSelf.peerOwnerID) && (!has(self.peerOwnerID) || self.peerOwnerID == oldSelf.peerOwnerID)",message="the peer VPC and its owner cannot change; create a new VPCPeeringConnection"
type VPCPeeringConnectionSpec struct {
	shared.ManagedSpec `json:",inline"`

	// VPCID is the requester VPC, named by id. It cannot change.
	// +optional
	// +kubebuilder:validation:Pattern=`^vpc-[0-9a-z]+$`
	VPCID string `json:"vpcID,omitempty"`

	// VPCRef names the requester VPC object in this namespace; the connection waits until it
	// is Ready. It cannot change.
	// +optional
	VPCRef *shared.Reference `json:"vpcRef,omitempty"`

	// PeerVPCRef names the peer VPC object in this namespace (the same account and region); the
	// operator accepts the connection. It cannot change.
	// +optional
	PeerVPCRef *shared.Reference `json:"peerVPCRef,omitempty"`

	// PeerVPCID is the peer VPC, named by id: of the provider's account (then one an object of
	// this namespace made, unless the administrator allows otherwise), or of peerOwnerID's. It
	// cannot change.
	// +optional
	// +kubebuilder:validation:Pattern=`^vpc-[0-9a-z]+$`
	PeerVPCID string `json:"peerVPCID,omitempty"`

	// PeerOwnerID is the AWS account that owns peerVPCID, when it is not the provider's. It
	// cannot change.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9]{12}$`
	PeerOwnerID string `json:"peerOwnerID,omitempty"`

	// AccepterProviderRef names an AWSProvider (or ClusterAWSProvider) with the credentials of
	// peerOwnerID's account, through which the operator accepts the connection and sets
	// accepterOptions. It is resolved exactly as providerRef is: a provider of this namespace,
	// or one whose allowedNamespaces list it, that the administrator's tenancy rules let the
	// namespace use. Without it, the peer account's owner accepts the request.
	// +optional
	AccepterProviderRef *shared.ProviderReference `json:"accepterProviderRef,omitempty"`

	// RequesterOptions are the requester side's options, set once the connection is active.
	// +optional
	RequesterOptions *VPCPeeringOptions `json:"requesterOptions,omitempty"`

	// AccepterOptions are the accepter side's options, set once the connection is active, by
	// the accepter's account (providerRef for a peer of the same account, accepterProviderRef
	// otherwise).
	// +optional
	AccepterOptions *VPCPeeringOptions `json:"accepterOptions,omitempty"`
}

// VPCPeeringOptions are one side's options of a VPC peering connection.
type VPCPeeringOptions struct {
	// AllowDNSResolutionFromRemoteVPC makes this side's VPC resolve the public DNS hostnames of
	// the other side's instances to their private addresses (both VPCs need DNS hostnames and
	// DNS support). False unless set.
	// +optional
	AllowDNSResolutionFromRemoteVPC *bool `json:"allowDNSResolutionFromRemoteVPC,omitempty"`
}

// VPCPeeringConnectionStatus is the observed state of a VPC peering connection.
type VPCPeeringConnectionStatus struct {
	shared.ManagedStatus `json:",inline"`

	// VPCPeeringConnectionID is the connection's id, for example pcx-0a1b2c3d4e5f60718; route
	// tables' routes refer to it.
	// +optional
	VPCPeeringConnectionID string `json:"vpcPeeringConnectionID,omitempty" output:""`

	// Status is the connection's status code: initiating-request, pending-acceptance,
	// provisioning, active, failed, rejected, expired, deleting or deleted.
	// +optional
	Status string `json:"status,omitempty"`

	// StatusMessage is AWS's message for the status.
	// +optional
	StatusMessage string `json:"statusMessage,omitempty"`

	// RequesterCIDRBlock is the requester VPC's IPv4 CIDR block.
	// +optional
	RequesterCIDRBlock string `json:"requesterCIDRBlock,omitempty" output:""`

	// AccepterCIDRBlock is the peer VPC's IPv4 CIDR block, shown once the connection is active.
	// +optional
	AccepterCIDRBlock string `json:"accepterCIDRBlock,omitempty" output:""`

	// AccepterOwnerID is the peer VPC's account.
	// +optional
	AccepterOwnerID string `json:"accepterOwnerID,omitempty"`
}

// VPCPeeringConnection is a VPC peering connection managed by the networking family.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-networking}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="ID",type=string,JSONPath=`.status.vpcPeeringConnectionID`
// +kubebuilder:printcolumn:name="STATUS",type=string,JSONPath=`.status.status`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type VPCPeeringConnection struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   VPCPeeringConnectionSpec   `json:"spec"`
	Status VPCPeeringConnectionStatus `json:"status,omitempty"`
}

// VPCPeeringConnectionList is a list of VPCPeeringConnections.
// +kubebuilder:object:root=true
type VPCPeeringConnectionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []VPCPeeringConnection `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (v *VPCPeeringConnection) GetManagedSpec() *shared.ManagedSpec { return &v.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (v *VPCPeeringConnection) GetManagedStatus() *shared.ManagedStatus {
	return &v.Status.ManagedStatus
}
