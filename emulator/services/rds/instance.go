package rds

import (
	"regexp"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The statuses of a DB instance the emulator goes through.
const (
	statusCreating  = "creating"
	statusBackingUp = "backing-up"
	statusAvailable = "available"
	statusModifying = "modifying"
	statusUpgrading = "upgrading"
	statusResetting = "resetting-master-credentials"
	statusDeleting  = "deleting"
)

// defaultCACertificate is the CA of new instances' server certificates.
const defaultCACertificate = "rds-ca-rsa2048-g1"

// caCertificates are the CAs RDS offers.
var caCertificates = map[string]bool{"rds-ca-rsa2048-g1": true, "rds-ca-rsa4096-g1": true, "rds-ca-ecc384-g1": true, "rds-ca-2019": true}

// phase is a status of an instance's lifecycle, which lasts one step on the simulation clock.
type phase struct {
	status string
	// applies is true for the modifying step that applies the pending changes when it ends.
	applies bool
	// reboots is true for the rebooting step, after which the parameter group's changes that
	// waited for a reboot are applied.
	reboots bool
}

// instance is one DB instance.
type instance struct {
	id, arn, resourceID string
	eng                 *engine
	host                string
	created, readableAt time.Time
	transition          time.Duration
	life                core.Lifecycle[phase]
	gone                bool

	class, engineVersion, license          string
	storageType                            string
	storage, iops, throughput, maxStorage  int32 // iops and throughput 0: the storage type's baseline
	encrypted                              bool
	kmsKey                                 string
	multiAZ                                bool
	zone                                   string
	backupRetention                        int32
	backupWindow, maintenanceWindow        string
	public, deletionProtection, autoMinor  bool
	copyTags, iamAuth                      bool
	insights                               bool
	insightsKMSKey                         string
	insightsRetention                      int32
	paramGroup, paramStatus                string
	optionGroup, subnetGroup               string
	securityGroups                         []string
	dbName, masterUsername, masterPassword string // the password is kept, never returned
	secret                                 string // ARN of the managed master password secret
	port                                   int32
	caCert                                 string

	// replicaOf is the identifier of the instance this one is a read replica of, "" for a
	// standalone instance; replicas are the identifiers of this one's read replicas.
	replicaOf string
	replicas  []string

	// cluster is the identifier of the Aurora DB cluster the instance is a member of, "" for
	// an instance of its own; promotionTier orders the members for a failover, and
	// clusterParamStatus is its DBClusterParameterGroupStatus.
	cluster            string
	promotionTier      int32
	clusterParamStatus string

	// pending are the changes waiting for the maintenance window that opens at maintenanceAt, or
	// for the applying modifying step to end.
	pending         changes
	maintenanceAt   time.Time
	passwordPending bool
}

// status returns the instance's status.
func (i *instance) status() string { return i.life.Status().status }

// settle finishes the steps whose time has come, and starts applying the pending changes once
// the maintenance window opens.
func (i *instance) settle(now time.Time) {
	for {
		i.life.Settle(now, func(s core.Step[phase]) {
			switch {
			case s.Status.status == statusDeleting:
				i.gone = true
			case s.Status.applies:
				i.pending.apply(i)
				i.pending = changes{}
			case s.Status.reboots:
				i.paramStatus = "in-sync"
				if i.cluster != "" {
					i.clusterParamStatus = "in-sync"
				}
			}
			if i.paramStatus == "applying" {
				i.paramStatus = "pending-reboot"
			}
			i.passwordPending = false
		})
		if i.life.Busy() || i.gone || i.pending.empty() || now.Before(i.maintenanceAt) {
			return
		}
		i.applyPending(i.maintenanceAt)
	}
}

// applyPending starts the modifying (or, for an engine version, upgrading) step that applies the
// pending changes, at from.
func (i *instance) applyPending(from time.Time) {
	status := statusModifying
	if i.pending.engineVersion != nil {
		status = statusUpgrading
	}
	i.life.Start(phase{status: status, applies: true}, from, i.transition)
}

// instance returns the live instance named by an identifier or ARN, settled at now, or nil.
// The caller holds the backend's mutex.
func (r *region) instance(ref string, now time.Time) *instance {
	id := strings.ToLower(r.nameFromARN(ref, "db"))
	i, ok := r.instances[id]
	if !ok {
		return nil
	}
	i.settle(now)
	if i.gone {
		delete(r.instances, id)
		r.tags.Delete(i.arn)
		r.unlinkReplicas(i)
		return nil
	}
	if i.replicaOf != "" {
		// A source that has gone meanwhile frees its replicas.
		r.instance(i.replicaOf, now)
	}
	return i
}

func instanceNotFound(id string) *core.APIError {
	return core.NotFoundf("DBInstanceNotFound", "DBInstance %s not found.", id)
}

var instanceClass = regexp.MustCompile(`^db\.[a-z0-9-]+\.[a-z0-9]+$`)

func checkClass(class string) error {
	if !instanceClass.MatchString(class) {
		return invalidValue("Invalid DB Instance class: %s", class)
	}
	return nil
}

func (b *Backend) createDBInstance(call *core.Call, in *rds.CreateDBInstanceInput) (*rds.CreateDBInstanceOutput, error) {
	return creating(b, call, instanceKind, "DBInstanceIdentifier", in.DBInstanceIdentifier, true, func(r *region, id string) (*rds.CreateDBInstanceOutput, error) {
		i, err := r.newInstance(call, id, in)
		if err != nil {
			return nil, err
		}
		if err := r.add(call, i, in.Tags); err != nil {
			return nil, err
		}
		out := r.describe(i, call.Now)
		return &rds.CreateDBInstanceOutput{DBInstance: &out}, nil
	})
}

// newInstance validates a CreateDBInstance request as AWS does and returns the new instance.
func (r *region) newInstance(call *core.Call, id string, in *rds.CreateDBInstanceInput) (*instance, error) {
	name := aws.ToString(in.Engine)
	if isAurora(name) && in.DBClusterIdentifier == nil {
		return nil, invalidCombination("An %s DB instance belongs to a DB cluster: DBClusterIdentifier is required.", name)
	}
	if in.DBClusterIdentifier != nil {
		return r.newClusterInstance(call, id, in)
	}
	e, err := lookupEngine(name)
	if err != nil {
		return nil, err
	}
	if err := checkClass(aws.ToString(in.DBInstanceClass)); err != nil {
		return nil, err
	}
	version, err := e.version(aws.ToString(in.EngineVersion))
	if err != nil {
		return nil, err
	}
	i := &instance{
		id: id, arn: r.scope.ARN("rds", "db:"+id), resourceID: newResourceID(), eng: e, host: endpointHost(r.scope, id),
		created: call.Now, readableAt: call.Now.Add(time.Duration(call.Fault.ReadAfterCreateDelay)), transition: call.Transition,
		life:  core.NewLifecycle(phase{status: statusAvailable}),
		class: aws.ToString(in.DBInstanceClass), engineVersion: version, license: e.license,
		storageType: aws.ToString(in.StorageType), storage: aws.ToInt32(in.AllocatedStorage), iops: aws.ToInt32(in.Iops),
		throughput: aws.ToInt32(in.StorageThroughput), maxStorage: aws.ToInt32(in.MaxAllocatedStorage),
		encrypted: aws.ToBool(in.StorageEncrypted), multiAZ: aws.ToBool(in.MultiAZ),
		backupRetention: 1, backupWindow: defaultBackupWindow, maintenanceWindow: defaultMaintenanceWindow,
		public: in.DBSubnetGroupName == nil, deletionProtection: aws.ToBool(in.DeletionProtection), autoMinor: true,
		copyTags: aws.ToBool(in.CopyTagsToSnapshot), iamAuth: aws.ToBool(in.EnableIAMDatabaseAuthentication),
		paramStatus: "in-sync", securityGroups: in.VpcSecurityGroupIds, dbName: aws.ToString(in.DBName),
		masterUsername: aws.ToString(in.MasterUsername), masterPassword: aws.ToString(in.MasterUserPassword),
		port: e.port, caCert: defaultCACertificate,
	}
	if in.AllocatedStorage == nil {
		return nil, invalidValue("The parameter AllocatedStorage must be provided and must not be null.")
	}
	if i.storageType == "" {
		i.storageType = "gp3"
		if in.Iops != nil {
			i.storageType = "io1"
		}
	}
	if err := e.checkStorage(i.storageType, i.storage, i.iops, i.throughput); err != nil {
		return nil, err
	}
	if err := i.setMasterUser(r.scope, in); err != nil {
		return nil, err
	}
	if err := i.setDBName(); err != nil {
		return nil, err
	}
	if in.Port != nil {
		if i.port = *in.Port; i.port < 1150 || i.port > 65535 {
			return nil, invalidValue("Invalid port %d: valid ports are 1150-65535.", i.port)
		}
	}
	if in.BackupRetentionPeriod != nil {
		i.backupRetention = *in.BackupRetentionPeriod
	}
	if err := checkRetention(i.backupRetention); err != nil {
		return nil, err
	}
	if err := setWindows(&i.backupWindow, &i.maintenanceWindow, in.PreferredBackupWindow, in.PreferredMaintenanceWindow); err != nil {
		return nil, err
	}
	set(&i.public, in.PubliclyAccessible)
	set(&i.autoMinor, in.AutoMinorVersionUpgrade)
	set(&i.license, in.LicenseModel)
	if in.KmsKeyId != nil && !i.encrypted {
		return nil, invalidCombination("You must enable StorageEncrypted when you specify KmsKeyId for DB engine %s", e.name)
	}
	if i.encrypted {
		i.kmsKey = kmsKeyARN(r.scope, aws.ToString(in.KmsKeyId), "aws/rds")
	}
	if err := i.setInsights(r.scope, in.EnablePerformanceInsights, in.PerformanceInsightsKMSKeyId, in.PerformanceInsightsRetentionPeriod); err != nil {
		return nil, err
	}
	if err := checkSecurityGroups(in.VpcSecurityGroupIds); err != nil {
		return nil, err
	}
	if in.CACertificateIdentifier != nil {
		if i.caCert = *in.CACertificateIdentifier; !caCertificates[i.caCert] {
			return nil, core.NotFoundf("CertificateNotFound", "Certificate not found: %s", i.caCert)
		}
	}
	if err := r.placeInstance(i, in.DBSubnetGroupName, in.AvailabilityZone); err != nil {
		return nil, err
	}
	if i.paramGroup, err = r.paramGroupFor(e, version, aws.ToString(in.DBParameterGroupName)); err != nil {
		return nil, err
	}
	if i.optionGroup, err = r.optionGroupFor(e, version, aws.ToString(in.OptionGroupName)); err != nil {
		return nil, err
	}
	i.startCreating(call)
	return i, nil
}

// setMasterUser checks and records the master user name and the password, or the secret that
// manages it.
func (i *instance) setMasterUser(scope core.Scope, in *rds.CreateDBInstanceInput) error {
	if i.masterUsername == "" {
		return invalidValue("The parameter MasterUsername must be provided and must not be blank.")
	}
	if !masterUsername.MatchString(i.masterUsername) {
		return invalidValue("The parameter MasterUsername is not a valid identifier. Identifiers must begin with a letter; " +
			"must contain only ASCII letters, digits, and underscores; and must be 1 to 16 characters long.")
	}
	if aws.ToBool(in.ManageMasterUserPassword) {
		if in.MasterUserPassword != nil {
			return invalidCombination("You can't specify MasterUserPassword when ManageMasterUserPassword is enabled.")
		}
		i.secret = secretARN(scope, i.resourceID)
		return nil
	}
	if i.masterPassword == "" {
		return invalidValue("The parameter MasterUserPassword must be provided and must not be blank.")
	}
	return i.eng.checkPassword(i.masterPassword)
}

// setDBName checks DBName for the engine, or gives it the engine's default.
func (i *instance) setDBName() error {
	switch {
	case i.dbName == "":
		i.dbName = i.eng.defaultDBName
	case i.eng.dbName == nil:
		return invalidCombination("The parameter DBName must be null for engine: %s", i.eng.name)
	case !i.eng.dbName.MatchString(i.dbName):
		return invalidValue("The parameter DBName is not a valid identifier for engine %s: %s", i.eng.name, i.dbName)
	}
	return nil
}

func checkRetention(days int32) error {
	if days < 0 || days > 35 {
		return invalidValue("Invalid backup retention period: %d. Valid values are 0 to 35.", days)
	}
	return nil
}

// setInsights enables or disables Performance Insights, with AWS's retention periods (7, 731, or
// a multiple of 31 up to 713) and the account's aws/rds key by default.
func (i *instance) setInsights(scope core.Scope, enable *bool, key *string, retention *int32) error {
	if enable != nil {
		i.insights = *enable
	}
	if !i.insights {
		i.insightsKMSKey, i.insightsRetention = "", 0
		return nil
	}
	if key != nil || i.insightsKMSKey == "" {
		i.insightsKMSKey = kmsKeyARN(scope, aws.ToString(key), "aws/rds")
	}
	if retention != nil {
		d := *retention
		if d != 7 && d != 731 && (d%31 != 0 || d < 31 || d > 713) {
			return invalidValue("Invalid PerformanceInsightsRetentionPeriod: %d. Valid values are 7, 731, and multiples of 31 up to 713.", d)
		}
		i.insightsRetention = d
	}
	if i.insightsRetention == 0 {
		i.insightsRetention = 7
	}
	return nil
}

var securityGroupID = regexp.MustCompile(`^sg-([0-9a-f]{8}|[0-9a-f]{17})$`)

// checkSecurityGroups checks the format of VPC security group IDs; EC2 is not consulted.
func checkSecurityGroups(ids []string) error {
	for _, id := range ids {
		if !securityGroupID.MatchString(id) {
			return invalidValue("Invalid security group , groupId= %s, groupName=.", id)
		}
	}
	return nil
}

// placeInstance puts the instance in its subnet group (which must exist) and availability zone.
func (r *region) placeInstance(i *instance, subnetGroup, zone *string) error {
	if i.multiAZ && zone != nil {
		return invalidCombination("Requesting a specific availability zone is not valid for Multi-AZ instances.")
	}
	i.zone = zoneOf(r.scope.Region, 0)
	if subnetGroup != nil {
		g, ok := r.subnetGroups[strings.ToLower(*subnetGroup)]
		if !ok {
			return subnetGroupNotFound(*subnetGroup)
		}
		i.subnetGroup = g.name
	}
	if zone != nil {
		if i.zone = *zone; !strings.HasPrefix(i.zone, r.scope.Region) || len(i.zone) != len(r.scope.Region)+1 {
			return invalidValue("Invalid availability zone: %s", i.zone)
		}
	}
	return nil
}

func (b *Backend) describeDBInstances(call *core.Call, in *rds.DescribeDBInstancesInput) (*rds.DescribeDBInstancesOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DescribeDBInstancesOutput, error) {
		found, err := instanceKind.list(r, in.DBInstanceIdentifier, in.Filters, call.Now)
		return page(found, err, in.Marker, in.MaxRecords, func(out []types.DBInstance, marker *string) *rds.DescribeDBInstancesOutput {
			return &rds.DescribeDBInstancesOutput{DBInstances: out, Marker: marker}
		})
	})
}

