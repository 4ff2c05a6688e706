package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// InternetGatewaySpec is the desired state of an internet gateway: created, then attached to
// the VPC the spec names (detached before it is deleted).
// +kubebuilder:validation:XValidation:rule="!(has(self.vpcID) && has(self.vpcRef))",message="set at most one of vpcID and vpcRef"
type InternetGatewaySpec struct {
	shared.ManagedSpec `json:",inline"`

	// VPCID is the id of the VPC to attach to, for a VPC made outside this cluster.
	// +optional
	// +kubebuilder:validation:Pattern=`^vpc-[0-9a-z]+$`
	VPCID string `json:"vpcID,omitempty"`

	// VPCRef names the VPC object in this namespace to attach to; the gateway waits until it
	// is Ready.
	// +optional
	VPCRef *shared.Reference `json:"vpcRef,omitempty"`
}

// InternetGatewayStatus is the observed state of an internet gateway.
type InternetGatewayStatus struct {
	shared.ManagedStatus `json:",inline"`

	// InternetGatewayID is the gateway's id, for example igw-0a1b2c3d4e5f60718.
	// +optional
	InternetGatewayID string `json:"internetGatewayID,omitempty" output:""`

	// VPCID is the id of the VPC the gateway is attached to.
	// +optional
	VPCID string `json:"vpcID,omitempty" output:""`

	// State is attached when the gateway is attached to the VPC, available when it is not.
	// +optional
	State string `json:"state,omitempty"`
}

// InternetGateway is an internet gateway attached to a VPC.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=igw,categories={aws,aws-networking}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="GATEWAY",type=string,JSONPath=`.status.internetGatewayID`
// +kubebuilder:printcolumn:name="VPC",type=string,JSONPath=`.status.vpcID`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type InternetGateway struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   InternetGatewaySpec   `json:"spec"`
	Status InternetGatewayStatus `json:"status,omitempty"`
}

// InternetGatewayList is a list of InternetGateways.
// +kubebuilder:object:root=true
type InternetGatewayList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []InternetGateway `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (g *InternetGateway) GetManagedSpec() *shared.ManagedSpec { return &g.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (g *InternetGateway) GetManagedStatus() *shared.ManagedStatus { return &g.Status.ManagedStatus }
