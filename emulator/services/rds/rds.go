// Package rds emulates Amazon RDS DB instances over the awsQuery protocol (API version
// 2014-10-31): instances with AWS's validation and lifecycle, DB subnet groups, DB parameter
// groups, option groups, DB snapshots and tags; and Aurora DB clusters (cluster.go), their
// member instances (clustermembers.go), DB cluster parameter groups (clusterparams.go) and DB
// cluster snapshots (snapshots.go, restore.go).
//
// Lifecycle, on the simulation clock, one transition per step (2s unless the server's options
// say otherwise): creating -> backing-up -> available (creating -> available when
// BackupRetentionPeriod is 0); modifying (upgrading for an engine version change) -> available;
// resetting-master-credentials -> available after a new master password; deleting -> gone. The
// endpoint is absent while the instance is creating, as on AWS.
//
// ModifyDBInstance follows the table of AWS's "Modifying an Amazon RDS DB instance":
//   - Always applied at once, without a status change: DeletionProtection, CopyTagsToSnapshot,
//     AutoMinorVersionUpgrade, MaxAllocatedStorage, PreferredBackupWindow,
//     PreferredMaintenanceWindow, Performance Insights, and BackupRetentionPeriod changes
//     between two non-zero values.
//   - Always applied at once, with the instance modifying for a transition: DBPortNumber,
//     PubliclyAccessible, VpcSecurityGroupIds, EnableIAMDatabaseAuthentication,
//     ManageMasterUserPassword and DBParameterGroupName (whose ParameterApplyStatus is then
//     pending-reboot; RebootDBInstance is not emulated, so it stays so).
//   - MasterUserPassword is applied as soon as possible: PendingModifiedValues.MasterUserPassword
//     is "****" until the transition ends.
//   - Everything else that AWS lists in PendingModifiedValues (DBInstanceClass, AllocatedStorage,
//     StorageType, Iops, StorageThroughput, EngineVersion, MultiAZ, CACertificateIdentifier,
//     DBSubnetGroupName, BackupRetentionPeriod to or from 0) and OptionGroupName waits in
//     PendingModifiedValues. ApplyImmediately applies those, with any earlier pending ones, in a
//     modifying (or upgrading) transition: the new values show in PendingModifiedValues until it
//     ends, as on AWS. Without ApplyImmediately they apply when the simulation clock reaches the
//     start of the instance's PreferredMaintenanceWindow (UTC), and then go through the same
//     transition.
//
// Default parameter groups (default.<family>) and option groups (default:<engine>-<major>) exist
// as soon as an instance or a request names them, as AWS creates them on first use.
// DescribeDBInstances filters on db-instance-id, dbi-resource-id and engine; DescribeDBSnapshots
// also on db-snapshot-id and snapshot-type.
//
// Aurora DB clusters (aurora-postgresql, aurora-mysql) go creating -> available, and deleting ->
// gone; a master password change resets in a resetting-master-credentials step and an engine
// upgrade waits for the maintenance window or, with ApplyImmediately, upgrades in an upgrading
// step. The first member instance is the writer; deleting the writer, or FailoverDBCluster,
// hands the role to the reader of the best promotion tier (or the target). A change of the
// cluster's DB cluster parameter group, or of a static parameter in it, leaves the members'
// DBClusterParameterGroupStatus pending-reboot until each reboots. A cluster that manages its
// master password keeps it in the emulated Secrets Manager when the server connects one
// (KeepSecretsIn). Simplifications: clusters are provisioned Aurora clusters only (no Multi-AZ
// DB clusters of mysql or postgres, no Serverless v1, global databases or backtracking), make no
// automated snapshots and renaming (NewDBClusterIdentifier) is refused. Db2 and RDS
// Custom engines are refused. Engine versions are
// checked by major version only, against a small table of the majors AWS offers. Other services
// are not consulted: VPC security group IDs and subnet IDs are checked for their format only, a
// subnet group has no VPC ID and puts its n-th subnet in the region's n-th zone (a, b, c, ...),
// an instance without a subnet group has none, and a KMS key given by alias is reported as the
// alias ARN (AWS resolves it to the key ARN). Storage is never optimised after a change
// (no storage-optimization status), automated backups make no snapshots, renaming
// (NewDBInstanceIdentifier) is refused, and tags are checked for their number, their length and
// the reserved prefixes, not for the characters AWS allows.
package rds

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// TransitionTime is how long each lifecycle step (creating, backing-up, modifying, deleting)
// takes on the simulation clock by default.
const TransitionTime = 2 * time.Second

// Backend holds the RDS resources of every account and region.
type Backend struct {
	clock *core.Clock
	state *core.Backend[*region]
	// secrets keeps the master passwords RDS manages; nil when no Secrets Manager is connected.
	secrets Secrets
}