func (b *Backend) deleteDBInstance(call *core.Call, in *rds.DeleteDBInstanceInput) (*rds.DeleteDBInstanceOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DeleteDBInstanceOutput, error) {
		i, err := instanceKind.deletable(r, in.DBInstanceIdentifier, call.Now)
		if err != nil {
			return nil, err
		}
		switch {
		case i.cluster != "" && in.FinalDBSnapshotIdentifier != nil:
			return nil, invalidCombination("FinalDBSnapshotIdentifier can't be specified when deleting a DB instance that is a member of a DB cluster.")
		case i.cluster != "":
			r.memberDeleting(i, call.Now) // The cluster's snapshots keep its data.
		default:
			if err := finalSnapshot(in.SkipFinalSnapshot, in.FinalDBSnapshotIdentifier, func(id string) error {
				_, err := r.takeSnapshot(call, i, "FinalDBSnapshotIdentifier", id)
				return err
			}); err != nil {
				return nil, err
			}
		}
		i.pending, i.passwordPending = changes{}, false
		i.life.Start(phase{status: statusDeleting}, call.Now, call.Transition)
		out := r.describe(i, call.Now)
		return &rds.DeleteDBInstanceOutput{DBInstance: &out}, nil
	})
}

// describe returns the instance as DescribeDBInstances reports it. The master password is never
// returned, as on AWS.
func (r *region) describe(i *instance, now time.Time) types.DBInstance {
	status := i.status()
	d := types.DBInstance{
		DBInstanceIdentifier: aws.String(i.id), DBInstanceArn: aws.String(i.arn), DbiResourceId: aws.String(i.resourceID),
		DBInstanceClass: aws.String(i.class), Engine: aws.String(i.eng.name), EngineVersion: aws.String(i.engineVersion),
		DBInstanceStatus: aws.String(status), LicenseModel: aws.String(i.license),
		AllocatedStorage: aws.Int32(i.storage), StorageType: aws.String(i.storageType), StorageEncrypted: aws.Bool(i.encrypted),
		MultiAZ: aws.Bool(i.multiAZ), AvailabilityZone: aws.String(i.zone), BackupRetentionPeriod: aws.Int32(i.backupRetention),
		PreferredBackupWindow: aws.String(i.backupWindow), PreferredMaintenanceWindow: aws.String(i.maintenanceWindow),
		PubliclyAccessible: aws.Bool(i.public), DeletionProtection: aws.Bool(i.deletionProtection),
		AutoMinorVersionUpgrade: aws.Bool(i.autoMinor), CopyTagsToSnapshot: aws.Bool(i.copyTags),
		IAMDatabaseAuthenticationEnabled: aws.Bool(i.iamAuth), PerformanceInsightsEnabled: aws.Bool(i.insights),
		MasterUsername: aws.String(i.masterUsername), CACertificateIdentifier: aws.String(i.caCert),
		CertificateDetails: &types.CertificateDetails{CAIdentifier: aws.String(i.caCert)},
		DbInstancePort:     aws.Int32(0), MonitoringInterval: aws.Int32(0), NetworkType: aws.String("IPV4"),
		BackupTarget: aws.String("region"), CustomerOwnedIpEnabled: aws.Bool(false), MultiTenant: aws.Bool(false),
		DedicatedLogVolume: aws.Bool(false), ActivityStreamStatus: types.ActivityStreamStatusStopped,
		DBParameterGroups:                []types.DBParameterGroupStatus{{DBParameterGroupName: aws.String(i.paramGroup), ParameterApplyStatus: aws.String(i.paramStatus)}},
		OptionGroupMemberships:           i.optionMemberships(),
		PendingModifiedValues:            i.pendingValues(),
		ReadReplicaDBInstanceIdentifiers: append([]string{}, i.replicas...),
		TagList:                          r.tagList(i.arn),
	}
	if i.replicaOf != "" {
		d.ReadReplicaSourceDBInstanceIdentifier = aws.String(i.replicaOf)
	}
	if i.backupRetention > 0 && status != statusCreating {
		d.LatestRestorableTime = aws.Time(now)
	}
	if i.eng.name == "postgres" || i.eng.name == "mysql" {
		d.EngineLifecycleSupport = aws.String("open-source-rds-extended-support")
	}
	if i.dbName != "" {
		d.DBName = aws.String(i.dbName)
	}
	if i.encrypted {
		d.KmsKeyId = aws.String(i.kmsKey)
	}
	if i.insights {
		d.PerformanceInsightsKMSKeyId, d.PerformanceInsightsRetentionPeriod = aws.String(i.insightsKMSKey), aws.Int32(i.insightsRetention)
	}
	if i.multiAZ {
		d.SecondaryAvailabilityZone = aws.String(zoneOf(r.scope.Region, 1))
	}
	if i.maxStorage > 0 {
		d.MaxAllocatedStorage = aws.Int32(i.maxStorage)
	}
	if i.secret != "" {
		d.MasterUserSecret = &types.MasterUserSecret{SecretArn: aws.String(i.secret), SecretStatus: aws.String("active"),
			KmsKeyId: aws.String(kmsKeyARN(r.scope, "", "aws/secretsmanager"))}
	}
	d.Iops, d.StorageThroughput = i.performance()
	for _, sg := range i.securityGroups {
		d.VpcSecurityGroups = append(d.VpcSecurityGroups, types.VpcSecurityGroupMembership{VpcSecurityGroupId: aws.String(sg), Status: aws.String("active")})
	}
	if g, ok := r.subnetGroups[i.subnetGroup]; ok {
		d.DBSubnetGroup = g.describe(r.scope.Region)
	}
	if status != statusCreating {
		d.Endpoint = &types.Endpoint{Address: aws.String(i.host), Port: aws.Int32(i.port)}
		d.InstanceCreateTime = aws.Time(i.created)
	}
	if i.cluster != "" {
		r.describeMember(i, &d)
	}
	return d
}

