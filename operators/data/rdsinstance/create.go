package rdsinstance

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdsinsights"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdstags"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// groupRetry is how soon a spec naming a missing group is tried again.
const groupRetry = time.Minute

// Create makes the DB subnet group the operator owns (when the spec gives subnets rather than
// a group), then creates the instance (a read replica or a restore when the spec says so: see
// createDerived) with every setting of the spec, the password from its
// Secret and the desired tags (ownership included, so the instance is never untagged), and
// records its identifier and the version of the password applied. A name taken in the meantime and a
// missing group are waits (nothing was created): the next Observe claims or refuses the
// instance found under the name, and a group created later is picked up by itself.
func (d *driver) Create(ctx context.Context, i *v1alpha1.RDSInstance, req managed.Request) error {
	pw, err := d.password(ctx, i)
	if err != nil {
		return err
	}
	if err := d.ensureSubnetGroup(ctx, i, req.Tags); err != nil {
		return err
	}
	s, id := applied(i), identifier(i)
	if derived, err := d.createDerived(ctx, i, s, id, rdstags.List(req.Tags)); derived {
		return err
	}
	in := &rds.CreateDBInstanceInput{
		DBInstanceIdentifier:       aws.String(id),
		DBInstanceClass:            aws.String(s.DBInstanceClass),
		Engine:                     aws.String(s.Engine),
		EngineVersion:              optional(s.EngineVersion),
		AllocatedStorage:           aws.Int32(s.AllocatedStorage),
		MaxAllocatedStorage:        s.MaxAllocatedStorage,
		StorageType:                optional(s.StorageType),
		Iops:                       s.Iops,
		StorageThroughput:          s.StorageThroughput,
		StorageEncrypted:           s.StorageEncrypted,
		KmsKeyId:                   optional(s.KMSKeyID),
		DBName:                     optional(s.DBName),
		MasterUsername:             aws.String(s.MasterUsername),
		MasterUserPassword:         aws.String(pw.Value),
		Port:                       s.Port,
		MultiAZ:                    aws.Bool(s.MultiAZ),
		BackupRetentionPeriod:      s.BackupRetentionPeriod,
		PreferredBackupWindow:      optional(s.PreferredBackupWindow),
		PreferredMaintenanceWindow: optional(s.PreferredMaintenanceWindow),
		DBSubnetGroupName:          optional(s.DBSubnetGroupName),
		DBParameterGroupName:       optional(s.DBParameterGroupName),
		OptionGroupName:            optional(s.OptionGroupName),
		VpcSecurityGroupIds:        s.VPCSecurityGroupIDs,
		PubliclyAccessible:         aws.Bool(s.PubliclyAccessible),
		AutoMinorVersionUpgrade:    s.AutoMinorVersionUpgrade,
		CopyTagsToSnapshot:         aws.Bool(s.CopyTagsToSnapshot),
		DeletionProtection:         aws.Bool(aws.ToBool(s.DeletionProtection)),
		Tags:                       rdstags.List(req.Tags),
	}
	in.EnablePerformanceInsights, in.PerformanceInsightsRetentionPeriod, in.PerformanceInsightsKMSKeyId = rdsinsights.Settings(s.PerformanceInsights)
	if _, err := d.api.CreateDBInstance(ctx, in); err != nil {
		if w := groupError(s, err); w != nil {
			return w
		}
		if awserr.Code(err) == "DBInstanceAlreadyExists" {
			return managed.Waiting(condition.ReasonIdentifierTaken,
				"a DB instance named %s appeared in AWS while this one was being created; checking whether it belongs to this object", id)
		}
		return fmt.Errorf("create DB instance %s: %w", id, err)
	}
	managed.SetExternalName(i, id)
	i.Status.MasterUserPasswordVersion = pw.Version
	return nil
}

// optional returns s for a request, or nil when the spec leaves it empty (AWS's default).
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}

// groupError returns a *managed.WaitingError when err says a group the spec names does not
// exist, and nil otherwise.
func groupError(s *v1alpha1.RDSInstanceSpec, err error) error {
	var field, name string
	switch awserr.Code(err) {
	case "DBSubnetGroupNotFoundFault":
		field, name = "dbSubnetGroupName", s.DBSubnetGroupName
	case "DBParameterGroupNotFound":
		field, name = "dbParameterGroupName", s.DBParameterGroupName
	case "OptionGroupNotFoundFault":
		field, name = "optionGroupName", s.OptionGroupName
	default:
		return nil
	}
	return &managed.WaitingError{Reason: condition.ReasonGroupNotFound, After: groupRetry,
		Message: fmt.Sprintf("%s %q does not exist in AWS; create it or change spec.%s (%s)", field, name, field, awserr.Describe(err))}
}
