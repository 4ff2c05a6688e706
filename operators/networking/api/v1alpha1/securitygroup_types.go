package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// SecurityGroupSpec is the desired state of a security group of a VPC. Its rules are
// reconciled as sets: the operator authorises the rules the spec has and AWS does not, and
// revokes the rules AWS has and the spec does not, including rules added outside the operator.
// +kubebuilder:validation:XValidation:rule="[has(self.vpcID), has(self.vpcRef)].filter(x, x).size() == 1",message="set exactly one of vpcID and vpcRef"
type SecurityGroupSpec struct {
	shared.ManagedSpec `json:",inline"`

	// GroupName is the group's name in AWS, unique in its VPC: up to 255 characters, not
	// starting with sg- nor being "default". When absent the object's name is used. It cannot
	// change once the group exists.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="!self.lowerAscii().startsWith('sg-') && self != 'default'",message="groupName may not start with sg- or be default"
	GroupName string `json:"groupName,omitempty"`

	// Description describes the group (AWS requires one). It cannot change once the group
	// exists.
	// +optional
	// +kubebuilder:default="Managed by infra-operator"
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	Description string `json:"description,omitempty"`

	// VPCID is the id of the group's VPC, for a VPC made outside this cluster.
	// +optional
	// +kubebuilder:validation:Pattern=`^vpc-[0-9a-z]+$`
	VPCID string `json:"vpcID,omitempty"`

	// VPCRef names the VPC object in this namespace; the group waits until it is Ready.
	// +optional
	VPCRef *shared.Reference `json:"vpcRef,omitempty"`

	// IngressRules allow inbound traffic; absent or empty allows none.
	// +optional
	// +kubebuilder:validation:MaxItems=60
	IngressRules []SecurityGroupRule `json:"ingressRules,omitempty"`

	// EgressRules allow outbound traffic; their sources are the destinations. When absent, the
	// desired state is AWS's default: one rule that allows all outbound IPv4 traffic
	// (protocol all to 0.0.0.0/0), and every other egress rule is revoked. An empty list allows
	// no outbound traffic.
	// +optional
	// +kubebuilder:validation:MaxItems=60
	EgressRules []SecurityGroupRule `json:"egressRules"`
}

// SecurityGroupRule allows one protocol and port range from (ingress) or to (egress) every
// source it lists. AWS stores one rule per source; the operator compares them one by one.
// +kubebuilder:validation:XValidation:rule="!(self.protocol in ['tcp', 'udp', '6', '17']) || (has(self.fromPort) && has(self.toPort) && self.fromPort >= 0 && self.fromPort <= self.toPort)",message="a tcp or udp rule needs fromPort and toPort, from 0 to 65535, with fromPort <= toPort"
// +kubebuilder:validation:XValidation:rule="!(self.protocol in ['icmp', 'icmpv6', '1', '58']) || ((!has(self.fromPort) || self.fromPort <= 255) && (!has(self.toPort) || self.toPort <= 255))",message="an icmp rule's fromPort is the ICMP type and toPort the code, each -1 (any) to 255"
// +kubebuilder:validation:XValidation:rule="self.protocol in ['tcp', 'udp', '6', '17', 'icmp', 'icmpv6', '1', '58'] || (!has(self.fromPort) && !has(self.toPort))",message="fromPort and toPort are only for tcp, udp, icmp and icmpv6; a rule for all protocols (or another protocol number) covers every port"
// +kubebuilder:validation:XValidation:rule="(has(self.cidrBlocks) ? size(self.cidrBlocks) : 0) + (has(self.ipv6CidrBlocks) ? size(self.ipv6CidrBlocks) : 0) + (has(self.sourceSecurityGroupIDs) ? size(self.sourceSecurityGroupIDs) : 0) + (has(self.sourceSecurityGroupRefs) ? size(self.sourceSecurityGroupRefs) : 0) + (has(self.prefixListIDs) ? size(self.prefixListIDs) : 0) > 0",message="a rule needs at least one of cidrBlocks, ipv6CidrBlocks, sourceSecurityGroupIDs, sourceSecurityGroupRefs and prefixListIDs"
type SecurityGroupRule struct {
	// Protocol is tcp, udp, icmp, icmpv6, all (or -1), or an IP protocol number from 0 to
	// 255.
	// +kubebuilder:validation:MaxLength=6
	// +kubebuilder:validation:Pattern=`^(tcp|udp|icmp|icmpv6|all|-1|[0-9]{1,3})$`
	// +kubebuilder:validation:XValidation:rule="!self.matches('^[0-9]+$') || int(self) <= 255",message="a protocol number is 0 to 255"
	Protocol string `json:"protocol"`

	// FromPort is the first port of the range (tcp, udp), or the ICMP type (-1 for any). Ports
	// are required for tcp and udp and forbidden for all and other protocol numbers.
	// +optional
	// +kubebuilder:validation:Minimum=-1
	// +kubebuilder:validation:Maximum=65535
	FromPort *int32 `json:"fromPort,omitempty"`

	// ToPort is the last port of the range (tcp, udp), or the ICMP code (-1 for any).
	// +optional
	// +kubebuilder:validation:Minimum=-1
	// +kubebuilder:validation:Maximum=65535
	ToPort *int32 `json:"toPort,omitempty"`

	// CIDRBlocks are IPv4 ranges, for example 10.0.0.0/16 or 0.0.0.0/0.
	// +optional
	// +kubebuilder:validation:MaxItems=60
	// +kubebuilder:validation:items:MaxLength=18
	// +kubebuilder:validation:items:XValidation:rule="isCIDR(self) && cidr(self).ip().family() == 4",message="cidrBlocks must be IPv4 CIDRs such as 10.0.0.0/16"
	// +kubebuilder:validation:items:XValidation:rule="!isCIDR(self) || cidr(self).masked() == cidr(self)",message="a CIDR block has host bits set; use the network address"
	CIDRBlocks []string `json:"cidrBlocks,omitempty"`

	// IPv6CIDRBlocks are IPv6 ranges, for example ::/0.
	// +optional
	// +kubebuilder:validation:MaxItems=60
	// +kubebuilder:validation:items:MaxLength=43
	// +kubebuilder:validation:items:XValidation:rule="isCIDR(self) && cidr(self).ip().family() == 6",message="ipv6CidrBlocks must be IPv6 CIDRs such as 2001:db8::/32"
	// +kubebuilder:validation:items:XValidation:rule="!isCIDR(self) || cidr(self).masked() == cidr(self)",message="a CIDR block has host bits set; use the network address"
	IPv6CIDRBlocks []string `json:"ipv6CidrBlocks,omitempty"`

	// SourceSecurityGroupIDs are security groups (of the same VPC or a peered one) whose
	// members the rule allows, for groups made outside this cluster.
	// +optional
	// +kubebuilder:validation:MaxItems=60
	// +kubebuilder:validation:items:Pattern=`^sg-[0-9a-z]+$`
	// +kubebuilder:validation:items:MaxLength=32
	SourceSecurityGroupIDs []string `json:"sourceSecurityGroupIDs,omitempty"`

	// SourceSecurityGroupRefs name SecurityGroup objects in this namespace, this one included.
	// A referenced group is used as soon as it exists in AWS, so that groups may allow each
	// other's traffic.
	// +optional
	// +kubebuilder:validation:MaxItems=60
	SourceSecurityGroupRefs []shared.Reference `json:"sourceSecurityGroupRefs,omitempty"`

	// PrefixListIDs are managed prefix lists, for example pl-63a5400a.
	// +optional
	// +kubebuilder:validation:MaxItems=60
	// +kubebuilder:validation:items:Pattern=`^pl-[0-9a-z]+$`
	// +kubebuilder:validation:items:MaxLength=32
	PrefixListIDs []string `json:"prefixListIDs,omitempty"`

	// Description describes the rule; AWS stores it on each source's rule.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	Description string `json:"description,omitempty"`
}

