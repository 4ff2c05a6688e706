package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// RouteTableSpec is the desired state of a route table of a VPC. Its routes and its subnet
// associations are reconciled as sets: what the spec has and AWS does not is added, what AWS
// has and the spec does not is removed (routes added outside the operator included). The local
// routes of the VPC's own ranges belong to AWS and are never touched; routes propagated from
// a virtual private gateway are left alone.
// +kubebuilder:validation:XValidation:rule="[has(self.vpcID), has(self.vpcRef)].filter(x, x).size() == 1",message="set exactly one of vpcID and vpcRef"
// +kubebuilder:validation:XValidation:rule="[has(self.subnetIDs), has(self.subnetRefs), has(self.subnetSelector)].filter(x, x).size() <= 1",message="set at most one of subnetIDs, subnetRefs and subnetSelector"
type RouteTableSpec struct {
	shared.ManagedSpec `json:",inline"`

	// VPCID is the id of the table's VPC, for a VPC made outside this cluster.
	// +optional
	// +kubebuilder:validation:Pattern=`^vpc-[0-9a-z]+$`
	VPCID string `json:"vpcID,omitempty"`

	// VPCRef names the VPC object in this namespace; the table waits until it is Ready.
	// +optional
	VPCRef *shared.Reference `json:"vpcRef,omitempty"`

	// Routes are the table's routes besides the local ones; each destination appears once.
	// +optional
	// +kubebuilder:validation:MaxItems=100
	Routes []Route `json:"routes,omitempty"`

	// SubnetIDs are the subnets associated with the table, for subnets made outside this
	// cluster.
	// +optional
	// +kubebuilder:validation:MaxItems=200
	// +kubebuilder:validation:items:Pattern=`^subnet-[0-9a-z]+$`
	// +kubebuilder:validation:items:MaxLength=32
	SubnetIDs []string `json:"subnetIDs,omitempty"`

	// SubnetRefs name the Subnet objects in this namespace associated with the table; the
	// table waits until they are Ready.
	// +optional
	// +kubebuilder:validation:MaxItems=200
	SubnetRefs []shared.Reference `json:"subnetRefs,omitempty"`

	// SubnetSelector associates the table with every Subnet in this namespace that carries
	// the labels; subnets that gain or lose the labels are associated or disassociated.
	// +optional
	SubnetSelector *shared.Selector `json:"subnetSelector,omitempty"`
}

