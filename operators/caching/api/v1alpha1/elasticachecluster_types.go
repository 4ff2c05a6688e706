package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// How an ElastiCacheCluster is made in AWS, as status.mode reports it.
const (
	// ModeCacheCluster is a standalone cache cluster (CreateCacheCluster): every Memcached
	// cluster, and a Redis OSS or Valkey cluster of one node without encryption at rest.
	ModeCacheCluster = "CacheCluster"
	// ModeReplicationGroup is a replication group with cluster mode disabled
	// (CreateReplicationGroup): a Redis OSS or Valkey cluster with encryption at rest or more
	// than one node, which AWS offers only as a replication group.
	ModeReplicationGroup = "ReplicationGroup"
)

// ElastiCacheClusterSpec is the desired state of an ElastiCache cluster.
//
// A Redis OSS or Valkey cluster with atRestEncryptionEnabled or more than one node is made as a
// replication group (AWS has no encryption at rest and no replicas for a standalone cache
// cluster): its ReplicationGroupId is clusterID, it has numCacheNodes member clusters (the first
// the primary; automatic failover and Multi-AZ are on when there is more than one), and
// status.mode says ReplicationGroup. Every other cluster is a standalone cache cluster. Changing
// between the two is a replacement, which the operator refuses.
//
// subnetGroupName can be corrected until the cluster is created in AWS (status.clusterID is
// empty, for example while the named group does not exist), and is fixed from then on.
// +kubebuilder:validation:XValidation:rule="self.clusterID == oldSelf.clusterID",message="clusterID cannot change; create a new ElastiCacheCluster to rename the cluster"
// +kubebuilder:validation:XValidation:rule="self.engine == oldSelf.engine",message="engine cannot change; create a new ElastiCacheCluster with the other engine and move the clients"
// +kubebuilder:validation:XValidation:rule="(has(self.transitEncryptionEnabled) && self.transitEncryptionEnabled) == (has(oldSelf.transitEncryptionEnabled) && oldSelf.transitEncryptionEnabled)",message="transitEncryptionEnabled cannot change after creation; create a new ElastiCacheCluster with the setting you want"
// +kubebuilder:validation:XValidation:rule="(has(self.atRestEncryptionEnabled) && self.atRestEncryptionEnabled) == (has(oldSelf.atRestEncryptionEnabled) && oldSelf.atRestEncryptionEnabled)",message="atRestEncryptionEnabled cannot change after creation (it decides whether the cluster is a replication group); create a new ElastiCacheCluster with the setting you want"
// +kubebuilder:validation:XValidation:rule="self.engine == 'memcached' || self.numCacheNodes == oldSelf.numCacheNodes || (has(self.atRestEncryptionEnabled) && self.atRestEncryptionEnabled) || (self.numCacheNodes > 1 && oldSelf.numCacheNodes > 1)",message="numCacheNodes of a Redis OSS or Valkey cluster without atRestEncryptionEnabled cannot go from 1 to more or back to 1: that would turn a standalone cache cluster into a replication group or back; change it between 2 and 6, or create a new ElastiCacheCluster with the number you want"
// +kubebuilder:validation:XValidation:rule="self.engine != 'memcached' || self.numCacheNodes <= 40",message="a Memcached cluster has 1 to 40 nodes"
// +kubebuilder:validation:XValidation:rule="self.engine == 'memcached' || self.numCacheNodes <= 6",message="a Redis OSS or Valkey cluster has 1 to 6 nodes (a primary and up to 5 replicas)"
// +kubebuilder:validation:XValidation:rule="self.engine != 'memcached' || !(has(self.snapshotRetentionLimit) || has(self.snapshotWindow) || has(self.finalSnapshotIdentifier))",message="Memcached keeps no data on disk: snapshotRetentionLimit, snapshotWindow and finalSnapshotIdentifier are for redis and valkey only"
// +kubebuilder:validation:XValidation:rule="self.engine != 'memcached' || !(has(self.atRestEncryptionEnabled) && self.atRestEncryptionEnabled)",message="atRestEncryptionEnabled is for redis and valkey only"
// +kubebuilder:validation:XValidation:rule="self.engine == 'memcached' || !has(self.azMode)",message="azMode is for memcached only; a Redis OSS or Valkey cluster of several nodes spreads its replicas over the zones of its subnet group"
// +kubebuilder:validation:XValidation:rule="!has(self.authTokenSecretRef) || (has(self.transitEncryptionEnabled) && self.transitEncryptionEnabled)",message="authTokenSecretRef needs transitEncryptionEnabled: true (AWS sends the AUTH token only over TLS)"
// +kubebuilder:validation:XValidation:rule="!has(self.authTokenSecretRef) || self.engine != 'memcached'",message="authTokenSecretRef is for redis and valkey only"
// +kubebuilder:validation:XValidation:rule="!has(self.subnetGroupName) || !(has(self.subnetIDs) || has(self.subnetRefs))",message="give the subnets either as subnetGroupName or as subnetIDs/subnetRefs (the operator then makes a subnet group named after clusterID), not both"
// +kubebuilder:validation:XValidation:rule="!(has(self.parameterGroupName) && has(self.parameterGroupRef))",message="give the parameter group as at most one of parameterGroupName and parameterGroupRef"
type ElastiCacheClusterSpec struct {
	shared.ManagedSpec `json:",inline"`

	// ClusterID is the cluster's name in AWS (the replication group's id for a replication
	// group): a letter, then letters, digits and hyphens, at most 40 characters. AWS stores it
	// lowercased. It cannot change.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=40
	// +kubebuilder:validation:Pattern=`^[a-zA-Z][a-zA-Z0-9-]*$`
	// +kubebuilder:validation:XValidation:rule="!self.endsWith('-') && !self.contains('--')",message="clusterID cannot end with a hyphen or hold two consecutive hyphens"
	ClusterID string `json:"clusterID"`

	// Engine is the cache engine: redis (Redis OSS), valkey or memcached. It cannot change.
	// +kubebuilder:validation:Enum=redis;valkey;memcached
	Engine string `json:"engine"`

	// EngineVersion is the engine version, for example "7.0" or "1.6.17"; empty takes AWS's
	// latest. A change is an upgrade (applied as applyImmediately says); a downgrade is refused.
	// +optional
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[0-9]+(\.[0-9]+)*$`
	EngineVersion string `json:"engineVersion,omitempty"`

	// NodeType is the cache node type, for example cache.t3.medium. A change resizes the nodes
	// (applied as applyImmediately says).
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^cache\.[a-z0-9-]+\.[a-z0-9-]+$`
	NodeType string `json:"nodeType"`

	// NumCacheNodes is the number of nodes: 1 to 40 for Memcached (a change adds or removes
	// nodes, the newest first, as applyImmediately says), 1 to 6 for Redis OSS and Valkey, where
	// more than one makes a replication group of a primary and numCacheNodes-1 replicas. A
	// replication group's count changes at once whatever applyImmediately says (AWS adds and
	// removes replicas only at once), the newest replicas going first; going down to 1 turns
	// automatic failover and Multi-AZ off first, and going up from 1 turns them on once the
	// replicas are there. A Redis OSS or Valkey cluster without atRestEncryptionEnabled keeps
	// 1 node, or 2 to 6, for good: between the two it would change from a standalone cluster to
	// a replication group.
	// +optional
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=40
	NumCacheNodes int32 `json:"numCacheNodes,omitempty"`

	// AZMode places the nodes of a Memcached cluster in one availability zone (single-az,
	// AWS's default) or across the zones of its subnet group (cross-az).
	// +optional
	// +kubebuilder:validation:Enum=single-az;cross-az
	AZMode string `json:"azMode,omitempty"`

	// SubnetGroupName is an existing cache subnet group to place the cluster in, used as is.
	// Empty with subnetIDs or subnetRefs, the operator makes a subnet group named after
	// clusterID and deletes it with the cluster; empty without them, AWS places the cluster in
	// the default VPC's "default" subnet group. It can be corrected until the cluster exists in
	// AWS (status.clusterID is empty), and cannot change after.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	SubnetGroupName string `json:"subnetGroupName,omitempty"`

	// SubnetIDs are the subnets of the subnet group the operator makes (with subnetRefs) when
	// subnetGroupName is empty.
	// +optional
	// +kubebuilder:validation:MaxItems=20
	SubnetIDs []string `json:"subnetIDs,omitempty"`

	// SubnetRefs name Subnet objects (networking family) in this namespace that join
	// subnetIDs; the cluster waits (Ready False, ReferenceNotFound or ReferenceNotReady) until
	// they exist and are Ready.
	// +optional
	// +kubebuilder:validation:MaxItems=20
	SubnetRefs []shared.Reference `json:"subnetRefs,omitempty"`

	// SecurityGroupIDs are the VPC security groups of the cluster, in the VPC of its subnet
	// group. Empty (with no securityGroupRefs) leaves the groups as AWS has them.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	SecurityGroupIDs []string `json:"securityGroupIDs,omitempty"`

	// SecurityGroupRefs name SecurityGroup objects (networking family) in this namespace that
	// join securityGroupIDs; the cluster waits until they exist and are Ready.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	SecurityGroupRefs []shared.Reference `json:"securityGroupRefs,omitempty"`

	// ParameterGroupName is an existing cache parameter group of the family of the cluster's
	// engine version (for example default.redis7 or one made outside this cluster), used as
	// is; empty (with no parameterGroupRef) takes the family's default group at creation and
	// leaves the group as AWS has it after. A change moves the cluster to the other group.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	ParameterGroupName string `json:"parameterGroupName,omitempty"`

	// ParameterGroupRef names an ElastiCacheParameterGroup in this namespace, instead of
	// parameterGroupName; the cluster waits (Ready False, ReferenceNotFound or
	// ReferenceNotReady) until the group is Ready. Changes of the group's parameters that wait
	// for a reboot show in status.parameterApplyStatus (pending-reboot) and
	// status.pendingModifiedValues: the operator never reboots a cluster by itself.
	// +optional
	ParameterGroupRef *shared.Reference `json:"parameterGroupRef,omitempty"`

	// SnapshotRetentionLimit is how many days automatic snapshots are kept (redis and valkey
	// only); 0 turns them off. Unset leaves AWS's value (0).
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=35
	SnapshotRetentionLimit *int32 `json:"snapshotRetentionLimit,omitempty"`

	// SnapshotWindow is the daily UTC window of automatic snapshots, "hh24:mi-hh24:mi", at
	// least 60 minutes long and outside the maintenance window (redis and valkey only).
	// +optional
	// +kubebuilder:validation:MaxLength=11
	// +kubebuilder:validation:Pattern=`^([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]$`
	// +kubebuilder:validation:XValidation:rule="!self.matches('^([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]$') || (int(self.substring(6, 8)) * 60 + int(self.substring(9, 11)) - int(self.substring(0, 2)) * 60 - int(self.substring(3, 5)) + 1440) % 1440 >= 60",message="snapshotWindow must be at least 60 minutes long"
	SnapshotWindow string `json:"snapshotWindow,omitempty"`

	// PreferredMaintenanceWindow is the weekly UTC maintenance window,
	// "ddd:hh24:mi-ddd:hh24:mi", at least 60 minutes long. Changes made with
	// applyImmediately false wait for it.
	// +optional
	// +kubebuilder:validation:MaxLength=19
	// +kubebuilder:validation:Pattern=`^(mon|tue|wed|thu|fri|sat|sun):([01][0-9]|2[0-3]):[0-5][0-9]-(mon|tue|wed|thu|fri|sat|sun):([01][0-9]|2[0-3]):[0-5][0-9]$`
	// +kubebuilder:validation:XValidation:rule="!self.matches('^(mon|tue|wed|thu|fri|sat|sun):([01][0-9]|2[0-3]):[0-5][0-9]-(mon|tue|wed|thu|fri|sat|sun):([01][0-9]|2[0-3]):[0-5][0-9]$') || ({'mon': 0, 'tue': 1, 'wed': 2, 'thu': 3, 'fri': 4, 'sat': 5, 'sun': 6}[self.substring(10, 13)] * 1440 + int(self.substring(14, 16)) * 60 + int(self.substring(17, 19)) - {'mon': 0, 'tue': 1, 'wed': 2, 'thu': 3, 'fri': 4, 'sat': 5, 'sun': 6}[self.substring(0, 3)] * 1440 - int(self.substring(4, 6)) * 60 - int(self.substring(7, 9)) + 10080) % 10080 >= 60",message="preferredMaintenanceWindow must be at least 60 minutes long"
	PreferredMaintenanceWindow string `json:"preferredMaintenanceWindow,omitempty"`

	// TransitEncryptionEnabled encrypts the connections to the cluster with TLS (Redis OSS,
	// Valkey, and Memcached 1.6.12 and later). It cannot change after creation.
	// +optional
	TransitEncryptionEnabled bool `json:"transitEncryptionEnabled,omitempty"`

	// AtRestEncryptionEnabled encrypts the data on disk (redis and valkey only); the cluster is
	// then a replication group, as AWS requires. It cannot change after creation.
	// +optional
	AtRestEncryptionEnabled bool `json:"atRestEncryptionEnabled,omitempty"`

	// AuthTokenSecretRef names the Secret key (in this namespace) holding the AUTH token
	// clients give (redis and valkey, with transitEncryptionEnabled): 16 to 128 letters,
	// digits and !&#$^<>-. A change of the Secret's value is applied with the ROTATE strategy,
	// so clients holding the old token keep working until they switch. The token is never
	// logged or written to the object; status.authTokenHash is a salted hash of it.
	// +optional
	AuthTokenSecretRef *shared.SecretKeySelector `json:"authTokenSecretRef,omitempty" output:"authToken"`

	// ApplyImmediately applies node type, engine version and Memcached node count changes now (the
	// default: a change pushed through Git is expected to take effect) instead of in the next
	// maintenance window (false, AWS's own default). Windows, snapshot retention, security
	// groups, the AUTH token and a replication group's node count always change at once.
	// +optional
	// +kubebuilder:default=true
	ApplyImmediately *bool `json:"applyImmediately,omitempty"`

	// FinalSnapshotIdentifier names a snapshot taken when the cluster is deleted
	// (deletionPolicy Delete; redis and valkey only). Empty deletes without one.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[a-zA-Z][a-zA-Z0-9-]*$`
	FinalSnapshotIdentifier string `json:"finalSnapshotIdentifier,omitempty"`
}

