package rdsinstance

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
)

// planArgs are the arguments of plan.
type planArgs struct {
	spec *v1alpha1.RDSInstanceSpec
	inst *types.DBInstance
}

// TestPlan checks which fields plan finds different, and that pending changes and storage
// autoscaling do not make it send changes again.
func TestPlan(t *testing.T) {
	available := func(mutate func(*types.DBInstance)) *types.DBInstance {
		inst := &types.DBInstance{
			DBInstanceClass: aws.String("db.t3.small"), EngineVersion: aws.String("16.3"), AllocatedStorage: aws.Int32(20),
			MultiAZ: aws.Bool(false), BackupRetentionPeriod: aws.Int32(1), PubliclyAccessible: aws.Bool(false),
			CopyTagsToSnapshot: aws.Bool(false), DeletionProtection: aws.Bool(false),
			VpcSecurityGroups: []types.VpcSecurityGroupMembership{{VpcSecurityGroupId: aws.String("sg-1"), Status: aws.String("active")}},
		}
		if mutate != nil {
			mutate(inst)
		}
		return inst
	}
	spec := func(mutate func(*v1alpha1.RDSInstanceSpec)) *v1alpha1.RDSInstanceSpec {
		s := &v1alpha1.RDSInstanceSpec{DBInstanceClass: "db.t3.small", EngineVersion: "16", AllocatedStorage: 20,
			BackupRetentionPeriod: aws.Int32(1), VPCSecurityGroupIDs: []string{"sg-1"}}
		if mutate != nil {
			mutate(s)
		}
		return s
	}
	cases := map[string]struct {
		reason string
		args   planArgs
		want   []string
	}{
		"UpToDate": {
			reason: "An instance that matches the spec (16 asks for any 16.x) has no differences.",
			args:   planArgs{spec(nil), available(nil)},
		},
		"ClassAndGroups": {
			reason: "A new class and another security group set differ.",
			args: planArgs{spec(func(s *v1alpha1.RDSInstanceSpec) {
				s.DBInstanceClass = "db.t3.large"
				s.VPCSecurityGroupIDs = []string{"sg-2", "sg-1"}
			}), available(nil)},
			want: []string{"dbInstanceClass", "vpcSecurityGroupIDs"},
		},
		"Pending": {
			reason: "A change already pending for the maintenance window is not sent again.",
			args: planArgs{spec(func(s *v1alpha1.RDSInstanceSpec) { s.DBInstanceClass = "db.t3.large" }),
				available(func(i *types.DBInstance) {
					i.PendingModifiedValues = &types.PendingModifiedValues{DBInstanceClass: aws.String("db.t3.large")}
				})},
		},
		"PendingApplyNow": {
			reason: "With applyImmediately, a pending change is sent again so that it is applied now.",
			args: planArgs{spec(func(s *v1alpha1.RDSInstanceSpec) { s.DBInstanceClass = "db.t3.large"; s.ApplyImmediately = true }),
				available(func(i *types.DBInstance) {
					i.PendingModifiedValues = &types.PendingModifiedValues{DBInstanceClass: aws.String("db.t3.large")}
				})},
			want: []string{"dbInstanceClass"},
		},
		"Autoscaled": {
			reason: "Storage that autoscaling grew beyond the spec is not shrunk.",
			args:   planArgs{spec(nil), available(func(i *types.DBInstance) { i.AllocatedStorage = aws.Int32(40) })},
		},
		"Drift": {
			reason: "Backups changed outside the operator differ; deletion protection the spec leaves unset is not managed.",
			args: planArgs{spec(nil), available(func(i *types.DBInstance) {
				i.BackupRetentionPeriod, i.DeletionProtection = aws.Int32(5), aws.Bool(true)
			})},
			want: []string{"backupRetentionPeriod"},
		},
		"ProtectionManaged": {
			reason: "Deletion protection the spec sets is compared.",
			args: planArgs{spec(func(s *v1alpha1.RDSInstanceSpec) { s.DeletionProtection = aws.Bool(false) }), available(func(i *types.DBInstance) {
				i.DeletionProtection = aws.Bool(true)
			})},
			want: []string{"deletionProtection"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, got := plan(tc.args.spec, tc.args.inst)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nplan(...): -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
