package rds

import (
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// cluster is one Aurora DB cluster: the storage, master user and database its member
// instances (clustermembers.go) share.
type cluster struct {
	id, arn, resourceID string
	eng                 *engine
	engineVersion       string
	created, readableAt time.Time
	transition          time.Duration
	life                core.Lifecycle[phase]
	gone                bool

	masterUsername, masterPassword  string // the password is kept, never returned
	secret, secretKMS               string // the managed master password's secret and its key
	dbName                          string
	port                            int32
	subnetGroup                     string
	securityGroups                  []string
	encrypted                       bool
	kmsKey                          string
	backupRetention                 int32
	backupWindow, maintenanceWindow string
	deletionProtection, copyTags    bool
	paramGroup                      string
	scaling                         *types.ServerlessV2ScalingConfigurationInfo // nil: no Serverless v2
	logExports                      []string
	// writer is the member instance that is the cluster's writer, "" before the first one.
	writer string

	// pendingVersion (and the cluster parameter group of a new major version) waits for the
	// maintenance window that opens at maintenanceAt, or for the upgrading step to end.
	pendingVersion, pendingParamGroup *string
	maintenanceAt                     time.Time
	passwordPending                   bool
}

func (c *cluster) status() string { return c.life.Status().status }

// settle finishes the steps whose time has come, and starts a pending upgrade once the
// maintenance window opens.
func (c *cluster) settle(now time.Time) {
	for {
		c.life.Settle(now, func(s core.Step[phase]) {
			switch {
			case s.Status.status == statusDeleting:
				c.gone = true
			case s.Status.applies:
				set(&c.engineVersion, c.pendingVersion)
				set(&c.paramGroup, c.pendingParamGroup)
				c.pendingVersion, c.pendingParamGroup = nil, nil
			}
			c.passwordPending = false
		})
		if c.life.Busy() || c.gone || c.pendingVersion == nil || now.Before(c.maintenanceAt) {
			return
		}
		c.life.Start(phase{status: statusUpgrading, applies: true}, c.maintenanceAt, c.transition)
	}
}

// cluster returns the live cluster named by an identifier or ARN, settled at now, or nil. The
// caller holds the backend's mutex.
func (r *region) cluster(ref string, now time.Time) *cluster {
	id := strings.ToLower(r.nameFromARN(ref, "cluster"))
	c, ok := r.clusters[id]
	if !ok {
		return nil
	}
	c.settle(now)
	if c.gone {
		delete(r.clusters, id)
		r.tags.Delete(c.arn)
		return nil
	}
	return c
}

func clusterNotFound(id string) *core.APIError {
	return core.NotFoundf("DBClusterNotFoundFault", "DBCluster %s not found.", id)
}

func clusterState(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidDBClusterStateFault", format, args...)
}

// clusterHost returns the DNS name of a cluster's writer (cluster-) or reader (cluster-ro-)
// endpoint, with the account and region's suffix the instances' endpoints have.
func clusterHost(scope core.Scope, id, kind string) string {
	host := endpointHost(scope, id)
	return strings.Replace(host, ".", "."+kind+"-", 1)
}

// newClusterResourceID returns a DbClusterResourceId such as cluster-ABCDEFGHIJKLMNOPQRSTUVWXYZ.
func newClusterResourceID() string { return "cluster-" + newResourceID()[3:] }

func checkClusterRetention(days int32) error {
	if days < 1 || days > 35 {
		return invalidValue("Invalid backup retention period: %d. Valid values are 1 to 35.", days)
	}
	return nil
}

// checkScaling checks a Serverless v2 scaling configuration: capacities in steps of 0.5 ACU,
// MinCapacity 0 to 256, MaxCapacity 1 to 256 and not below MinCapacity.
func checkScaling(s *types.ServerlessV2ScalingConfiguration) (*types.ServerlessV2ScalingConfigurationInfo, error) {
	lo, hi := aws.ToFloat64(s.MinCapacity), aws.ToFloat64(s.MaxCapacity)
	half := func(v float64) bool { return v*2 == float64(int(v*2)) }
	switch {
	case s.MinCapacity == nil || s.MaxCapacity == nil:
		return nil, invalidCombination("ServerlessV2ScalingConfiguration needs both MinCapacity and MaxCapacity.")
	case lo < 0 || lo > 256 || !half(lo):
		return nil, invalidValue("Serverless v2 MinCapacity must be from 0 to 256 ACUs in steps of 0.5: %g", lo)
	case hi < 1 || hi > 256 || !half(hi):
		return nil, invalidValue("Serverless v2 MaxCapacity must be from 1 to 256 ACUs in steps of 0.5: %g", hi)
	case hi < lo:
		return nil, invalidValue("Serverless v2 MaxCapacity %g must be greater than or equal to MinCapacity %g.", hi, lo)
	}
	out := &types.ServerlessV2ScalingConfigurationInfo{MinCapacity: aws.Float64(lo), MaxCapacity: aws.Float64(hi)}
	if s.SecondsUntilAutoPause != nil {
		out.SecondsUntilAutoPause = s.SecondsUntilAutoPause
	}
	return out, nil
}

// logTypes are the log types each Aurora engine exports to CloudWatch Logs.
var logTypes = map[string][]string{
	"aurora-postgresql": {"postgresql", "iam-db-auth-error", "instance"},
	"aurora-mysql":      {"audit", "error", "general", "slowquery", "iam-db-auth-error", "instance"},
}

func checkLogTypes(e *engine, types []string) error {
	for _, t := range types {
		if !slices.Contains(logTypes[e.name], t) {
			return invalidValue("You cannot use the log type %s with engine %s.", t, e.name)
		}
	}
	return nil
}

func (b *Backend) createDBCluster(call *core.Call, in *rds.CreateDBClusterInput) (*rds.CreateDBClusterOutput, error) {
	return creating(b, call, clusterKind, "DBClusterIdentifier", in.DBClusterIdentifier, true, func(r *region, id string) (*rds.CreateDBClusterOutput, error) {
		c, err := r.newCluster(call, id, in)
		if err != nil {
			return nil, err
		}
		if err := r.tags.Merge(requestTags(in.Tags), c.arn); err != nil {
			return nil, err
		}
		if err := b.createClusterSecret(r.scope, c); err != nil {
			r.tags.Delete(c.arn)
			return nil, err
		}
		r.clusters[id] = c
		out := r.describeCluster(c, call.Now)
		return &rds.CreateDBClusterOutput{DBCluster: &out}, nil
	})
}

// newCluster validates a CreateDBCluster request as AWS does and returns the new cluster,
// creating.
func (r *region) newCluster(call *core.Call, id string, in *rds.CreateDBClusterInput) (*cluster, error) {
	name := aws.ToString(in.Engine)
	if !isAurora(name) {
		return nil, invalidValue("The emulator makes DB clusters of the aurora-postgresql and aurora-mysql engines only, not %s.", name)
	}
	e := engines[name]
	version, err := e.version(aws.ToString(in.EngineVersion))
	if err != nil {
		return nil, err
	}
	c := &cluster{eng: e, engineVersion: version,
		masterUsername: aws.ToString(in.MasterUsername), masterPassword: aws.ToString(in.MasterUserPassword),
		dbName: aws.ToString(in.DatabaseName), port: e.port, encrypted: aws.ToBool(in.StorageEncrypted), backupRetention: 1,
		backupWindow: defaultBackupWindow, maintenanceWindow: defaultMaintenanceWindow,
		deletionProtection: aws.ToBool(in.DeletionProtection), copyTags: aws.ToBool(in.CopyTagsToSnapshot),
	}
	r.born(c, call, id)
	if err := c.setMasterUser(r.scope, in.ManageMasterUserPassword, in.MasterUserSecretKmsKeyId); err != nil {
		return nil, err
	}
	if c.dbName != "" && !e.dbName.MatchString(c.dbName) {
		return nil, invalidValue("The parameter DatabaseName is not a valid identifier for engine %s: %s", e.name, c.dbName)
	}
	if in.PreferredMaintenanceWindow != nil {
		c.maintenanceWindow = strings.ToLower(*in.PreferredMaintenanceWindow)
	}
	if in.KmsKeyId != nil && !c.encrypted {
		return nil, invalidCombination("You must enable StorageEncrypted when you specify KmsKeyId for DB engine %s", e.name)
	}
	if c.encrypted {
		c.kmsKey = kmsKeyARN(r.scope, aws.ToString(in.KmsKeyId), "aws/rds")
	}
	return c, r.settleSettings(c, clusterSettings{port: in.Port, retention: in.BackupRetentionPeriod, backupWindow: in.PreferredBackupWindow,
		subnetGroup: in.DBSubnetGroupName, paramGroup: in.DBClusterParameterGroupName, securityGroups: in.VpcSecurityGroupIds,
		logExports: in.EnableCloudwatchLogsExports, scaling: in.ServerlessV2ScalingConfiguration})
}

// setMasterUser checks and records the master user name and the password, or the secret that
// manages it (in the account's aws/secretsmanager key unless kmsKey names one).
func (c *cluster) setMasterUser(scope core.Scope, manage *bool, kmsKey *string) error {
	if c.masterUsername == "" {
		return invalidValue("The parameter MasterUsername must be provided and must not be blank.")
	}
	if !masterUsername.MatchString(c.masterUsername) {
		return invalidValue("The parameter MasterUsername is not a valid identifier. Identifiers must begin with a letter; " +
			"must contain only ASCII letters, digits, and underscores; and must be 1 to 16 characters long.")
	}
	if aws.ToBool(manage) {
		if c.masterPassword != "" {
			return invalidCombination("You can't specify MasterUserPassword when ManageMasterUserPassword is enabled.")
		}
		c.manageSecret(scope, kmsKey)
		return nil
	}
	if kmsKey != nil {
		return invalidCombination("You can't specify MasterUserSecretKmsKeyId unless ManageMasterUserPassword is enabled.")
	}
	if c.masterPassword == "" {
		return invalidValue("The parameter MasterUserPassword must be provided and must not be blank.")
	}
	return c.eng.checkPassword(c.masterPassword)
}

// manageSecret makes Secrets Manager keep the master password, in kmsKey or the account's
// aws/secretsmanager key.
func (c *cluster) manageSecret(scope core.Scope, kmsKey *string) {
	c.secret, c.masterPassword = clusterSecretARN(scope, c.resourceID), ""
	c.secretKMS = kmsKeyARN(scope, aws.ToString(kmsKey), "aws/secretsmanager")
}

// clusterSecretARN returns the ARN of the secret RDS manages for a cluster's master password.
func clusterSecretARN(scope core.Scope, resourceID string) string {
	return scope.ARN("secretsmanager", "secret:rds!cluster-"+stableUUID(resourceID, "secret")+"-"+strings.ToLower(resourceID[8:14]))
}

func (b *Backend) describeDBClusters(call *core.Call, in *rds.DescribeDBClustersInput) (*rds.DescribeDBClustersOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DescribeDBClustersOutput, error) {
		found, err := clusterKind.list(r, in.DBClusterIdentifier, in.Filters, call.Now)
		return page(found, err, in.Marker, in.MaxRecords, func(out []types.DBCluster, marker *string) *rds.DescribeDBClustersOutput {
			return &rds.DescribeDBClustersOutput{DBClusters: out, Marker: marker}
		})
	})
}

