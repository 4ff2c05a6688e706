package v1alpha1

import (
	"fmt"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// ACUs is a number of Aurora capacity units, written as a YAML or JSON number (0.5, 2, 16)
// and kept as written.
// +kubebuilder:validation:Type=number
type ACUs string

// UnmarshalJSON takes a JSON number, as the API server keeps it.
func (a *ACUs) UnmarshalJSON(b []byte) error {
	if _, err := strconv.ParseFloat(string(b), 64); err != nil {
		return fmt.Errorf("Aurora capacity units %s are not a number: %w", b, err)
	}
	*a = ACUs(b)
	return nil
}

// MarshalJSON writes the capacity as a JSON number.
func (a ACUs) MarshalJSON() ([]byte, error) {
	if a == "" {
		return []byte("0"), nil
	}
	return []byte(a), nil
}

// Float returns the capacity as a number (0 when empty).
func (a ACUs) Float() float64 {
	f, _ := strconv.ParseFloat(string(a), 64)
	return f
}

// RDSServerlessV2Scaling is the capacity range of the cluster's Aurora Serverless v2
// (db.serverless) instances, in Aurora capacity units (ACUs) in steps of 0.5.
// +kubebuilder:validation:XValidation:rule="self.minCapacity <= self.maxCapacity",message="serverlessV2Scaling.minCapacity cannot be above maxCapacity"
type RDSServerlessV2Scaling struct {
	// MinCapacity is the fewest ACUs an instance scales down to: 0 (pauses when idle, on the
	// engine versions that support it) to 256, in steps of 0.5.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=256
	// +kubebuilder:validation:XValidation:rule="self * 2.0 == double(int(self * 2.0))",message="minCapacity is a number of ACUs in steps of 0.5, such as 0.5, 1 or 2.5"
	MinCapacity ACUs `json:"minCapacity"`

	// MaxCapacity is the most ACUs an instance scales up to: 1 to 256, in steps of 0.5.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=256
	// +kubebuilder:validation:XValidation:rule="self * 2.0 == double(int(self * 2.0))",message="maxCapacity is a number of ACUs in steps of 0.5, such as 4, 16 or 64.5"
	MaxCapacity ACUs `json:"maxCapacity"`
}

// RDSDBClusterInstances are the DB instances of an Aurora cluster: the writer and its readers,
// all of one class, named <dbClusterIdentifier>-1, -2, ...
type RDSDBClusterInstances struct {
	// Count is how many instances the cluster has: the writer and count - 1 readers. Scaling
	// down deletes the highest-numbered instances that are not the writer.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=16
	Count int32 `json:"count"`

	// InstanceClass is the instances' class, for example db.r6g.large, or db.serverless for
	// Aurora Serverless v2 (which needs spec.serverlessV2Scaling). A change is applied to every
	// instance (in the maintenance window unless applyImmediately).
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^db\.[a-z0-9-]+(\.[a-z0-9-]+)?$`
	InstanceClass string `json:"instanceClass"`

	// PubliclyAccessible gives the instances public DNS names.
	// +optional
	PubliclyAccessible bool `json:"publiclyAccessible,omitempty"`

	// PerformanceInsights configures Performance Insights of the instances. Not managed when
	// unset.
	// +optional
	PerformanceInsights *RDSPerformanceInsights `json:"performanceInsights,omitempty"`
}

// RDSDBClusterSpec is the desired state of an Aurora DB cluster and its instances.
// +kubebuilder:validation:XValidation:rule="self.dbClusterIdentifier == oldSelf.dbClusterIdentifier",message="dbClusterIdentifier cannot change; create a new RDSDBCluster (or restore a snapshot) to rename"
// +kubebuilder:validation:XValidation:rule="self.engine == oldSelf.engine",message="engine cannot change; create a new RDSDBCluster and migrate the data"
// +kubebuilder:validation:XValidation:rule="self.masterUsername == oldSelf.masterUsername",message="masterUsername cannot change after creation"
// +kubebuilder:validation:XValidation:rule="has(self.databaseName) == has(oldSelf.databaseName) && (!has(self.databaseName) || self.databaseName == oldSelf.databaseName)",message="databaseName cannot change after creation"
// +kubebuilder:validation:XValidation:rule="(has(self.storageEncrypted) && self.storageEncrypted) == (has(oldSelf.storageEncrypted) && oldSelf.storageEncrypted)",message="storageEncrypted cannot change after creation; restore an encrypted copy of a snapshot instead"
// +kubebuilder:validation:XValidation:rule="has(self.masterUserPasswordSecretRef) != (has(self.manageMasterUserPassword) && self.manageMasterUserPassword)",message="give the master password as exactly one of masterUserPasswordSecretRef (a Secret of this namespace) and manageMasterUserPassword: true (RDS keeps it in Secrets Manager)"
// +kubebuilder:validation:XValidation:rule="!(has(self.masterUserSecretKMSKeyID) || has(self.masterUserSecretKMSKeyRef)) || (has(self.manageMasterUserPassword) && self.manageMasterUserPassword)",message="masterUserSecretKMSKeyID and masterUserSecretKMSKeyRef need manageMasterUserPassword: true"
// +kubebuilder:validation:XValidation:rule="!(has(self.masterUserSecretKMSKeyID) && has(self.masterUserSecretKMSKeyRef))",message="give the master user secret's KMS key as at most one of masterUserSecretKMSKeyID or masterUserSecretKMSKeyRef"
// +kubebuilder:validation:XValidation:rule="!(has(self.kmsKeyID) || has(self.kmsKeyRef)) || (has(self.storageEncrypted) && self.storageEncrypted)",message="kmsKeyID and kmsKeyRef need storageEncrypted: true"
// +kubebuilder:validation:XValidation:rule="!(has(self.kmsKeyID) && has(self.kmsKeyRef))",message="give the storage KMS key as at most one of kmsKeyID or kmsKeyRef"
// +kubebuilder:validation:XValidation:rule="self.instances.instanceClass != 'db.serverless' || has(self.serverlessV2Scaling)",message="instanceClass db.serverless needs serverlessV2Scaling (minCapacity and maxCapacity)"
// +kubebuilder:validation:XValidation:rule="self.masterUsername.size() <= (self.engine == 'aurora-mysql' ? 16 : 63)",message="masterUsername is too long for the engine: at most 16 characters for aurora-mysql, 63 for aurora-postgresql"
// +kubebuilder:validation:XValidation:rule="self.masterUsername.lowerAscii() != 'rdsadmin'",message="masterUsername rdsadmin is reserved: RDS uses it to administer the cluster; choose another name"
// +kubebuilder:validation:XValidation:rule="self.engine != 'aurora-postgresql' || !(self.masterUsername.lowerAscii() in ['admin', 'public', 'none'] || self.masterUsername.lowerAscii().startsWith('pg_'))",message="aurora-postgresql reserves the user names admin, public, none and names starting with pg_; choose another masterUsername"
// +kubebuilder:validation:XValidation:rule="!has(self.dbSubnetGroupName) || !(has(self.subnetIDs) || has(self.subnetRefs))",message="give the subnets either as dbSubnetGroupName or as subnetIDs/subnetRefs (the operator then makes a DB subnet group named after dbClusterIdentifier), not both"
// +kubebuilder:validation:XValidation:rule="(!has(self.dbSubnetGroupName) && (has(self.subnetIDs) || has(self.subnetRefs))) == (!has(oldSelf.dbSubnetGroupName) && (has(oldSelf.subnetIDs) || has(oldSelf.subnetRefs)))",message="whether the operator makes the DB subnet group (subnetIDs/subnetRefs without dbSubnetGroupName) cannot change: a cluster cannot move to another subnet group; create a new RDSDBCluster"
// +kubebuilder:validation:XValidation:rule="!has(self.dbSubnetGroupName) || (has(oldSelf.dbSubnetGroupName) && self.dbSubnetGroupName == oldSelf.dbSubnetGroupName)",message="dbSubnetGroupName cannot change: a cluster cannot move to another subnet group; create a new RDSDBCluster"
// +kubebuilder:validation:XValidation:rule="(has(self.vpcSecurityGroupIDs) ? size(self.vpcSecurityGroupIDs) : 0) + (has(self.securityGroupRefs) ? size(self.securityGroupRefs) : 0) <= 5",message="a cluster has at most 5 VPC security groups: vpcSecurityGroupIDs and securityGroupRefs together"
// +kubebuilder:validation:XValidation:rule="!(has(self.dbClusterParameterGroupName) && has(self.dbClusterParameterGroupRef))",message="give the cluster parameter group as at most one of dbClusterParameterGroupName and dbClusterParameterGroupRef"
type RDSDBClusterSpec struct {
	shared.ManagedSpec `json:",inline"`

	// DBClusterIdentifier is the cluster's name in AWS: letters, digits and hyphens, starting
	// with a letter, at most 60 characters (its instances are named
	// <dbClusterIdentifier>-<n>). It cannot change.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=60
	// +kubebuilder:validation:Pattern=`^[a-zA-Z][a-zA-Z0-9-]*$`
	// +kubebuilder:validation:XValidation:rule="!self.endsWith('-') && !self.contains('--')",message="dbClusterIdentifier cannot end with a hyphen or hold two consecutive hyphens"
	DBClusterIdentifier string `json:"dbClusterIdentifier"`

	// Engine is the Aurora engine, aurora-postgresql or aurora-mysql. It cannot change.
	// +kubebuilder:validation:Enum=aurora-postgresql;aurora-mysql
	Engine string `json:"engine"`

	// EngineVersion is the engine version, for example "16.4" or "8.0.mysql_aurora.3.08.0".
	// Empty takes AWS's default; a change is an upgrade of the cluster and its instances.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	EngineVersion string `json:"engineVersion,omitempty"`

	// Instances are the cluster's DB instances: how many, and their class.
	Instances RDSDBClusterInstances `json:"instances"`

	// ServerlessV2Scaling is the capacity range of db.serverless instances; required with
	// instanceClass db.serverless.
	// +optional
	ServerlessV2Scaling *RDSServerlessV2Scaling `json:"serverlessV2Scaling,omitempty"`

	// MasterUsername is the administrator's user name: a letter, then letters, digits or
	// underscores; at most 16 characters for aurora-mysql, 63 for aurora-postgresql. It cannot
	// change.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-zA-Z][a-zA-Z0-9_]*$`
	MasterUsername string `json:"masterUsername" output:"username"`

	// MasterUserPasswordSecretRef names the Secret key (in this namespace) that holds the
	// administrator's password; a change of the Secret's value is applied to the cluster. Set
	// it or manageMasterUserPassword, not both.
	// +optional
	MasterUserPasswordSecretRef *shared.SecretKeySelector `json:"masterUserPasswordSecretRef,omitempty" output:"password"`

	// ManageMasterUserPassword lets RDS generate the password and keep it in a secret of AWS
	// Secrets Manager, whose ARN status.masterUserSecretARN reports.
	// +optional
	ManageMasterUserPassword bool `json:"manageMasterUserPassword,omitempty"`

	// MasterUserSecretKMSKeyID is the KMS key that encrypts the Secrets Manager secret of
	// manageMasterUserPassword (a key id, ARN, alias or alias ARN); empty takes
	// aws/secretsmanager.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="self.matches('^((arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:key/)?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|mrk-[0-9a-fA-F]{32})|(arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:)?alias/[a-zA-Z0-9/_-]{1,250})$')",message="give the KMS key as a key id (1234abcd-12ab-34cd-56ef-1234567890ab, or mrk- and 32 hex digits for a multi-Region key), a key ARN (arn:aws:kms:<region>:<account>:key/<key id>), an alias (alias/my-key, or alias/aws/<service> for the AWS managed key) or an alias ARN"
	MasterUserSecretKMSKeyID string `json:"masterUserSecretKMSKeyID,omitempty"`

	// MasterUserSecretKMSKeyRef names a KMSKey (security family) in this namespace that
	// encrypts the Secrets Manager secret of manageMasterUserPassword, by its key ARN.
	// +optional
	MasterUserSecretKMSKeyRef *shared.Reference `json:"masterUserSecretKMSKeyRef,omitempty"`

	// DatabaseName is the database created with the cluster. It cannot change.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-zA-Z][a-zA-Z0-9_]*$`
	DatabaseName string `json:"databaseName,omitempty"`

	// Port the database listens on; empty takes the engine's default (5432 or 3306).
	// +optional
	// +kubebuilder:validation:Minimum=1150
	// +kubebuilder:validation:Maximum=65535
	Port *int32 `json:"port,omitempty"`

	// DBSubnetGroupName is an existing DB subnet group to place the cluster in, used as is.
	// Empty with subnetIDs or subnetRefs, the operator makes a DB subnet group named after
	// dbClusterIdentifier, keeps its subnets and tags as the spec says, and deletes it after
	// the cluster; empty without them, the cluster is placed in the default VPC.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	DBSubnetGroupName string `json:"dbSubnetGroupName,omitempty"`

	// SubnetIDs are the subnets of the DB subnet group the operator makes (with subnetRefs)
	// when dbSubnetGroupName is empty: at least two, in two availability zones.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=20
	// +kubebuilder:validation:items:Pattern=`^subnet-[0-9a-z]+$`
	// +kubebuilder:validation:items:MaxLength=32
	SubnetIDs []string `json:"subnetIDs,omitempty"`

	// SubnetRefs name Subnet objects (networking family) in this namespace whose subnets join
	// subnetIDs; the cluster waits (Ready False, ReferenceNotFound or ReferenceNotReady) until
	// they exist and are Ready.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=20
	SubnetRefs []shared.Reference `json:"subnetRefs,omitempty"`

	// VPCSecurityGroupIDs are the VPC security groups of the cluster, in the VPC of its
	// subnets. Empty (with no securityGroupRefs) leaves the groups as AWS has them (the VPC's
	// default group for a new cluster).
	// +optional
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:Pattern=`^sg-[0-9a-z]+$`
	// +kubebuilder:validation:items:MaxLength=32
	VPCSecurityGroupIDs []string `json:"vpcSecurityGroupIDs,omitempty"`

	// SecurityGroupRefs name SecurityGroup objects (networking family) in this namespace whose
	// groups join vpcSecurityGroupIDs; the cluster waits until they exist and are Ready.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	SecurityGroupRefs []shared.Reference `json:"securityGroupRefs,omitempty"`

	// StorageEncrypted encrypts the cluster's storage. It cannot change after creation.
	// +optional
	StorageEncrypted *bool `json:"storageEncrypted,omitempty"`

	// KMSKeyID is the KMS key that encrypts the storage (a key id, ARN, alias or alias ARN);
	// empty takes aws/rds. It cannot change after creation.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="self.matches('^((arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:key/)?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|mrk-[0-9a-fA-F]{32})|(arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:)?alias/[a-zA-Z0-9/_-]{1,250})$')",message="give the KMS key as a key id (1234abcd-12ab-34cd-56ef-1234567890ab, or mrk- and 32 hex digits for a multi-Region key), a key ARN (arn:aws:kms:<region>:<account>:key/<key id>), an alias (alias/my-key, or alias/aws/<service> for the AWS managed key) or an alias ARN"
	KMSKeyID string `json:"kmsKeyID,omitempty"`

	// KMSKeyRef names a KMSKey (security family) in this namespace that encrypts the storage,
	// by its key ARN; it needs storageEncrypted. The cluster waits until the KMSKey is Ready.
	// +optional
	KMSKeyRef *shared.Reference `json:"kmsKeyRef,omitempty"`

	// BackupRetentionPeriod is how many days automated backups are kept: 1 to 35 (Aurora
	// always keeps at least one day).
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=35
	BackupRetentionPeriod *int32 `json:"backupRetentionPeriod,omitempty"`

	// PreferredBackupWindow is the daily UTC window for automated backups, "hh24:mi-hh24:mi",
	// at least 30 minutes long and outside the maintenance window.
	// +optional
	// +kubebuilder:validation:MaxLength=11
	// +kubebuilder:validation:XValidation:rule="!self.matches('^([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]$') || (int(self.substring(6, 8)) * 60 + int(self.substring(9, 11)) - int(self.substring(0, 2)) * 60 - int(self.substring(3, 5)) + 1440) % 1440 >= 30",message="preferredBackupWindow must be at least 30 minutes long"
	// +kubebuilder:validation:Pattern=`^([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]$`
	PreferredBackupWindow string `json:"preferredBackupWindow,omitempty"`

	// PreferredMaintenanceWindow is the weekly UTC maintenance window of the cluster and its
	// instances, "ddd:hh24:mi-ddd:hh24:mi", at least 30 minutes long.
	// +optional
	// +kubebuilder:validation:MaxLength=19
	// +kubebuilder:validation:XValidation:rule="!self.matches('^(mon|tue|wed|thu|fri|sat|sun):([01][0-9]|2[0-3]):[0-5][0-9]-(mon|tue|wed|thu|fri|sat|sun):([01][0-9]|2[0-3]):[0-5][0-9]$') || ({'mon': 0, 'tue': 1, 'wed': 2, 'thu': 3, 'fri': 4, 'sat': 5, 'sun': 6}[self.substring(10, 13)] * 1440 + int(self.substring(14, 16)) * 60 + int(self.substring(17, 19)) - {'mon': 0, 'tue': 1, 'wed': 2, 'thu': 3, 'fri': 4, 'sat': 5, 'sun': 6}[self.substring(0, 3)] * 1440 - int(self.substring(4, 6)) * 60 - int(self.substring(7, 9)) + 10080) % 10080 >= 30",message="preferredMaintenanceWindow must be at least 30 minutes long"
	// +kubebuilder:validation:Pattern=`^(mon|tue|wed|thu|fri|sat|sun):([01][0-9]|2[0-3]):[0-5][0-9]-(mon|tue|wed|thu|fri|sat|sun):([01][0-9]|2[0-3]):[0-5][0-9]$`
	PreferredMaintenanceWindow string `json:"preferredMaintenanceWindow,omitempty"`

	// DBClusterParameterGroupName is the DB cluster parameter group; empty takes the engine's
	// default.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	DBClusterParameterGroupName string `json:"dbClusterParameterGroupName,omitempty"`

	// DBClusterParameterGroupRef names an RDSDBParameterGroup of scope Cluster in this
	// namespace, instead of dbClusterParameterGroupName; the cluster waits until the group is
	// Ready. Changes that wait for a reboot show in status.parameterApplyStatus
	// (pending-reboot): the operator never reboots a database by itself.
	// +optional
	DBClusterParameterGroupRef *shared.Reference `json:"dbClusterParameterGroupRef,omitempty"`

	// DeletionProtection stops the cluster from being deleted, by the operator or anyone
	// else, until it is turned off. Not managed when unset: protection turned on outside the
	// operator is kept, and holds the cluster's deletion too.
	// +optional
	DeletionProtection *bool `json:"deletionProtection,omitempty"`

	// ApplyImmediately applies changes now instead of in the next maintenance window.
	// +optional
	ApplyImmediately bool `json:"applyImmediately,omitempty"`

	// FinalSnapshot says whether deleting the cluster first takes a final DB cluster snapshot
	// (it does unless skip is true).
	// +optional
	FinalSnapshot *RDSFinalSnapshot `json:"finalSnapshot,omitempty"`
}

// RDSDBClusterMember is one DB instance of the cluster.
type RDSDBClusterMember struct {
	// Identifier is the instance's identifier.
	Identifier string `json:"identifier"`
	// Writer says whether the instance is the cluster's writer.
	// +optional
	Writer bool `json:"writer,omitempty"`
	// Status is RDS's state of the instance: creating, available, modifying, deleting, ...
	// +optional
	Status string `json:"status,omitempty"`
}

// RDSDBClusterStatus is the observed state of an Aurora DB cluster.
type RDSDBClusterStatus struct {
	shared.ManagedStatus `json:",inline"`

	// DBClusterIdentifier is the cluster's name in AWS.
	// +optional
	DBClusterIdentifier string `json:"dbClusterIdentifier,omitempty" output:""`

	// Status is RDS's state of the cluster: creating, available, modifying, deleting, ...
	// +optional
	Status string `json:"status,omitempty"`

	// Endpoint is the DNS name of the writer, for reads and writes.
	// +optional
	Endpoint string `json:"endpoint,omitempty" output:""`

	// ReaderEndpoint is the DNS name that spreads connections over the readers.
	// +optional
	ReaderEndpoint string `json:"readerEndpoint,omitempty" output:""`

	// Port is the port clients connect to.
	// +optional
	Port int32 `json:"port,omitempty" output:""`

	// ARN is the cluster's ARN.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// MasterUserSecretARN is the Secrets Manager secret that holds the master password, with
	// manageMasterUserPassword.
	// +optional
	MasterUserSecretARN string `json:"masterUserSecretARN,omitempty" output:""`

	// DBSubnetGroupName is the DB subnet group the cluster is in: the spec's, or the one the
	// operator made for it.
	// +optional
	DBSubnetGroupName string `json:"dbSubnetGroupName,omitempty"`

	// Members are the cluster's DB instances.
	// +optional
	Members []RDSDBClusterMember `json:"members,omitempty"`

	// ParameterApplyStatus is how far the cluster parameter group's changes are applied to
	// the instances: in-sync, applying, or pending-reboot (an instance must reboot).
	// +optional
	ParameterApplyStatus string `json:"parameterApplyStatus,omitempty"`

	// PendingModifications names the changes RDS will apply in the next maintenance window.
	// +optional
	PendingModifications []string `json:"pendingModifications,omitempty"`

	// MasterUserPasswordVersion identifies the version of the password Secret last applied
	// (the Secret's name and resourceVersion, never its value).
	// +optional
	MasterUserPasswordVersion string `json:"masterUserPasswordVersion,omitempty"`
}

// RDSDBCluster is an Aurora DB cluster (aurora-postgresql or aurora-mysql) with its DB
// instances, managed by the data family.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=aurora,categories={aws,aws-data}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="IDENTIFIER",type=string,JSONPath=`.spec.dbClusterIdentifier`
// +kubebuilder:printcolumn:name="INSTANCES",type=integer,JSONPath=`.spec.instances.count`
// +kubebuilder:printcolumn:name="STATUS",type=string,JSONPath=`.status.status`
// +kubebuilder:printcolumn:name="ENDPOINT",type=string,JSONPath=`.status.endpoint`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type RDSDBCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RDSDBClusterSpec   `json:"spec"`
	Status RDSDBClusterStatus `json:"status,omitempty"`
}

// RDSDBClusterList is a list of RDSDBClusters.
// +kubebuilder:object:root=true
type RDSDBClusterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []RDSDBCluster `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (r *RDSDBCluster) GetManagedSpec() *shared.ManagedSpec { return &r.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (r *RDSDBCluster) GetManagedStatus() *shared.ManagedStatus { return &r.Status.ManagedStatus }
