package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// VPCEndpointSpec is the desired state of a VPC endpoint: a private path from a VPC to an AWS
// service, without a NAT gateway. A gateway endpoint (S3, DynamoDB) adds a route to the
// service's prefix list in each of its route tables; an interface endpoint places a network
// interface in each of its subnets, reached through the service's usual DNS name when private
// DNS is on. The endpoint's policy restricts what passes through the namespace's own VPC and
// grants no IAM identity anything, so no IAM guardrail applies to it; a route table or subnet
// named by id must be one an object of the namespace made (the foreign-write rule), since the
// endpoint writes a route into the table.
// +kubebuilder:validation:XValidation:rule="[has(self.vpcID), has(self.vpcRef)].filter(x, x).size() == 1",message="set exactly one of vpcID and vpcRef"
// +kubebuilder:validation:XValidation:rule="self.serviceName == oldSelf.serviceName",message="serviceName cannot change; create a new VPCEndpoint for another service"
// +kubebuilder:validation:XValidation:rule="self.type == oldSelf.type",message="type cannot change; create a new VPCEndpoint of the other type"
// +kubebuilder:validation:XValidation:rule="self.type != 'Gateway' || self.serviceName.endsWith('.s3') || self.serviceName.endsWith('.dynamodb')",message="gateway endpoints exist for S3 and DynamoDB only; use type Interface for other services"
// +kubebuilder:validation:XValidation:rule="self.type == 'Gateway' || ((!has(self.routeTableRefs) || size(self.routeTableRefs) == 0) && (!has(self.routeTableIDs) || size(self.routeTableIDs) == 0))",message="route tables are for gateway endpoints; an interface endpoint takes subnets"
// +kubebuilder:validation:XValidation:rule="self.type == 'Interface' || ((!has(self.subnetRefs) || size(self.subnetRefs) == 0) && (!has(self.subnetIDs) || size(self.subnetIDs) == 0) && (!has(self.securityGroupRefs) || size(self.securityGroupRefs) == 0) && (!has(self.securityGroupIDs) || size(self.securityGroupIDs) == 0))",message="subnets and security groups are for interface endpoints; a gateway endpoint takes route tables"
type VPCEndpointSpec struct {
	shared.ManagedSpec `json:",inline"`

	// VPCID is the id of a VPC made outside this namespace.
	// +optional
	// +kubebuilder:validation:Pattern=`^vpc-[0-9a-z]+$`
	VPCID string `json:"vpcID,omitempty"`

	// VPCRef names the VPC object in this namespace; the endpoint waits until it is Ready.
	// +optional
	VPCRef *shared.Reference `json:"vpcRef,omitempty"`

	// ServiceName is the AWS service, for example com.amazonaws.us-east-1.s3 or
	// com.amazonaws.us-east-1.ecr.dkr. It cannot change.
	// +kubebuilder:validation:Pattern=`^com\.amazonaws\.[a-z0-9-]+\.[a-z0-9.-]+$`
	// +kubebuilder:validation:MaxLength=255
	ServiceName string `json:"serviceName"`

	// Type is Gateway (S3 and DynamoDB, through route tables) or Interface (network interfaces
	// in subnets). It cannot change.
	// +kubebuilder:validation:Enum=Gateway;Interface
	Type string `json:"type"`

	// RouteTableRefs name the RouteTables of this namespace a gateway endpoint routes from.
	// +optional
	// +kubebuilder:validation:MaxItems=50
	RouteTableRefs []shared.Reference `json:"routeTableRefs,omitempty"`

	// RouteTableIDs are route tables named by id; each must be one an object of the namespace
	// made, unless the administrator allows otherwise (--foreign-write-namespaces).
	// +optional
	// +kubebuilder:validation:MaxItems=50
	// +kubebuilder:validation:items:Pattern=`^rtb-[0-9a-z]+$`
	RouteTableIDs []string `json:"routeTableIDs,omitempty"`

	// SubnetRefs name the Subnets of this namespace an interface endpoint is placed in, one
	// per Availability Zone.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	SubnetRefs []shared.Reference `json:"subnetRefs,omitempty"`

	// SubnetIDs are subnets named by id, as RouteTableIDs are.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:Pattern=`^subnet-[0-9a-z]+$`
	SubnetIDs []string `json:"subnetIDs,omitempty"`

	// SecurityGroupRefs name the SecurityGroups of an interface endpoint's network interfaces;
	// none gives the VPC's default security group.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	SecurityGroupRefs []shared.Reference `json:"securityGroupRefs,omitempty"`

	// SecurityGroupIDs are security groups named by id.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:Pattern=`^sg-[0-9a-z]+$`
	SecurityGroupIDs []string `json:"securityGroupIDs,omitempty"`

	// PrivateDNSEnabled makes the service's usual DNS name resolve to an interface endpoint
	// inside the VPC (interface endpoints only; true unless set).
	// +optional
	PrivateDNSEnabled *bool `json:"privateDNSEnabled,omitempty"`

	// PolicyDocument is the endpoint's policy (JSON), compared by meaning; unset, full access.
	// +optional
	// +kubebuilder:validation:MaxLength=20480
	PolicyDocument string `json:"policyDocument,omitempty"`
}

// VPCEndpointStatus is the observed state of a VPC endpoint.
type VPCEndpointStatus struct {
	shared.ManagedStatus `json:",inline"`

	// VPCEndpointID is the endpoint's id, for example vpce-0a1b2c3d4e5f60718.
	// +optional
	VPCEndpointID string `json:"vpcEndpointID,omitempty" output:""`

	// State is pendingAcceptance, pending, available, deleting, deleted, rejected or failed.
	// +optional
	State string `json:"state,omitempty"`

	// DNSNames are an interface endpoint's DNS names.
	// +optional
	DNSNames []string `json:"dnsNames,omitempty"`
}

// VPCEndpoint is a VPC endpoint managed by the networking family.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-networking}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="ID",type=string,JSONPath=`.status.vpcEndpointID`
// +kubebuilder:printcolumn:name="STATE",type=string,JSONPath=`.status.state`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type VPCEndpoint struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   VPCEndpointSpec   `json:"spec"`
	Status VPCEndpointStatus `json:"status,omitempty"`
}

// VPCEndpointList is a list of VPCEndpoints.
// +kubebuilder:object:root=true
type VPCEndpointList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []VPCEndpoint `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (e *VPCEndpoint) GetManagedSpec() *shared.ManagedSpec { return &e.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (e *VPCEndpoint) GetManagedStatus() *shared.ManagedStatus { return &e.Status.ManagedStatus }