// ElastiCacheClusterStatus is the observed state of an ElastiCache cluster.
type ElastiCacheClusterStatus struct {
	shared.ManagedStatus `json:",inline"`

	// ClusterID is the cluster's (or replication group's) id in AWS.
	// +optional
	ClusterID string `json:"clusterID,omitempty" output:""`

	// ClusterStatus is ElastiCache's state of the cluster: creating, available, modifying,
	// snapshotting, deleting, ...
	// +optional
	ClusterStatus string `json:"clusterStatus,omitempty"`

	// Mode is how the cluster is made in AWS: CacheCluster or ReplicationGroup.
	// +optional
	Mode string `json:"mode,omitempty"`

	// ARN is the cluster's (or replication group's) ARN.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// Endpoint is the address clients connect to: the configuration endpoint of a Memcached
	// cluster, the primary endpoint of a replication group, the node's endpoint of a
	// single-node Redis OSS or Valkey cluster.
	// +optional
	Endpoint string `json:"endpoint,omitempty" output:""`

	// Port is the port of the endpoint.
	// +optional
	Port int32 `json:"port,omitempty" output:""`

	// ReaderEndpoint is a replication group's reader endpoint, which spreads reads over its
	// replicas.
	// +optional
	ReaderEndpoint string `json:"readerEndpoint,omitempty" output:""`

	// NodeEndpoints are the endpoints of the cluster's nodes, "address:port", in node order.
	// +optional
	NodeEndpoints []string `json:"nodeEndpoints,omitempty"`

	// EngineVersion is the engine version the cluster runs.
	// +optional
	EngineVersion string `json:"engineVersion,omitempty"`

	// NodeType is the node type the cluster runs.
	// +optional
	NodeType string `json:"nodeType,omitempty"`

	// PendingModifiedValues names the changes AWS will apply in the next maintenance window,
	// as "field=value".
	// +optional
	PendingModifiedValues []string `json:"pendingModifiedValues,omitempty"`

	// SubnetGroupName is the cache subnet group the cluster is in.
	// +optional
	SubnetGroupName string `json:"subnetGroupName,omitempty"`

	// ParameterGroupName is the cache parameter group the cluster uses.
	// +optional
	ParameterGroupName string `json:"parameterGroupName,omitempty"`

	// ParameterApplyStatus is how far the parameter group's changes are applied to the
	// cluster: in-sync, applying, or pending-reboot (changes wait for the cluster's nodes to
	// reboot).
	// +optional
	ParameterApplyStatus string `json:"parameterApplyStatus,omitempty"`

	// AuthTokenHash is a salted, stretched hash of the AUTH token last applied (never the
	// token), by which a change of the Secret is seen without reading the token back.
	// +optional
	AuthTokenHash string `json:"authTokenHash,omitempty"`
}