// performance returns the IOPS and throughput the instance's volume has: provisioned, or the
// gp3 baseline; none for gp2 and magnetic volumes.
func (i *instance) performance() (iops, throughput *int32) {
	switch i.storageType {
	case "gp3":
		baseIOPS, baseThroughput := i.eng.gp3Baseline(i.storage)
		if i.iops != 0 {
			baseIOPS = i.iops
		}
		if i.throughput != 0 {
			baseThroughput = i.throughput
		}
		return aws.Int32(baseIOPS), aws.Int32(baseThroughput)
	case "io1", "io2":
		return aws.Int32(i.iops), nil
	}
	return nil, nil
}

// pendingValues returns the instance's PendingModifiedValues: the pending changes, and "****"
// for a master password being reset.
func (i *instance) pendingValues() *types.PendingModifiedValues {
	p := &types.PendingModifiedValues{}
	i.pending.report(p)
	if i.passwordPending {
		p.MasterUserPassword = aws.String("****")
	}
	return p
}

// optionMemberships returns the instance's option groups: the one in use, and the one replacing
// it while an option group change is pending.
func (i *instance) optionMemberships() []types.OptionGroupMembership {
	if i.pending.optionGroup == nil {
		return []types.OptionGroupMembership{{OptionGroupName: aws.String(i.optionGroup), Status: aws.String("in-sync")}}
	}
	removal, apply := "pending-removal", "pending-apply"
	if i.life.Status().applies {
		removal, apply = "removing", "applying"
	}
	return []types.OptionGroupMembership{
		{OptionGroupName: aws.String(i.optionGroup), Status: aws.String(removal)},
		{OptionGroupName: i.pending.optionGroup, Status: aws.String(apply)},
	}
}
