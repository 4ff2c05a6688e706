package rdsdbcluster

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
)

// TestPlan checks which cluster settings plan finds different from the spec.
func TestPlan(t *testing.T) {
	cluster := func(mutate func(*types.DBCluster)) *types.DBCluster {
		cl := &types.DBCluster{DBClusterIdentifier: aws.String("db"), EngineVersion: aws.String("16.4"), BackupRetentionPeriod: aws.Int32(7),
			PreferredBackupWindow: aws.String("03:00-04:00"), Port: aws.Int32(5432), DBClusterParameterGroup: aws.String("tuned"),
			DeletionProtection: aws.Bool(false), VpcSecurityGroups: []types.VpcSecurityGroupMembership{{VpcSecurityGroupId: aws.String("sg-1"), Status: aws.String("active")}}}
		if mutate != nil {
			mutate(cl)
		}
		return cl
	}
	spec := func(mutate func(*v1alpha1.RDSDBClusterSpec)) *v1alpha1.RDSDBClusterSpec {
		s := &v1alpha1.RDSDBClusterSpec{EngineVersion: "16", BackupRetentionPeriod: aws.Int32(7), PreferredBackupWindow: "03:00-04:00",
			DBClusterParameterGroupName: "tuned", VPCSecurityGroupIDs: []string{"sg-1"}}
		if mutate != nil {
			mutate(s)
		}
		return s
	}
	cases := map[string]struct {
		reason  string
		spec    *v1alpha1.RDSDBClusterSpec
		cluster *types.DBCluster
		want    []string
	}{
		"InSync": {reason: "A major version asks for any of its minor versions; unset settings are not managed.", spec: spec(nil), cluster: cluster(nil)},
		"Retention": {reason: "A change of the backup retention is planned.", spec: spec(func(s *v1alpha1.RDSDBClusterSpec) { s.BackupRetentionPeriod = aws.Int32(14) }),
			cluster: cluster(nil), want: []string{"backupRetentionPeriod"}},
		"Pending": {reason: "A version already pending for the maintenance window is not sent again.", spec: spec(func(s *v1alpha1.RDSDBClusterSpec) { s.EngineVersion = "17.5" }),
			cluster: cluster(func(cl *types.DBCluster) {
				cl.PendingModifiedValues = &types.ClusterPendingModifiedValues{EngineVersion: aws.String("17.5")}
			})},
		"Several": {reason: "Every differing setting goes in one request.", spec: spec(func(s *v1alpha1.RDSDBClusterSpec) {
			s.VPCSecurityGroupIDs, s.DeletionProtection, s.DBClusterParameterGroupName = []string{"sg-2"}, aws.Bool(true), "other"
			s.ServerlessV2Scaling = &v1alpha1.RDSServerlessV2Scaling{MinCapacity: "0.5", MaxCapacity: "8"}
		}), cluster: cluster(nil), want: []string{"vpcSecurityGroupIDs", "dbClusterParameterGroupName", "deletionProtection", "serverlessV2Scaling"}},
		"ScalingInSync": {reason: "A capacity range AWS has is not planned.", spec: spec(func(s *v1alpha1.RDSDBClusterSpec) {
			s.ServerlessV2Scaling = &v1alpha1.RDSServerlessV2Scaling{MinCapacity: "0.5", MaxCapacity: "8"}
		}), cluster: cluster(func(cl *types.DBCluster) {
			cl.ServerlessV2ScalingConfiguration = &types.ServerlessV2ScalingConfigurationInfo{MinCapacity: aws.Float64(0.5), MaxCapacity: aws.Float64(8)}
		})},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, got, _ := plan(tc.spec, tc.cluster)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nplan(...) fields -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
