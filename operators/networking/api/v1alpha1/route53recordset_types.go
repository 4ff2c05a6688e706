package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// Route53RecordSetSpec is the desired state of one Route 53 resource record set: a name, a
// type, and either values with a TTL or an alias target, optionally with a routing policy
// (weighted, failover or latency) under a set identifier. Changes go through
// ChangeResourceRecordSets (CREATE, then UPSERT, and DELETE with the exact current values);
// the object is Ready once Route 53 reports its last change INSYNC.
//
// Ownership: Route 53 keeps no tags or metadata on a record set, so the operator marks each
// record set it owns with a TXT record, written in the same change batch (atomically), as
// external-dns's TXT registry does. The marker is at _infra-operator-<type>.<name> (a name of
// its own, so that a CNAME, which shares its name with nothing, can be marked too; a wildcard
// keeps its * label), under the record set's set identifier (weighted 0) for a routing policy,
// and holds "heritage=infra-operator,owner=<namespace>/<name>,uid=<object UID>". A record set
// that exists without this object's marker is never overwritten nor deleted: the object
// reports RecordSetNotOwned and writes nothing. Deletion removes the record set and its marker
// in one batch; deletionPolicy Orphan removes only the marker.
//
// The zone is a Route53HostedZone of the namespace (zoneRef), or one named by id (zoneID),
// which must be one an object of the namespace made (the foreign-write rule: its ownership tags
// name the namespace). Record sets carry no tags: spec.tags is refused.
// +kubebuilder:validation:XValidation:rule="[has(self.zoneID), has(self.zoneRef)].filter(x, x).size() == 1",message="set exactly one of zoneID and zoneRef"
// +kubebuilder:validation:XValidation:rule="has(self.zoneID) == has(oldSelf.zoneID) && (!has(self.zoneID) || self.zoneID == oldSelf.zoneID) && (!has(self.zoneRef) || (has(oldSelf.zoneRef) && self.zoneRef.name == oldSelf.zoneRef.name))",message="the zone cannot change; create a new Route53RecordSet in the other zone"
// +kubebuilder:validation:XValidation:rule="self.name == oldSelf.name && self.type == oldSelf.type",message="name and type cannot change; create a new Route53RecordSet"
// +kubebuilder:validation:XValidation:rule="has(self.setIdentifier) == has(oldSelf.setIdentifier) && (!has(self.setIdentifier) || self.setIdentifier == oldSelf.setIdentifier)",message="setIdentifier cannot change; create a new Route53RecordSet"
// +kubebuilder:validation:XValidation:rule="has(self.aliasTarget) ? !has(self.ttl) && !has(self.records) : has(self.records) && size(self.records) > 0",message="set either aliasTarget, or records (with an optional ttl)"
// +kubebuilder:validation:XValidation:rule="self.type != 'CNAME' || !has(self.records) || size(self.records) == 1",message="a CNAME record set holds exactly one record"
// +kubebuilder:validation:XValidation:rule="has(self.setIdentifier) == ([has(self.weight), has(self.failover), has(self.region)].filter(x, x).size() == 1)",message="a routing policy (exactly one of weight, failover and region) goes with a setIdentifier, and a setIdentifier with one routing policy"
// +kubebuilder:validation:XValidation:rule="!has(self.aliasTarget) || has(self.aliasTarget.dnsName) || self.type in ['A', 'AAAA']",message="an alias to a load balancer, CloudFront distribution or API Gateway domain is of type A or AAAA"
type Route53RecordSetSpec struct {
	shared.ManagedSpec `json:",inline"`

	// ZoneRef names the Route53HostedZone of this namespace that holds the record set; it
	// cannot change.
	// +optional
	ZoneRef *shared.Reference `json:"zoneRef,omitempty"`

	// ZoneID is a hosted zone named by id (without /hostedzone/), which must be one an object
	// of the namespace made, unless the administrator allows otherwise
	// (--foreign-write-namespaces); it cannot change.
	// +optional
	// +kubebuilder:validation:Pattern=`^Z[A-Z0-9]{1,32}$`
	ZoneID string `json:"zoneID,omitempty"`

	// Name is the record set's name: relative to the zone (www, or @ for the zone's apex), or a
	// full name inside the zone (www.example.com, with or without the final dot). A name that
	// ends with a dot, or ends with the zone's name, is taken as full and must lie in the
	// zone; any other is relative. A leading * label makes a wildcard. It cannot change.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^(@|(\*\.)?([a-zA-Z0-9_]([a-zA-Z0-9_-]{0,61}[a-zA-Z0-9_])?\.)*[a-zA-Z0-9_]([a-zA-Z0-9_-]{0,61}[a-zA-Z0-9_])?\.?|\*)$`
	Name string `json:"name"`

	// Type is the record type. It cannot change.
	// +kubebuilder:validation:Enum=A;AAAA;CNAME;TXT;MX;NS;SRV;CAA;PTR;SPF;DS
	Type string `json:"type"`

	// TTL is how long resolvers cache the records, in seconds (300 unless set); not for an
	// alias, whose TTL is its target's.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=2147483647
	TTL *int64 `json:"ttl,omitempty"`

	// Records are the values, in the type's form: addresses for A and AAAA, one name for a
	// CNAME, "10 mail.example.com" for MX, quoted strings for TXT ("v=spf1 -all"). They are
	// compared as a set.
	// +optional
	// +kubebuilder:validation:MaxItems=100
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=4000
	Records []string `json:"records,omitempty"`

	// SetIdentifier tells apart the record sets of one name and type under a routing policy;
	// it goes with exactly one of weight, failover and region, and cannot change.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	SetIdentifier string `json:"setIdentifier,omitempty"`

	// Weight is the share of answers this record set gets among those of its name and type
	// (weighted routing), 0 to 255.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=255
	Weight *int64 `json:"weight,omitempty"`

	// Failover is PRIMARY or SECONDARY (failover routing): the secondary answers while the
	// primary's health check fails.
	// +optional
	// +kubebuilder:validation:Enum=PRIMARY;SECONDARY
	Failover string `json:"failover,omitempty"`

	// Region is the AWS region of the resource this record set routes to (latency routing):
	// Route 53 answers with the record set of the lowest latency to the client.
	// +optional
	// +kubebuilder:validation:Pattern=`^[a-z]{2}(-[a-z]+)+-[0-9]$`
	Region string `json:"region,omitempty"`

	// HealthCheckID is the id of a Route 53 health check whose status decides whether this
	// record set is answered.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`
	HealthCheckID string `json:"healthCheckID,omitempty"`

	// AliasTarget answers with the addresses of an AWS resource instead of records.
	// +optional
	AliasTarget *AliasTarget `json:"aliasTarget,omitempty"`
}