// region is what one account has in one region.
type region struct {
	scope        core.Scope
	instances    map[string]*instance
	snapshots    map[string]*snapshot
	subnetGroups map[string]*subnetGroup
	paramGroups  map[string]*paramGroup
	optionGroups map[string]*optionGroup
	tags         *core.Tags // by ARN

	clusters           map[string]*cluster
	clusterParamGroups map[string]*paramGroup
	clusterSnapshots   map[string]*clusterSnapshot
}

// newRegion returns the empty state of an account in a region.
func newRegion(scope core.Scope) *region {
	return &region{scope: scope, instances: map[string]*instance{}, snapshots: map[string]*snapshot{},
		subnetGroups: map[string]*subnetGroup{}, paramGroups: map[string]*paramGroup{}, optionGroups: map[string]*optionGroup{},
		tags: core.NewTags(tagRules), clusters: map[string]*cluster{}, clusterParamGroups: map[string]*paramGroup{},
		clusterSnapshots: map[string]*clusterSnapshot{}}
}

// New returns an empty RDS backend on clock.
func New(clock *core.Clock) *Backend {
	return &Backend{clock: clock, state: core.NewBackend(newRegion)}
}

// Service describes RDS to the router.
func (b *Backend) Service() *core.Service {
	s := core.QueryService("rds", "RDS", "rds", "2014-10-31", models.MustLoad("rds"))
	return s.Declare(TransitionTime, b.dump, b.operations(), b.tagOperations())
}

func invalidValue(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidParameterValue", format, args...)
}

func invalidCombination(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidParameterCombination", format, args...)
}

// checkIdentifier checks an RDS identifier (instance, snapshot, parameter or option group) of at
// most max characters and returns it lowercased, as RDS stores it.
func checkIdentifier(param, id string, max int) (string, error) {
	id, ok := core.Identifier(id, max)
	if !ok {
		return "", invalidValue("The parameter %s is not a valid identifier. Identifiers must begin with a letter; "+
			"must contain only ASCII letters, digits, and hyphens; and must not end with a hyphen or contain two consecutive hyphens.", param)
	}
	return id, nil
}

// page returns the output of a Describe operation made by output from one page of items, with
// RDS's MaxRecords limits (20 to 100, default 100) and the marker of the next page; or err, the
// error of listing the items, when there is one.
func page[T, O any](items []T, err error, marker *string, maxRecords *int32, output func(page []T, next *string) *O) (*O, error) {
	if err != nil {
		return nil, err
	}
	out, next, err := core.RecordsPage(items, marker, maxRecords)
	if err != nil {
		return nil, err
	}
	return output(out, next), nil
}

// matchFilters reports whether a resource whose filterable fields are fields passes every
// filter. A filter the operation does not support is an error, as on AWS.
func matchFilters(filters []types.Filter, fields map[string][]string) (bool, error) {
	for _, f := range filters {
		have, ok := fields[aws.ToString(f.Name)]
		if !ok {
			return false, invalidValue("Unrecognized filter name: %s", aws.ToString(f.Name))
		}
		if !core.AnyMatch(f.Values, have, func(want, value string) bool { return want == value }) {
			return false, nil
		}
	}
	return true, nil
}

// matching returns, in the order of ids, the views of the resources that find finds by id and
// whose filterable fields pass filters. A filter the operation does not support is an error.
func matching[T, V any](ids []string, filters []types.Filter, find func(id string) (T, bool),
	fields func(id string, t T) map[string][]string, view func(t T) V) ([]V, error) {
	var found []V
	for _, id := range ids {
		t, ok := find(id)
		if !ok {
			continue
		}
		pass, err := matchFilters(filters, fields(id, t))
		if err != nil {
			return nil, err
		}
		if pass {
			found = append(found, view(t))
		}
	}
	return found, nil
}

func (b *Backend) dump() any {
	now := b.clock.Now()
	out := map[string]any{}
	for scope, r := range b.state.All() {
		prefix := scope.Account + "/" + scope.Region + "/"
		for _, id := range core.SortedKeys(r.instances) {
			if i := r.instance(id, now); i != nil {
				out[prefix+"db:"+id] = r.describe(i, now)
			}
		}
		for _, id := range core.SortedKeys(r.clusters) {
			if c := r.cluster(id, now); c != nil {
				out[prefix+"cluster:"+id] = r.describeCluster(c, now)
			}
		}
		for id, s := range r.clusterSnapshots {
			out[prefix+"cluster-snapshot:"+id] = clusterSnapshots.describe(r, s, now)
		}
		out[prefix+"cluster-pg"] = core.SortedKeys(r.clusterParamGroups)
		for id, s := range r.snapshots {
			out[prefix+"snapshot:"+id] = dbSnapshots.describe(r, s, now)
		}
		out[prefix+"subgrp"] = core.SortedKeys(r.subnetGroups)
		out[prefix+"pg"] = core.SortedKeys(r.paramGroups)
		out[prefix+"og"] = core.SortedKeys(r.optionGroups)
	}
	return out
}
