package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// RDSPerformanceInsights configures Performance Insights.
// +kubebuilder:validation:XValidation:rule="!(has(self.kmsKeyID) && has(self.kmsKeyRef))",message="give the Performance Insights KMS key as at most one of kmsKeyID or kmsKeyRef"
// +kubebuilder:validation:XValidation:rule="self.enabled || !has(self.kmsKeyRef)",message="kmsKeyRef needs enabled: true"
type RDSPerformanceInsights struct {
	// Enabled turns Performance Insights on or off.
	Enabled bool `json:"enabled"`

	// KMSKeyID encrypts the Performance Insights data (a key id, ARN, alias or alias ARN); it
	// cannot change once set.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="self.matches('^((arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:key/)?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|mrk-[0-9a-fA-F]{32})|(arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:)?alias/[a-zA-Z0-9/_-]{1,250})$')",message="give the KMS key as a key id (1234abcd-12ab-34cd-56ef-1234567890ab, or mrk- and 32 hex digits for a multi-Region key), a key ARN (arn:aws:kms:<region>:<account>:key/<key id>), an alias (alias/my-key, or alias/aws/<service> for the AWS managed key) or an alias ARN"
	KMSKeyID string `json:"kmsKeyID,omitempty"`

	// KMSKeyRef names a KMSKey (security family) in this namespace that encrypts the
	// Performance Insights data, by its key ARN; like kmsKeyID it cannot change once set. The
	// instance waits (Ready False, ReferenceNotFound or ReferenceNotReady) until the KMSKey
	// exists and is Ready.
	// +optional
	KMSKeyRef *shared.Reference `json:"kmsKeyRef,omitempty"`

	// RetentionPeriod is how many days the data is kept: 7 (free), 31 times a number of months
	// from 1 to 23, or 731.
	// +optional
	// +kubebuilder:validation:Minimum=7
	// +kubebuilder:validation:Maximum=731
	// +kubebuilder:validation:XValidation:rule="self == 7 || self == 731 || (self % 31 == 0 && self <= 713)",message="retentionPeriod is 7, 731, or 31 times a number of months from 1 to 23 (31, 62, ..., 713)"
	RetentionPeriod *int32 `json:"retentionPeriod,omitempty"`
}

// RDSRestoreFrom is what a new instance is restored from: a DB snapshot, or another instance's
// automated backups at a point in time.
// +kubebuilder:validation:XValidation:rule="has(self.snapshotIdentifier) != has(self.pointInTime)",message="set exactly one of snapshotIdentifier and pointInTime"
type RDSRestoreFrom struct {
	// SnapshotIdentifier is the DB snapshot to restore, by identifier or ARN. The operator
	// restores only a snapshot an object of this namespace made (its ownership tags, which a
	// snapshot has when its instance copies tags to snapshots), unless the cluster administrator
	// lets the namespace act on resources it does not own.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	SnapshotIdentifier string `json:"snapshotIdentifier,omitempty"`

	// PointInTime restores another instance's automated backups at a time.
	// +optional
	PointInTime *RDSPointInTime `json:"pointInTime,omitempty"`
}

// RDSPointInTime names the instance whose backups are restored, and when.
// +kubebuilder:validation:XValidation:rule="has(self.sourceRef) != has(self.sourceDBInstanceIdentifier)",message="set exactly one of sourceRef and sourceDBInstanceIdentifier"
// +kubebuilder:validation:XValidation:rule="has(self.restoreTime) != (has(self.useLatestRestorableTime) && self.useLatestRestorableTime)",message="set exactly one of restoreTime and useLatestRestorableTime: true"
type RDSPointInTime struct {
	// SourceRef names an RDSInstance in this namespace whose backups are restored.
	// +optional
	SourceRef *shared.Reference `json:"sourceRef,omitempty"`

	// SourceDBInstanceIdentifier is the instance whose backups are restored, by identifier; as
	// with replicaSourceIdentifier, one an object of this namespace made.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	SourceDBInstanceIdentifier string `json:"sourceDBInstanceIdentifier,omitempty"`

	// RestoreTime is the time to restore to, within the source's backup window.
	// +optional
	RestoreTime *metav1.Time `json:"restoreTime,omitempty"`

	// UseLatestRestorableTime restores to the latest time the backups allow.
	// +optional
	UseLatestRestorableTime bool `json:"useLatestRestorableTime,omitempty"`
}