// Route sends the traffic for one destination (an IPv4 or IPv6 range, or a prefix list) to
// one target.
// +kubebuilder:validation:XValidation:rule="[has(self.destinationCidrBlock), has(self.destinationIpv6CidrBlock), has(self.destinationPrefixListID)].filter(x, x).size() == 1",message="set exactly one of destinationCidrBlock, destinationIpv6CidrBlock and destinationPrefixListID"
// +kubebuilder:validation:XValidation:rule="[has(self.gatewayID), has(self.internetGatewayRef), has(self.natGatewayID), has(self.natGatewayRef), has(self.vpcPeeringConnectionID), has(self.vpcPeeringConnectionRef), has(self.transitGatewayID), has(self.networkInterfaceID)].filter(x, x).size() == 1",message="set exactly one target: gatewayID, internetGatewayRef, natGatewayID, natGatewayRef, vpcPeeringConnectionID, vpcPeeringConnectionRef, transitGatewayID or networkInterfaceID"
type Route struct {
	// DestinationCIDRBlock is an IPv4 range, for example 0.0.0.0/0.
	// +optional
	// +kubebuilder:validation:MaxLength=18
	// +kubebuilder:validation:XValidation:rule="isCIDR(self) && cidr(self).ip().family() == 4",message="destinationCidrBlock must be an IPv4 CIDR such as 0.0.0.0/0"
	// +kubebuilder:validation:XValidation:rule="!isCIDR(self) || cidr(self).masked() == cidr(self)",message="destinationCidrBlock has host bits set; use the network address"
	DestinationCIDRBlock string `json:"destinationCidrBlock,omitempty"`

	// DestinationIPv6CIDRBlock is an IPv6 range, for example ::/0.
	// +optional
	// +kubebuilder:validation:MaxLength=43
	// +kubebuilder:validation:XValidation:rule="isCIDR(self) && cidr(self).ip().family() == 6",message="destinationIpv6CidrBlock must be an IPv6 CIDR such as ::/0"
	// +kubebuilder:validation:XValidation:rule="!isCIDR(self) || cidr(self).masked() == cidr(self)",message="destinationIpv6CidrBlock has host bits set; use the network address"
	DestinationIPv6CIDRBlock string `json:"destinationIpv6CidrBlock,omitempty"`

	// DestinationPrefixListID is a managed prefix list, for example pl-63a5400a.
	// +optional
	// +kubebuilder:validation:Pattern=`^pl-[0-9a-z]+$`
	DestinationPrefixListID string `json:"destinationPrefixListID,omitempty"`

	// GatewayID is an internet gateway (igw-) or virtual private gateway (vgw-) made outside
	// this cluster.
	// +optional
	// +kubebuilder:validation:Pattern=`^(igw|vgw)-[0-9a-z]+$`
	GatewayID string `json:"gatewayID,omitempty"`

	// InternetGatewayRef names the InternetGateway object in this namespace; the table waits
	// until it is Ready.
	// +optional
	InternetGatewayRef *shared.Reference `json:"internetGatewayRef,omitempty"`

	// NATGatewayID is a NAT gateway made outside this cluster.
	// +optional
	// +kubebuilder:validation:Pattern=`^nat-[0-9a-z]+$`
	NATGatewayID string `json:"natGatewayID,omitempty"`

	// NATGatewayRef names the NATGateway object in this namespace; the table waits until it
	// is Ready.
	// +optional
	NATGatewayRef *shared.Reference `json:"natGatewayRef,omitempty"`

	// VPCPeeringConnectionID is a VPC peering connection.
	// +optional
	// +kubebuilder:validation:Pattern=`^pcx-[0-9a-z]+$`
	VPCPeeringConnectionID string `json:"vpcPeeringConnectionID,omitempty"`

	// VPCPeeringConnectionRef names the VPCPeeringConnection object in this namespace; the
	// table waits until it is Ready (active).
	// +optional
	VPCPeeringConnectionRef *shared.Reference `json:"vpcPeeringConnectionRef,omitempty"`

	// TransitGatewayID is a transit gateway.
	// +optional
	// +kubebuilder:validation:Pattern=`^tgw-[0-9a-z]+$`
	TransitGatewayID string `json:"transitGatewayID,omitempty"`

	// NetworkInterfaceID is a network interface, for example of a NAT instance.
	// +optional
	// +kubebuilder:validation:Pattern=`^eni-[0-9a-z]+$`
	NetworkInterfaceID string `json:"networkInterfaceID,omitempty"`
}

// RouteTableAssociation is the association of the table with one subnet.
type RouteTableAssociation struct {
	// SubnetID is the associated subnet.
	SubnetID string `json:"subnetID"`

	// AssociationID is the association's id, for example rtbassoc-0a1b2c3d4e5f60718.
	AssociationID string `json:"associationID"`
}

// RouteTableStatus is the observed state of a route table.
type RouteTableStatus struct {
	shared.ManagedStatus `json:",inline"`

	// RouteTableID is the table's id, for example rtb-0a1b2c3d4e5f60718.
	// +optional
	RouteTableID string `json:"routeTableID,omitempty" output:""`

	// VPCID is the id of the table's VPC.
	// +optional
	VPCID string `json:"vpcID,omitempty" output:""`

	// Associations are the table's subnet associations, by subnet id.
	// +optional
	Associations []RouteTableAssociation `json:"associations,omitempty"`
}

// RouteTable is a route table of a VPC with its routes and subnet associations. Its VPC can
// be corrected until the table exists in AWS, and not after.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.routeTableID) || (has(self.spec.vpcID) == has(oldSelf.spec.vpcID) && (!has(self.spec.vpcID) || self.spec.vpcID == oldSelf.spec.vpcID) && has(self.spec.vpcRef) == has(oldSelf.spec.vpcRef) && (!has(self.spec.vpcRef) || self.spec.vpcRef.name == oldSelf.spec.vpcRef.name))",message="the VPC of a route table cannot change once the table exists; create a new RouteTable"
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=rtb,categories={aws,aws-networking}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="TABLE",type=string,JSONPath=`.status.routeTableID`
// +kubebuilder:printcolumn:name="VPC",type=string,JSONPath=`.status.vpcID`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type RouteTable struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RouteTableSpec   `json:"spec"`
	Status RouteTableStatus `json:"status,omitempty"`
}

// RouteTableList is a list of RouteTables.
// +kubebuilder:object:root=true
type RouteTableList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []RouteTable `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (t *RouteTable) GetManagedSpec() *shared.ManagedSpec { return &t.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (t *RouteTable) GetManagedStatus() *shared.ManagedStatus { return &t.Status.ManagedStatus }
