package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// Route53HostedZoneSpec is the desired state of a Route 53 hosted zone: a public zone, which
// answers the internet through its four name servers, or a private zone, which answers only
// inside the VPCs associated with it (in the provider's region). The zone is created once, with
// the object's UID as its CallerReference, and found again by it after a lost answer.
//
// Associating a VPC writes the zone's names into that VPC's DNS, so a VPC named by id must be
// one an object of the namespace made (the foreign-write rule), and a vpcRefs target must not
// be ObserveOnly. On deletion AWS refuses a zone that holds records other than its apex SOA and
// NS: the operator deletes no record it does not own, so the object waits (condition
// HostedZoneNotEmpty, retried with backoff) until the other records are gone.
// +kubebuilder:validation:XValidation:rule="self.name == oldSelf.name",message="name cannot change; create a new Route53HostedZone for another domain"
// +kubebuilder:validation:XValidation:rule="(has(self.private) && self.private) == (has(oldSelf.private) && oldSelf.private)",message="private cannot change; create a new Route53HostedZone"
// +kubebuilder:validation:XValidation:rule="(has(self.private) && self.private) == ((has(self.vpcRefs) && size(self.vpcRefs) > 0) || (has(self.vpcIDs) && size(self.vpcIDs) > 0))",message="a private zone needs at least one VPC (vpcRefs or vpcIDs), and a public zone takes none"
type Route53HostedZoneSpec struct {
	shared.ManagedSpec `json:",inline"`

	// Name is the zone's domain, for example example.com. It cannot change.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^([a-zA-Z0-9_]([a-zA-Z0-9_-]{0,61}[a-zA-Z0-9_])?\.)*[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.?$`
	Name string `json:"name"`

	// Comment describes the zone.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	Comment string `json:"comment,omitempty"`

	// Private makes a private zone, answering only inside its VPCs. It cannot change.
	// +optional
	Private *bool `json:"private,omitempty"`

	// VPCRefs name the VPCs of this namespace a private zone answers in, kept as a set.
	// +optional
	// +kubebuilder:validation:MaxItems=100
	VPCRefs []shared.Reference `json:"vpcRefs,omitempty"`

	// VPCIDs are VPCs named by id, in the provider's region; each must be one an object of the
	// namespace made, unless the administrator allows otherwise (--foreign-write-namespaces).
	// +optional
	// +kubebuilder:validation:MaxItems=100
	// +kubebuilder:validation:items:Pattern=`^vpc-[0-9a-z]+$`
	VPCIDs []string `json:"vpcIDs,omitempty"`
}

// Route53HostedZoneStatus is the observed state of a Route 53 hosted zone.
type Route53HostedZoneStatus struct {
	shared.ManagedStatus `json:",inline"`

	// HostedZoneID is the zone's id without the /hostedzone/ prefix, for example
	// Z0123456789ABCDEFGHIJ; references to the Route53HostedZone resolve to it.
	// +optional
	HostedZoneID string `json:"hostedZoneID,omitempty" output:""`

	// NameServers are a public zone's four name servers, for the domain's delegation at its
	// registrar.
	// +optional
	NameServers []string `json:"nameServers,omitempty" output:""`

	// VPCIDs are the VPCs a private zone answers in.
	// +optional
	VPCIDs []string `json:"vpcIDs,omitempty"`
}

// Route53HostedZone is a Route 53 hosted zone managed by the networking family.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-networking}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="DOMAIN",type=string,JSONPath=`.spec.name`
// +kubebuilder:printcolumn:name="ID",type=string,JSONPath=`.status.hostedZoneID`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type Route53HostedZone struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   Route53HostedZoneSpec   `json:"spec"`
	Status Route53HostedZoneStatus `json:"status,omitempty"`
}

// Route53HostedZoneList is a list of Route53HostedZones.
// +kubebuilder:object:root=true
type Route53HostedZoneList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Route53HostedZone `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (r *Route53HostedZone) GetManagedSpec() *shared.ManagedSpec { return &r.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (r *Route53HostedZone) GetManagedStatus() *shared.ManagedStatus { return &r.Status.ManagedStatus }