// RDSFinalSnapshot says whether deleting the instance (deletionPolicy Delete) first takes a
// final DB snapshot. By default it does.
type RDSFinalSnapshot struct {
	// Skip deletes the instance without a final snapshot: its data is lost.
	// +optional
	Skip bool `json:"skip,omitempty"`

	// Identifier names the final snapshot; default "<dbInstanceIdentifier>-final-<the first
	// eight characters of this object's UID>".
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[a-zA-Z][a-zA-Z0-9-]*$`
	// +kubebuilder:validation:XValidation:rule="!self.endsWith('-') && !self.contains('--')",message="a final snapshot identifier cannot end with a hyphen or hold two consecutive hyphens"
	Identifier string `json:"identifier,omitempty"`
}

// Sources of the master user name rules below:
//   - lengths: AWS's CreateDBInstance reference, MasterUsername by engine: MariaDB and MySQL 1
//     to 16, PostgreSQL 1 to 63, Oracle 1 to 30, SQL Server 1 to 128 characters, a letter first,
//     "can't be a reserved word for the chosen database engine". (Its newer text states 16 for
//     every engine; the CloudFormation RDS resource raised its limit to 128 because the maximum
//     depends on the engine, aws-cloudformation-resource-providers-rds#158.)
//   - rdsadmin on every engine and admin on postgres: RDS answers "cannot be used as it is a
//     reserved word used by the engine" (checked against AWS in aws-cloudformation/cfn-lint#4425,
//     which found postgres and, on mysql, admin accepted).
//   - postgres: CREATE ROLE refuses public, none and names starting with pg_ (PostgreSQL
//     documentation, "Database Roles" and "CREATE ROLE").
//   - oracle sys and system, sqlserver sa: the engines' own built-in administrator accounts.

// RDSInstanceSpec is the desired state of an RDS DB instance.
// +kubebuilder:validation:XValidation:rule="self.dbInstanceIdentifier == oldSelf.dbInstanceIdentifier",message="dbInstanceIdentifier cannot change; create a new RDSInstance (or restore a snapshot) to rename"
// +kubebuilder:validation:XValidation:rule="self.engine == oldSelf.engine",message="engine cannot change; create a new RDSInstance and migrate the data"
// +kubebuilder:validation:XValidation:rule="self.masterUsername == oldSelf.masterUsername",message="masterUsername cannot change after creation"
// +kubebuilder:validation:XValidation:rule="has(self.dbName) == has(oldSelf.dbName) && (!has(self.dbName) || self.dbName == oldSelf.dbName)",message="dbName cannot change after creation"
// +kubebuilder:validation:XValidation:rule="(has(self.storageEncrypted) && self.storageEncrypted) == (has(oldSelf.storageEncrypted) && oldSelf.storageEncrypted)",message="storageEncrypted cannot change after creation; restore an encrypted copy of a snapshot instead"
// +kubebuilder:validation:XValidation:rule="self.allocatedStorage >= oldSelf.allocatedStorage",message="allocatedStorage can only grow"
// +kubebuilder:validation:XValidation:rule="!(has(self.kmsKeyID) || has(self.kmsKeyRef)) || (has(self.storageEncrypted) && self.storageEncrypted)",message="kmsKeyID and kmsKeyRef need storageEncrypted: true"
// +kubebuilder:validation:XValidation:rule="!(has(self.kmsKeyID) && has(self.kmsKeyRef))",message="give the storage KMS key as at most one of kmsKeyID or kmsKeyRef"
// +kubebuilder:validation:XValidation:rule="!has(self.iops) || (has(self.storageType) && self.storageType in ['io1', 'io2', 'gp3'])",message="iops is only set with storageType io1, io2 or gp3"
// +kubebuilder:validation:XValidation:rule="!has(self.storageType) || !(self.storageType in ['io1', 'io2']) || has(self.iops)",message="storageType io1 and io2 need iops"
// +kubebuilder:validation:XValidation:rule="self.masterUsername.size() <= (self.engine in ['mysql', 'mariadb'] ? 16 : self.engine == 'postgres' ? 63 : self.engine.startsWith('oracle') ? 30 : 128)",message="masterUsername is too long for the engine: at most 16 characters for mysql and mariadb, 63 for postgres, 30 for oracle, 128 for sqlserver"
// +kubebuilder:validation:XValidation:rule="self.masterUsername.lowerAscii() != 'rdsadmin'",message="masterUsername rdsadmin is reserved: RDS uses it to administer the instance; choose another name"
// +kubebuilder:validation:XValidation:rule="self.engine != 'postgres' || !(self.masterUsername.lowerAscii() in ['admin', 'public', 'none'] || self.masterUsername.lowerAscii().startsWith('pg_'))",message="postgres reserves the user names admin, public, none and names starting with pg_; choose another masterUsername"
// +kubebuilder:validation:XValidation:rule="!self.engine.startsWith('oracle') || !(self.masterUsername.lowerAscii() in ['sys', 'system'])",message="oracle reserves the user names sys and system; choose another masterUsername"
// +kubebuilder:validation:XValidation:rule="!self.engine.startsWith('sqlserver') || self.masterUsername.lowerAscii() != 'sa'",message="sqlserver reserves the login name sa; choose another masterUsername"
// +kubebuilder:validation:XValidation:rule="!has(self.dbSubnetGroupName) || !(has(self.subnetIDs) || has(self.subnetRefs))",message="give the subnets either as dbSubnetGroupName or as subnetIDs/subnetRefs (the operator then makes a DB subnet group named after dbInstanceIdentifier), not both"
// +kubebuilder:validation:XValidation:rule="(!has(self.dbSubnetGroupName) && (has(self.subnetIDs) || has(self.subnetRefs))) == (!has(oldSelf.dbSubnetGroupName) && (has(oldSelf.subnetIDs) || has(oldSelf.subnetRefs)))",message="whether the operator makes the DB subnet group (subnetIDs/subnetRefs without dbSubnetGroupName) cannot change: it would move the instance to another subnet group and leave one behind; change the subnets within the kind of placement you have, or create a new RDSInstance"
// +kubebuilder:validation:XValidation:rule="(has(self.vpcSecurityGroupIDs) ? size(self.vpcSecurityGroupIDs) : 0) + (has(self.securityGroupRefs) ? size(self.securityGroupRefs) : 0) <= 5",message="an instance has at most 5 VPC security groups: vpcSecurityGroupIDs and securityGroupRefs together"
// +kubebuilder:validation:XValidation:rule="[has(self.replicaSourceRef), has(self.replicaSourceIdentifier), has(self.restoreFrom)].filter(x, x).size() <= 1",message="set at most one of replicaSourceRef, replicaSourceIdentifier and restoreFrom"
// +kubebuilder:validation:XValidation:rule="!has(self.restoreFrom) || (has(oldSelf.restoreFrom) && self.restoreFrom == oldSelf.restoreFrom)",message="restoreFrom applies only when the instance is created: to restore into a new instance, create a new RDSInstance"
// +kubebuilder:validation:XValidation:rule="(!has(self.replicaSourceRef) && !has(self.replicaSourceIdentifier)) || (has(oldSelf.replicaSourceRef) == has(self.replicaSourceRef) && has(oldSelf.replicaSourceIdentifier) == has(self.replicaSourceIdentifier) && (!has(self.replicaSourceRef) || self.replicaSourceRef == oldSelf.replicaSourceRef) && (!has(self.replicaSourceIdentifier) || self.replicaSourceIdentifier == oldSelf.replicaSourceIdentifier))",message="an existing instance cannot become a replica or change its source; remove the replica source to promote the replica"
// +kubebuilder:validation:XValidation:rule="!(has(self.dbParameterGroupName) && has(self.dbParameterGroupRef))",message="give the parameter group as at most one of dbParameterGroupName and dbParameterGroupRef"
type RDSInstanceSpec struct {
	shared.ManagedSpec `json:",inline"`

	// DBInstanceIdentifier is the instance's name in AWS: letters, digits and hyphens,
	// starting with a letter. It cannot change.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-zA-Z][a-zA-Z0-9-]*$`
	// +kubebuilder:validation:XValidation:rule="!self.endsWith('-') && !self.contains('--')",message="dbInstanceIdentifier cannot end with a hyphen or hold two consecutive hyphens"
	DBInstanceIdentifier string `json:"dbInstanceIdentifier"`

	// DBInstanceClass is the compute and memory class, for example db.t3.medium.
	// +kubebuilder:validation:Pattern=`^db\.[a-z0-9-]+\.[a-z0-9-]+$`
	DBInstanceClass string `json:"dbInstanceClass"`

	// Engine is the database engine. It cannot change.
	// +kubebuilder:validation:Enum=postgres;mysql;mariadb;oracle-ee;oracle-se2;sqlserver-ee;sqlserver-se;sqlserver-ex;sqlserver-web
	Engine string `json:"engine"`

	// EngineVersion is the engine version, for example "14.7". Empty takes AWS's default; a
	// change is an upgrade.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	EngineVersion string `json:"engineVersion,omitempty"`

	// AllocatedStorage is the storage size in GiB. It can only grow.
	// +kubebuilder:validation:Minimum=20
	// +kubebuilder:validation:Maximum=65536
	AllocatedStorage int32 `json:"allocatedStorage"`

	// MaxAllocatedStorage turns on storage autoscaling up to this many GiB.
	// +optional
	// +kubebuilder:validation:Minimum=21
	// +kubebuilder:validation:Maximum=65536
	MaxAllocatedStorage *int32 `json:"maxAllocatedStorage,omitempty"`

	// StorageType is gp2, gp3, io1, io2 or standard (AWS's default is gp2).
	// +optional
	// +kubebuilder:validation:Enum=gp2;gp3;io1;io2;standard
	StorageType string `json:"storageType,omitempty"`

	// Iops is the provisioned IOPS, for io1, io2 and gp3.
	// +optional
	// +kubebuilder:validation:Minimum=1000
	Iops *int32 `json:"iops,omitempty"`

	// StorageThroughput is the gp3 storage throughput in MiB/s.
	// +optional
	// +kubebuilder:validation:Minimum=125
	StorageThroughput *int32 `json:"storageThroughput,omitempty"`

	// StorageEncrypted encrypts the storage. It cannot change after creation.
	// +optional
	StorageEncrypted *bool `json:"storageEncrypted,omitempty"`

	// KMSKeyID is the KMS key that encrypts the storage (a key id, ARN, alias or alias ARN);
	// empty takes aws/rds.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="self.matches('^((arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:key/)?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|mrk-[0-9a-fA-F]{32})|(arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:)?alias/[a-zA-Z0-9/_-]{1,250})$')",message="give the KMS key as a key id (1234abcd-12ab-34cd-56ef-1234567890ab, or mrk- and 32 hex digits for a multi-Region key), a key ARN (arn:aws:kms:<region>:<account>:key/<key id>), an alias (alias/my-key, or alias/aws/<service> for the AWS managed key) or an alias ARN"
	KMSKeyID string `json:"kmsKeyID,omitempty"`

	// KMSKeyRef names a KMSKey (security family) in this namespace that encrypts the storage,
	// by its key ARN; it needs storageEncrypted. The instance waits (Ready False,
	// ReferenceNotFound or ReferenceNotReady) until the KMSKey exists and is Ready.
	// +optional
	KMSKeyRef *shared.Reference `json:"kmsKeyRef,omitempty"`

	// MasterUsername is the administrator's user name: a letter, then letters, digits or
	// underscores; at most 16 characters for mysql and mariadb, 63 for postgres, 30 for oracle
	// and 128 for sqlserver; not a name the engine reserves. It cannot change.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^[a-zA-Z][a-zA-Z0-9_]*$`
	MasterUsername string `json:"masterUsername" output:"username"`

	// MasterUserPasswordSecretRef names the Secret key (in this namespace) that holds the
	// administrator's password. A change of the Secret's value is applied to the instance.
	MasterUserPasswordSecretRef shared.SecretKeySelector `json:"masterUserPasswordSecretRef" output:"password"`

	// DBName is the database created with the instance. It cannot change.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[a-zA-Z][a-zA-Z0-9_]*$`
	DBName string `json:"dbName,omitempty"`

	// Port the database listens on; empty takes the engine's default.
	// +optional
	// +kubebuilder:validation:Minimum=1150
	// +kubebuilder:validation:Maximum=65535
	Port *int32 `json:"port,omitempty"`

	// MultiAZ keeps a standby in another availability zone.
	// +optional
	MultiAZ bool `json:"multiAZ,omitempty"`

	// BackupRetentionPeriod is how many days automated backups are kept; 0 turns them off.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=35
	BackupRetentionPeriod *int32 `json:"backupRetentionPeriod,omitempty"`

	// PreferredBackupWindow is the daily UTC window for automated backups, "hh24:mi-hh24:mi",
	// at least 30 minutes long and outside the maintenance window.
	// +optional
	// +kubebuilder:validation:MaxLength=11
	// +kubebuilder:validation:XValidation:rule="!self.matches('^([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]$') || (int(self.substring(6, 8)) * 60 + int(self.substring(9, 11)) - int(self.substring(0, 2)) * 60 - int(self.substring(3, 5)) + 1440) % 1440 >= 30",message="preferredBackupWindow must be at least 30 minutes long"
	// +kubebuilder:validation:Pattern=`^([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]$`
	PreferredBackupWindow string `json:"preferredBackupWindow,omitempty"`

	// PreferredMaintenanceWindow is the weekly UTC maintenance window,
	// "ddd:hh24:mi-ddd:hh24:mi", at least 30 minutes long.
	// +optional
	// +kubebuilder:validation:MaxLength=19
	// +kubebuilder:validation:XValidation:rule="!self.matches('^(mon|tue|wed|thu|fri|sat|sun):([01][0-9]|2[0-3]):[0-5][0-9]-(mon|tue|wed|thu|fri|sat|sun):([01][0-9]|2[0-3]):[0-5][0-9]$') || ({'mon': 0, 'tue': 1, 'wed': 2, 'thu': 3, 'fri': 4, 'sat': 5, 'sun': 6}[self.substring(10, 13)] * 1440 + int(self.substring(14, 16)) * 60 + int(self.substring(17, 19)) - {'mon': 0, 'tue': 1, 'wed': 2, 'thu': 3, 'fri': 4, 'sat': 5, 'sun': 6}[self.substring(0, 3)] * 1440 - int(self.substring(4, 6)) * 60 - int(self.substring(7, 9)) + 10080) % 10080 >= 30",message="preferredMaintenanceWindow must be at least 30 minutes long"
	// +kubebuilder:validation:Pattern=`^(mon|tue|wed|thu|fri|sat|sun):([01][0-9]|2[0-3]):[0-5][0-9]-(mon|tue|wed|thu|fri|sat|sun):([01][0-9]|2[0-3]):[0-5][0-9]$`
	PreferredMaintenanceWindow string `json:"preferredMaintenanceWindow,omitempty"`

	// VPCSecurityGroupIDs are the VPC security groups of the instance, in the VPC of its
	// subnets. Empty (with no securityGroupRefs) leaves the groups as AWS has them (the VPC's
	// default group for a new instance).
	// +optional
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:Pattern=`^sg-[0-9a-z]+$`
	// +kubebuilder:validation:items:MaxLength=32
	VPCSecurityGroupIDs []string `json:"vpcSecurityGroupIDs,omitempty"`

	// SecurityGroupRefs name SecurityGroup objects (networking family) in this namespace whose
	// groups join vpcSecurityGroupIDs; the instance waits (Ready False, ReferenceNotFound or
	// ReferenceNotReady) until they exist and are Ready.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	SecurityGroupRefs []shared.Reference `json:"securityGroupRefs,omitempty"`

	// DBSubnetGroupName is an existing DB subnet group to place the instance in, used as is.
	// Empty with subnetIDs or subnetRefs, the operator makes a DB subnet group named after
	// dbInstanceIdentifier, keeps its subnets and tags as the spec says, and deletes it after
	// the instance; empty without them, the instance is placed in the default VPC.
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
	// subnetIDs; the instance waits (Ready False, ReferenceNotFound or ReferenceNotReady) until
	// they exist and are Ready.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=20
	SubnetRefs []shared.Reference `json:"subnetRefs,omitempty"`

	// DBParameterGroupName is the parameter group; empty takes the engine's default.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	DBParameterGroupName string `json:"dbParameterGroupName,omitempty"`

	// ReplicaSourceRef names an RDSInstance in this namespace of which this instance is a read
	// replica (CreateDBInstanceReadReplica): it takes the source's engine, version, storage,
	// encryption and master user (the spec must repeat the source's engine and masterUsername),
	// keeps no backups of its own, and follows the source's engine version and password.
	// Removing the field promotes the replica to a standalone instance (PromoteReadReplica, with
	// this spec's backupRetentionPeriod), after which the password of
	// masterUserPasswordSecretRef is set. An existing instance cannot become a replica.
	// +optional
	ReplicaSourceRef *shared.Reference `json:"replicaSourceRef,omitempty"`

	// ReplicaSourceIdentifier is the source of a read replica by its DB instance identifier,
	// instead of replicaSourceRef, for an instance made outside this cluster. The operator
	// replicates only an instance an object of this namespace made (its ownership tags), unless
	// the cluster administrator lets the namespace act on resources it does not own: a replica
	// would copy another team's data.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	ReplicaSourceIdentifier string `json:"replicaSourceIdentifier,omitempty"`

	// RestoreFrom creates the instance from a DB snapshot or from another instance's automated
	// backups at a point in time, instead of an empty database. It applies only when the
	// instance is created: setting it on an existing instance is refused. The restored instance
	// keeps the source's engine, storage, encryption and master user (the spec must repeat the
	// engine and masterUsername), and then gets the password of masterUserPasswordSecretRef.
	// +optional
	RestoreFrom *RDSRestoreFrom `json:"restoreFrom,omitempty"`

	// DBParameterGroupRef names an RDSDBParameterGroup in this namespace, instead of
	// dbParameterGroupName; the instance waits until the group is Ready. Changes of the group's
	// parameters that wait for a reboot show in status.parameterApplyStatus (pending-reboot) and
	// status.pendingModifications: the operator never reboots a database by itself.
	// +optional
	DBParameterGroupRef *shared.Reference `json:"dbParameterGroupRef,omitempty"`

	// OptionGroupName is the option group; empty takes the engine's default.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	OptionGroupName string `json:"optionGroupName,omitempty"`

	// PubliclyAccessible gives the instance a public DNS name.
	// +optional
	PubliclyAccessible bool `json:"publiclyAccessible,omitempty"`

	// AutoMinorVersionUpgrade applies minor engine upgrades in the maintenance window
	// (AWS's default is true).
	// +optional
	AutoMinorVersionUpgrade *bool `json:"autoMinorVersionUpgrade,omitempty"`

	// CopyTagsToSnapshot copies the instance's tags to its snapshots.
	// +optional
	CopyTagsToSnapshot bool `json:"copyTagsToSnapshot,omitempty"`

	// PerformanceInsights configures Performance Insights. Not managed when unset.
	// +optional
	PerformanceInsights *RDSPerformanceInsights `json:"performanceInsights,omitempty"`

	// DeletionProtection stops the instance from being deleted, by the operator or anyone
	// else, until it is turned off. Not managed when unset: protection turned on outside the
	// operator (or on an adopted instance) is kept, and holds the instance's deletion too.
	// +optional
	DeletionProtection *bool `json:"deletionProtection,omitempty"`

	// ApplyImmediately applies changes now instead of in the next maintenance window. Changes
	// that RDS always applies at once (backups, deletion protection, the password) do not
	// wait either way.
	// +optional
	ApplyImmediately bool `json:"applyImmediately,omitempty"`

	// FinalSnapshot says whether deleting the instance first takes a final snapshot (it does
	// unless skip is true).
	// +optional
	FinalSnapshot *RDSFinalSnapshot `json:"finalSnapshot,omitempty"`
}