func (b *Backend) deleteDBCluster(call *core.Call, in *rds.DeleteDBClusterInput) (*rds.DeleteDBClusterOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DeleteDBClusterOutput, error) {
		c, err := clusterKind.deletable(r, in.DBClusterIdentifier, call.Now)
		if err != nil {
			return nil, err
		}
		for _, i := range r.members(c, call.Now) {
			if i.status() != statusDeleting {
				return nil, clusterState("Cluster cannot be deleted, it still contains DB instances in non-deleting state.")
			}
		}
		if err := finalSnapshot(in.SkipFinalSnapshot, in.FinalDBSnapshotIdentifier, func(id string) error {
			_, err := r.takeClusterSnapshot(call, c, "FinalDBSnapshotIdentifier", id)
			return err
		}); err != nil {
			return nil, err
		}
		c.pendingVersion, c.pendingParamGroup, c.passwordPending = nil, nil, false
		c.life.Start(phase{status: statusDeleting}, call.Now, call.Transition)
		b.deleteSecret(r.scope, c.secret) // AWS deletes the secret of a cluster it deletes.
		out := r.describeCluster(c, call.Now)
		return &rds.DeleteDBClusterOutput{DBCluster: &out}, nil
	})
}

// describeCluster returns the cluster as DescribeDBClusters reports it. The master password is
// never returned, as on AWS.
func (r *region) describeCluster(c *cluster, now time.Time) types.DBCluster {
	zones := []string{zoneOf(r.scope.Region, 0), zoneOf(r.scope.Region, 1), zoneOf(r.scope.Region, 2)}
	d := types.DBCluster{
		DBClusterIdentifier: aws.String(c.id), DBClusterArn: aws.String(c.arn), DbClusterResourceId: aws.String(c.resourceID),
		Engine: aws.String(c.eng.name), EngineVersion: aws.String(c.engineVersion), EngineMode: aws.String("provisioned"),
		Status: aws.String(c.status()), AllocatedStorage: aws.Int32(1), StorageType: aws.String("aurora"), AvailabilityZones: zones,
		Endpoint: aws.String(clusterHost(r.scope, c.id, "cluster")), ReaderEndpoint: aws.String(clusterHost(r.scope, c.id, "cluster-ro")),
		Port: aws.Int32(c.port), MasterUsername: aws.String(c.masterUsername), MultiAZ: aws.Bool(false),
		BackupRetentionPeriod: aws.Int32(c.backupRetention), PreferredBackupWindow: aws.String(c.backupWindow),
		PreferredMaintenanceWindow: aws.String(c.maintenanceWindow), StorageEncrypted: aws.Bool(c.encrypted),
		DeletionProtection: aws.Bool(c.deletionProtection), CopyTagsToSnapshot: aws.Bool(c.copyTags),
		DBClusterParameterGroup: aws.String(c.paramGroup), ClusterCreateTime: aws.Time(c.created),
		IAMDatabaseAuthenticationEnabled: aws.Bool(false), HttpEndpointEnabled: aws.Bool(false), CrossAccountClone: aws.Bool(false),
		AutoMinorVersionUpgrade: aws.Bool(true), NetworkType: aws.String("IPV4"), DBClusterMembers: r.memberList(c, now),
		EnabledCloudwatchLogsExports: slices.Clone(c.logExports), ServerlessV2ScalingConfiguration: c.scaling,
		EngineLifecycleSupport: aws.String("open-source-rds-extended-support"), TagList: r.tagList(c.arn),
		EarliestRestorableTime: aws.Time(c.created), LatestRestorableTime: aws.Time(now),
	}
	if c.dbName != "" {
		d.DatabaseName = aws.String(c.dbName)
	}
	if c.subnetGroup != "" {
		d.DBSubnetGroup = aws.String(c.subnetGroup)
	}
	if c.encrypted {
		d.KmsKeyId = aws.String(c.kmsKey)
	}
	if c.secret != "" {
		d.MasterUserSecret = &types.MasterUserSecret{SecretArn: aws.String(c.secret), SecretStatus: aws.String("active"), KmsKeyId: aws.String(c.secretKMS)}
	}
	for _, sg := range c.securityGroups {
		d.VpcSecurityGroups = append(d.VpcSecurityGroups, types.VpcSecurityGroupMembership{VpcSecurityGroupId: aws.String(sg), Status: aws.String("active")})
	}
	if c.pendingVersion != nil || c.passwordPending {
		d.PendingModifiedValues = &types.ClusterPendingModifiedValues{EngineVersion: c.pendingVersion}
		if c.passwordPending {
			d.PendingModifiedValues.MasterUserPassword = aws.String("****")
		}
	}
	return d
}