// ElastiCacheCluster is an ElastiCache cluster of Redis OSS, Valkey or Memcached.
// +kubebuilder:validation:XValidation:rule="(has(self.spec.subnetGroupName) == has(oldSelf.spec.subnetGroupName) && (!has(self.spec.subnetGroupName) || self.spec.subnetGroupName == oldSelf.spec.subnetGroupName)) || !has(oldSelf.status) || !has(oldSelf.status.clusterID) || size(oldSelf.status.clusterID) == 0",message="spec.subnetGroupName cannot change once the cluster exists in AWS (status.clusterID is set); create a new ElastiCacheCluster to move the cluster"
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=ecc;elasticache,categories={aws,aws-caching}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="CLUSTER",type=string,JSONPath=`.spec.clusterID`
// +kubebuilder:printcolumn:name="ENGINE",type=string,JSONPath=`.spec.engine`
// +kubebuilder:printcolumn:name="STATUS",type=string,JSONPath=`.status.clusterStatus`
// +kubebuilder:printcolumn:name="ENDPOINT",type=string,JSONPath=`.status.endpoint`,priority=1
// +kubebuilder:printcolumn:name="PENDING",type=string,JSONPath=`.status.pendingModifiedValues`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type ElastiCacheCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ElastiCacheClusterSpec   `json:"spec"`
	Status ElastiCacheClusterStatus `json:"status,omitempty"`
}

// ElastiCacheClusterList is a list of ElastiCacheClusters.
// +kubebuilder:object:root=true
type ElastiCacheClusterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ElastiCacheCluster `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (c *ElastiCacheCluster) GetManagedSpec() *shared.ManagedSpec { return &c.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (c *ElastiCacheCluster) GetManagedStatus() *shared.ManagedStatus { return &c.Status.ManagedStatus }

// Mode returns how the spec's cluster is made in AWS: ModeReplicationGroup for a Redis OSS or
// Valkey cluster with encryption at rest or more than one node, ModeCacheCluster otherwise.
func (s *ElastiCacheClusterSpec) Mode() string {
	if s.Engine != "memcached" && (s.AtRestEncryptionEnabled || s.NumCacheNodes > 1) {
		return ModeReplicationGroup
	}
	return ModeCacheCluster
}