// RDSInstanceStatus is the observed state of an RDS DB instance.
type RDSInstanceStatus struct {
	shared.ManagedStatus `json:",inline"`

	// DBInstanceIdentifier is the instance's name in AWS.
	// +optional
	DBInstanceIdentifier string `json:"dbInstanceIdentifier,omitempty" output:""`

	// DBInstanceStatus is RDS's state of the instance: creating, backing-up, available,
	// modifying, deleting, ...
	// +optional
	DBInstanceStatus string `json:"dbInstanceStatus,omitempty"`

	// Endpoint is the DNS name clients connect to.
	// +optional
	Endpoint string `json:"endpoint,omitempty" output:""`

	// Port is the port clients connect to.
	// +optional
	Port int32 `json:"port,omitempty" output:""`

	// ARN is the instance's ARN.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// DBSubnetGroupName is the DB subnet group the instance is in: the spec's, or the one the
	// operator made for it.
	// +optional
	DBSubnetGroupName string `json:"dbSubnetGroupName,omitempty"`

	// PendingModifications names the changes RDS will apply in the next maintenance window.
	// +optional
	PendingModifications []string `json:"pendingModifications,omitempty"`

	// ParameterApplyStatus is how far the parameter group's changes are applied to the
	// instance: in-sync, applying, or pending-reboot (changes wait for the instance to reboot).
	// +optional
	ParameterApplyStatus string `json:"parameterApplyStatus,omitempty"`

	// MasterUserPasswordVersion identifies the version of the password Secret last applied
	// (the Secret's name and resourceVersion, never its value).
	// +optional
	MasterUserPasswordVersion string `json:"masterUserPasswordVersion,omitempty"`
}

// RDSInstance is an RDS DB instance.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=rds;rdsi,categories={aws,aws-data}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="IDENTIFIER",type=string,JSONPath=`.spec.dbInstanceIdentifier`
// +kubebuilder:printcolumn:name="STATUS",type=string,JSONPath=`.status.dbInstanceStatus`
// +kubebuilder:printcolumn:name="ENDPOINT",type=string,JSONPath=`.status.endpoint`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type RDSInstance struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RDSInstanceSpec   `json:"spec"`
	Status RDSInstanceStatus `json:"status,omitempty"`
}

// RDSInstanceList is a list of RDSInstances.
// +kubebuilder:object:root=true
type RDSInstanceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []RDSInstance `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (i *RDSInstance) GetManagedSpec() *shared.ManagedSpec { return &i.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (i *RDSInstance) GetManagedStatus() *shared.ManagedStatus { return &i.Status.ManagedStatus }
