package rdsdbcluster

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdspassword"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdstags"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// groupRetry is how soon a spec naming a missing group is tried again.
const groupRetry = time.Minute

// Create makes the DB subnet group the operator owns (when the spec gives subnets rather than
// a group), creates the cluster with every setting of the spec, the password from its Secret
// (or managed by RDS) and the desired tags (ownership included), records its identifier and the
// version of the password applied at once, then creates its instances <id>-1 to <id>-<count>
// (RDS takes them while the cluster is still creating). An instance not made here is made by a
// later pass (see planInstances). A name taken in the meantime and a missing group are waits
// (nothing was created): the next Observe claims or refuses the cluster found under the name.
func (d *driver) Create(ctx context.Context, c *v1alpha1.RDSDBCluster, req managed.Request) error {
	s, id := &c.Spec, identifier(c)
	var pw rdspassword.Password
	if ref := s.MasterUserPasswordSecretRef; ref != nil {
		var err error
		if pw, err = rdspassword.Read(ctx, d.kube, c.Namespace, "spec.masterUserPasswordSecretRef", *ref, s.Engine); err != nil {
			return err
		}
	}
	if ownsSubnetGroup(s) {
		if err := d.subnetGroup(c).Ensure(ctx, req.Tags); err != nil {
			return err
		}
	}
	in := &rds.CreateDBClusterInput{
		DBClusterIdentifier:              aws.String(id),
		Engine:                           aws.String(s.Engine),
		EngineVersion:                    optional(s.EngineVersion),
		MasterUsername:                   aws.String(s.MasterUsername),
		DatabaseName:                     optional(s.DatabaseName),
		Port:                             s.Port,
		DBSubnetGroupName:                optional(subnetGroupName(c)),
		VpcSecurityGroupIds:              s.VPCSecurityGroupIDs,
		StorageEncrypted:                 s.StorageEncrypted,
		KmsKeyId:                         optional(s.KMSKeyID),
		BackupRetentionPeriod:            s.BackupRetentionPeriod,
		PreferredBackupWindow:            optional(s.PreferredBackupWindow),
		PreferredMaintenanceWindow:       optional(s.PreferredMaintenanceWindow),
		DBClusterParameterGroupName:      optional(s.DBClusterParameterGroupName),
		DeletionProtection:               aws.Bool(aws.ToBool(s.DeletionProtection)),
		ServerlessV2ScalingConfiguration: scaling(s.ServerlessV2Scaling),
		Tags:                             rdstags.List(req.Tags),
	}
	if s.ManageMasterUserPassword {
		in.ManageMasterUserPassword, in.MasterUserSecretKmsKeyId = aws.Bool(true), optional(s.MasterUserSecretKMSKeyID)
	} else {
		in.MasterUserPassword = aws.String(pw.Value)
	}
	if _, err := d.api.CreateDBCluster(ctx, in); err != nil {
		if w := groupError(s, err); w != nil {
			return w
		}
		if awserr.Code(err) == "DBClusterAlreadyExistsFault" {
			return managed.Waiting(condition.ReasonIdentifierTaken,
				"a DB cluster named %s appeared in AWS while this one was being created; checking whether it belongs to this object", id)
		}
		return fmt.Errorf("create DB cluster %s: %w", id, err)
	}
	managed.SetExternalName(c, id)
	c.Status.MasterUserPasswordVersion = pw.Version
	numbers := make([]int, 0, s.Instances.Count)
	for n := 1; n <= int(s.Instances.Count); n++ {
		numbers = append(numbers, n)
	}
	return d.createInstances(ctx, c, id, numbers, req.Tags)
}

// groupError returns a *managed.WaitingError when err says a group the spec names does not
// exist, and nil otherwise.
func groupError(s *v1alpha1.RDSDBClusterSpec, err error) error {
	var field, name string
	switch awserr.Code(err) {
	case "DBSubnetGroupNotFoundFault":
		field, name = "dbSubnetGroupName", s.DBSubnetGroupName
	case "DBClusterParameterGroupNotFound", "DBParameterGroupNotFound":
		field, name = "dbClusterParameterGroupName", s.DBClusterParameterGroupName
	default:
		return nil
	}
	return &managed.WaitingError{Reason: condition.ReasonGroupNotFound, After: groupRetry,
		Message: fmt.Sprintf("%s %q does not exist in AWS; create it or change spec.%s (%s)", field, name, field, awserr.Describe(err))}
}
