package rdsdbcluster

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdscreation"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdsgroupscope"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdspassword"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdstags"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// RDS states the driver acts on.
const (
	statusAvailable = "available"
	statusDeleting  = "deleting"
)

// State is what AWS said about a DB cluster, handed from Observe to Delete and
// ReleaseOwnership.
type State struct {
	// Cluster is DescribeDBClusters' answer, its tags included; nil when only the DB subnet
	// group the operator made is left.
	Cluster *types.DBCluster
	// Instances are the cluster's DB instances, as DescribeDBInstances reports them (their
	// tags included).
	Instances []types.DBInstance
	// SubnetGroup is the DB subnet group the operator made for the cluster, nil when the spec
	// names one (or none) or AWS does not have it.
	SubnetGroup *types.DBSubnetGroup
}

// Observe refuses a dbClusterParameterGroupRef that names a group of scope Instance (see
// rdsgroupscope), then reads the cluster (DescribeDBClusters, its tags come along), its
// instances (one DescribeDBInstances for every member), the DB subnet group the operator made
// for it when the spec gives subnets, and the password Secret; fills the status and plans what
// differs from the spec: the cluster's tags, the owned subnet group, one ModifyDBCluster (see
// planModify), then the instances (see planInstances). A cluster that is not available is
// reported busy: RDS refuses most changes until it is available again. It is Ready when the
// cluster and every one of spec.instances.count instances are available. While the object is
// deleting, the subnet group the operator made is reported once the cluster is gone, so that
// Delete removes it.
func (d *driver) Observe(ctx context.Context, c *v1alpha1.RDSDBCluster, req managed.Request) (managed.Observation[State], error) {
	if !req.Deleting {
		if err := rdsgroupscope.Check(ctx, d.kube, c.Namespace, "spec.dbClusterParameterGroupRef", c.Spec.DBClusterParameterGroupRef,
			v1alpha1.ParameterGroupScopeCluster); err != nil {
			return managed.Observation[State]{}, err
		}
	}
	id := identifier(c)
	cluster, err := d.describe(ctx, id)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if cluster == nil {
		if req.Deleting {
			return d.leftSubnetGroup(ctx, c)
		}
		return managed.Observation[State]{}, nil
	}
	tags := rdstags.Map(cluster.TagList)
	if err := managed.Claim(c, "DB cluster", id, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	instances, err := d.instances(ctx, cluster)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(c, cluster, instances)
	status := aws.ToString(cluster.Status)
	obs := managed.Observation[State]{Exists: true, State: &State{Cluster: cluster, Instances: instances}, Tags: tags, Busy: status != statusAvailable}
	if status == statusDeleting || req.Deleting {
		// Nothing is compared for a cluster on its way out, and a missing password Secret
		// must not hold up its deletion.
		obs.Message = "DB cluster is " + status
		return obs, nil
	}
	obs.Conflict = createdAsSpecified(&c.Spec, cluster)
	var pw rdspassword.Password
	if ref := c.Spec.MasterUserPasswordSecretRef; ref != nil {
		if pw, err = rdspassword.Read(ctx, d.kube, c.Namespace, "spec.masterUserPasswordSecretRef", *ref, c.Spec.Engine); err != nil {
			return managed.Observation[State]{}, err
		}
		if c.Status.MasterUserPasswordVersion == "" {
			// An adopted cluster (or one whose create was interrupted before its status was
			// written) keeps its password: only a later change of the Secret is applied.
			c.Status.MasterUserPasswordVersion = pw.Version
		}
	}
	rdstags.Plan(&obs.Changes, d.api, "DB cluster", aws.ToString(cluster.DBClusterArn), req.Tags, tags)
	if ownsSubnetGroup(&c.Spec) {
		group, groupTags, err := d.subnetGroup(c).Observe(ctx)
		if err != nil {
			return managed.Observation[State]{}, err
		}
		obs.State.SubnetGroup = group
		if err := d.subnetGroup(c).Plan(&obs.Changes, group, groupTags, req.Tags); err != nil && obs.Conflict == nil {
			obs.Conflict = err
		}
	}
	d.planModify(&obs.Changes, c, cluster, pw)
	ready, message := d.planInstances(&obs.Changes, c, cluster, instances, req.Tags)
	switch {
	case status != statusAvailable:
		obs.Message = "DB cluster is " + status
	case !ready:
		obs.Message = message
	default:
		obs.Ready = true
	}
	return obs, nil
}

// leftSubnetGroup observes, for an object being deleted whose cluster is gone, the DB subnet
// group the operator made for it: it exists (and is busy, so the engine looks again after
// Delete) while AWS has it and its ownership tags name this object.
func (d *driver) leftSubnetGroup(ctx context.Context, c *v1alpha1.RDSDBCluster) (managed.Observation[State], error) {
	if !ownsSubnetGroup(&c.Spec) {
		return managed.Observation[State]{}, nil
	}
	group, tags, err := d.subnetGroup(c).Observe(ctx)
	if err != nil || group == nil || !managed.OwnedBy(c, tags) {
		return managed.Observation[State]{}, err
	}
	return managed.Observation[State]{Exists: true, Busy: true, State: &State{SubnetGroup: group}, Tags: tags,
		Message: "the DB subnet group made for the cluster is left"}, nil
}

// createdAsSpecified refuses a cluster whose settings that RDS accepts only at creation
// (engine, master user name, database name, encryption and its key) are not the spec's: an
// adopted cluster, or an identifier taken over.
func createdAsSpecified(s *v1alpha1.RDSDBClusterSpec, cl *types.DBCluster) error {
	return rdscreation.Check("DB cluster "+aws.ToString(cl.DBClusterIdentifier),
		rdscreation.Settings{Engine: s.Engine, MasterUsername: s.MasterUsername, DBNameField: "databaseName", DBName: s.DatabaseName,
			StorageEncrypted: aws.ToBool(s.StorageEncrypted), KMSKeyID: s.KMSKeyID},
		rdscreation.Settings{Engine: aws.ToString(cl.Engine), MasterUsername: aws.ToString(cl.MasterUsername), DBName: aws.ToString(cl.DatabaseName),
			StorageEncrypted: aws.ToBool(cl.StorageEncrypted), KMSKeyID: aws.ToString(cl.KmsKeyId)})
}

// fillStatus copies what the status shows from AWS's description of the cluster and its
// instances.
func fillStatus(c *v1alpha1.RDSDBCluster, cl *types.DBCluster, instances []types.DBInstance) {
	c.Status.DBClusterIdentifier = aws.ToString(cl.DBClusterIdentifier)
	c.Status.Status = aws.ToString(cl.Status)
	c.Status.ARN = aws.ToString(cl.DBClusterArn)
	c.Status.Endpoint, c.Status.ReaderEndpoint, c.Status.Port = aws.ToString(cl.Endpoint), aws.ToString(cl.ReaderEndpoint), aws.ToInt32(cl.Port)
	c.Status.DBSubnetGroupName = aws.ToString(cl.DBSubnetGroup)
	c.Status.MasterUserSecretARN = ""
	if s := cl.MasterUserSecret; s != nil {
		c.Status.MasterUserSecretARN = aws.ToString(s.SecretArn)
	}
	status := map[string]string{}
	for _, inst := range instances {
		status[aws.ToString(inst.DBInstanceIdentifier)] = aws.ToString(inst.DBInstanceStatus)
	}
	c.Status.Members, c.Status.ParameterApplyStatus = nil, ""
	for _, m := range cl.DBClusterMembers {
		id := aws.ToString(m.DBInstanceIdentifier)
		c.Status.Members = append(c.Status.Members, v1alpha1.RDSDBClusterMember{Identifier: id, Writer: aws.ToBool(m.IsClusterWriter), Status: status[id]})
		// pending-reboot on any instance outweighs the others' in-sync.
		if s := aws.ToString(m.DBClusterParameterGroupStatus); c.Status.ParameterApplyStatus == "" || s == "pending-reboot" {
			c.Status.ParameterApplyStatus = s
		}
	}
	c.Status.PendingModifications = pendingModifications(cl)
	if c.Status.ParameterApplyStatus == "pending-reboot" {
		// The operator never reboots a database by itself: the change waits for the owner.
		c.Status.PendingModifications = append(c.Status.PendingModifications, "parameters (pending-reboot: reboot the instances to apply them)")
	}
}

// pendingModifications names the changes RDS has not applied to the cluster yet, in the
// spec's terms.
func pendingModifications(cl *types.DBCluster) []string {
	p := cl.PendingModifiedValues
	if p == nil {
		return nil
	}
	var names []string
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"engineVersion", p.EngineVersion != nil}, {"backupRetentionPeriod", p.BackupRetentionPeriod != nil},
		{"masterUserPassword", p.MasterUserPassword != nil},
	} {
		if f.set {
			names = append(names, f.name)
		}
	}
	return names
}