// AliasTarget is what an alias record set answers for: a load balancer, a CloudFront
// distribution or an API Gateway custom domain of this namespace by reference, or any DNS name
// with its Route 53 hosted zone.
// +kubebuilder:validation:XValidation:rule="[has(self.albRef), has(self.nlbRef), has(self.cloudFrontDistributionRef), has(self.apiGatewayRef), has(self.dnsName)].filter(x, x).size() == 1",message="set exactly one of albRef, nlbRef, cloudFrontDistributionRef, apiGatewayRef and dnsName"
// +kubebuilder:validation:XValidation:rule="has(self.dnsName) == has(self.hostedZoneID)",message="dnsName and hostedZoneID go together"
type AliasTarget struct {
	// ALBRef names an ALB of this namespace (its status.dnsName and canonicalHostedZoneID).
	// +optional
	ALBRef *shared.Reference `json:"albRef,omitempty"`

	// NLBRef names an NLB of this namespace.
	// +optional
	NLBRef *shared.Reference `json:"nlbRef,omitempty"`

	// CloudFrontDistributionRef names a CloudFrontDistribution of this namespace (edge family)
	// whose aliases include the record set's name; CloudFront's hosted zone is Z2FDTNDATAQYW2.
	// +optional
	CloudFrontDistributionRef *shared.Reference `json:"cloudFrontDistributionRef,omitempty"`

	// APIGatewayRef names an APIGateway of this namespace (edge family) with a customDomain
	// of the record set's name (its status.customDomain.targetDomainName and hostedZoneID).
	// +optional
	APIGatewayRef *shared.Reference `json:"apiGatewayRef,omitempty"`

	// DNSName is the target's DNS name, with hostedZoneID; set by the references otherwise.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	DNSName string `json:"dnsName,omitempty"`

	// HostedZoneID is the Route 53 hosted zone of dnsName (a load balancer's canonical hosted
	// zone, Z2FDTNDATAQYW2 for CloudFront, or a zone of the account for another record).
	// +optional
	// +kubebuilder:validation:Pattern=`^Z[A-Z0-9]{1,32}$`
	HostedZoneID string `json:"hostedZoneID,omitempty"`

	// EvaluateTargetHealth answers the alias only while its target is healthy.
	// +optional
	EvaluateTargetHealth bool `json:"evaluateTargetHealth,omitempty"`
}

// Route53RecordSetStatus is the observed state of a Route 53 record set.
type Route53RecordSetStatus struct {
	shared.ManagedStatus `json:",inline"`

	// HostedZoneID is the id of the zone that holds the record set.
	// +optional
	HostedZoneID string `json:"hostedZoneID,omitempty" output:""`

	// ZoneName is the zone's domain, with its final dot.
	// +optional
	ZoneName string `json:"zoneName,omitempty"`

	// FQDN is the record set's full name, with its final dot.
	// +optional
	FQDN string `json:"fqdn,omitempty" output:""`

	// ChangeID is the id of the last change the operator made to the record set.
	// +optional
	ChangeID string `json:"changeID,omitempty"`

	// ChangeStatus is PENDING until Route 53 has applied the last change on all its servers,
	// then INSYNC.
	// +optional
	ChangeStatus string `json:"changeStatus,omitempty"`
}

// Route53RecordSet is a Route 53 resource record set managed by the networking family.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-networking}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="FQDN",type=string,JSONPath=`.status.fqdn`
// +kubebuilder:printcolumn:name="TYPE",type=string,JSONPath=`.spec.type`
// +kubebuilder:printcolumn:name="CHANGE",type=string,JSONPath=`.status.changeStatus`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type Route53RecordSet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   Route53RecordSetSpec   `json:"spec"`
	Status Route53RecordSetStatus `json:"status,omitempty"`
}

// Route53RecordSetList is a list of Route53RecordSets.
// +kubebuilder:object:root=true
type Route53RecordSetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Route53RecordSet `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (r *Route53RecordSet) GetManagedSpec() *shared.ManagedSpec { return &r.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (r *Route53RecordSet) GetManagedStatus() *shared.ManagedStatus { return &r.Status.ManagedStatus }