// SecurityGroupStatus is the observed state of a security group.
type SecurityGroupStatus struct {
	shared.ManagedStatus `json:",inline"`

	// GroupID is the group's id, for example sg-0a1b2c3d4e5f60718.
	// +optional
	GroupID string `json:"groupID,omitempty" output:""`

	// VPCID is the id of the group's VPC.
	// +optional
	VPCID string `json:"vpcID,omitempty" output:""`
}

// SecurityGroup is a VPC security group with its ingress and egress rules. Its name,
// description and VPC can be corrected until the group exists in AWS, and not after.
// +kubebuilder:validation:XValidation:rule="has(self.spec.groupName) || !(self.metadata.name.startsWith('sg-') || self.metadata.name == 'default')",message="the object's name is not a valid security group name (it may not start with sg- or be default); set spec.groupName"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.groupID) || (has(self.spec.groupName) == has(oldSelf.spec.groupName) && (!has(self.spec.groupName) || self.spec.groupName == oldSelf.spec.groupName) && self.spec.description == oldSelf.spec.description)",message="groupName and description cannot change once the security group exists; create a new SecurityGroup"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.groupID) || (has(self.spec.vpcID) == has(oldSelf.spec.vpcID) && (!has(self.spec.vpcID) || self.spec.vpcID == oldSelf.spec.vpcID) && has(self.spec.vpcRef) == has(oldSelf.spec.vpcRef) && (!has(self.spec.vpcRef) || self.spec.vpcRef.name == oldSelf.spec.vpcRef.name))",message="the VPC of a security group cannot change once the group exists; create a new SecurityGroup"
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=sg,categories={aws,aws-networking}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="GROUP",type=string,JSONPath=`.status.groupID`
// +kubebuilder:printcolumn:name="VPC",type=string,JSONPath=`.status.vpcID`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type SecurityGroup struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   SecurityGroupSpec   `json:"spec"`
	Status SecurityGroupStatus `json:"status,omitempty"`
}

// SecurityGroupList is a list of SecurityGroups.
// +kubebuilder:object:root=true
type SecurityGroupList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []SecurityGroup `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (g *SecurityGroup) GetManagedSpec() *shared.ManagedSpec { return &g.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (g *SecurityGroup) GetManagedStatus() *shared.ManagedStatus { return &g.Status.ManagedStatus }