// describe returns DB cluster id, nil when it does not exist.
func (d *driver) describe(ctx context.Context, id string) (*types.DBCluster, error) {
	out, err := d.api.DescribeDBClusters(ctx, &rds.DescribeDBClustersInput{DBClusterIdentifier: aws.String(id)})
	if awserr.IsNotFound(err) || awserr.Code(err) == "DBClusterNotFoundFault" || (err == nil && len(out.DBClusters) == 0) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("describe DB cluster %s: %w", id, err)
	}
	return &out.DBClusters[0], nil
}

// instances returns the cluster's DB instances with one DescribeDBInstances filtered by their
// identifiers; none (and no call) for a cluster without members.
func (d *driver) instances(ctx context.Context, cl *types.DBCluster) ([]types.DBInstance, error) {
	ids := make([]string, 0, len(cl.DBClusterMembers))
	for _, m := range cl.DBClusterMembers {
		ids = append(ids, aws.ToString(m.DBInstanceIdentifier))
	}
	if len(ids) == 0 {
		return nil, nil
	}
	var out []types.DBInstance
	pages := rds.NewDescribeDBInstancesPaginator(d.api, &rds.DescribeDBInstancesInput{
		Filters: []types.Filter{{Name: aws.String("db-instance-id"), Values: ids}}})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("describe the DB instances of cluster %s: %w", aws.ToString(cl.DBClusterIdentifier), err)
		}
		out = append(out, page.DBInstances...)
	}
	return out, nil
}
