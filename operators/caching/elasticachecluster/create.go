package elasticachecluster

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/caching/internal/ectags"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// groupRetry is how soon a spec naming a missing subnet group is tried again.
const groupRetry = time.Minute

// Create makes the subnet group the operator owns (when the spec gives subnets rather than a
// group), then the cluster, or the replication group where AWS demands one, with every
// setting of the spec (the parameter group included), the AUTH token from its Secret and the
// desired tags (ownership included); it records the id and the token's hash. A subnet group
// or a parameter group that does not exist yet is a wait. ElastiCache has no idempotency token: an
// id taken in the meantime is a wait, and the next Observe claims or refuses the cluster found
// under it.
func (d *driver) Create(ctx context.Context, c *v1alpha1.ElastiCacheCluster, req managed.Request) error {
	tok, err := d.authToken(ctx, c)
	if err != nil {
		return err
	}
	id := identifier(c)
	if err := d.ensureSubnetGroup(ctx, c, req.Tags); err != nil {
		return err
	}
	s := &c.Spec
	var value *string
	if tok != nil {
		value = aws.String(tok.value)
	}
	if s.Mode() == v1alpha1.ModeReplicationGroup {
		multi := s.NumCacheNodes > 1
		_, err = d.api.CreateReplicationGroup(ctx, &elasticache.CreateReplicationGroupInput{
			ReplicationGroupId:          aws.String(id),
			ReplicationGroupDescription: aws.String(fmt.Sprintf("%s/%s (infra-operator ElastiCacheCluster)", c.Namespace, c.Name)),
			Engine:                      aws.String(s.Engine),
			EngineVersion:               optional(s.EngineVersion),
			CacheNodeType:               aws.String(s.NodeType),
			NumCacheClusters:            aws.Int32(s.NumCacheNodes),
			AutomaticFailoverEnabled:    aws.Bool(multi),
			MultiAZEnabled:              aws.Bool(multi),
			AtRestEncryptionEnabled:     aws.Bool(s.AtRestEncryptionEnabled),
			TransitEncryptionEnabled:    aws.Bool(s.TransitEncryptionEnabled),
			AuthToken:                   value,
			SnapshotRetentionLimit:      s.SnapshotRetentionLimit,
			SnapshotWindow:              optional(s.SnapshotWindow),
			PreferredMaintenanceWindow:  optional(s.PreferredMaintenanceWindow),
			CacheSubnetGroupName:        optional(subnetGroupName(c)),
			CacheParameterGroupName:     optional(s.ParameterGroupName),
			SecurityGroupIds:            s.SecurityGroupIDs,
			Tags:                        ectags.List(req.Tags),
		})
	} else {
		_, err = d.api.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{
			CacheClusterId:             aws.String(id),
			Engine:                     aws.String(s.Engine),
			EngineVersion:              optional(s.EngineVersion),
			CacheNodeType:              aws.String(s.NodeType),
			NumCacheNodes:              aws.Int32(s.NumCacheNodes),
			AZMode:                     types.AZMode(s.AZMode),
			TransitEncryptionEnabled:   aws.Bool(s.TransitEncryptionEnabled),
			AuthToken:                  value,
			SnapshotRetentionLimit:     s.SnapshotRetentionLimit,
			SnapshotWindow:             optional(s.SnapshotWindow),
			PreferredMaintenanceWindow: optional(s.PreferredMaintenanceWindow),
			CacheSubnetGroupName:       optional(subnetGroupName(c)),
			CacheParameterGroupName:    optional(s.ParameterGroupName),
			SecurityGroupIds:           s.SecurityGroupIDs,
			Tags:                       ectags.List(req.Tags),
		})
	}
	switch code := awserr.Code(err); {
	case err == nil:
	case code == "CacheSubnetGroupNotFoundFault":
		return &managed.WaitingError{Reason: condition.ReasonGroupNotFound, After: groupRetry,
			Message: fmt.Sprintf("cache subnet group %q does not exist in AWS; create it or change spec.subnetGroupName (%s)", subnetGroupName(c), awserr.Describe(err))}
	case code == "CacheParameterGroupNotFound":
		return &managed.WaitingError{Reason: condition.ReasonGroupNotFound, After: groupRetry,
			Message: fmt.Sprintf("cache parameter group %q does not exist in AWS; create it or change spec.parameterGroupName (%s)", s.ParameterGroupName, awserr.Describe(err))}
	case code == "CacheClusterAlreadyExists" || code == "ReplicationGroupAlreadyExists":
		return managed.Waiting(condition.ReasonIdentifierTaken,
			"an ElastiCache cluster named %s appeared in AWS while this one was being created; checking whether it belongs to this object", id)
	default:
		return fmt.Errorf("create ElastiCache %s %s: %w", s.Mode(), id, err)
	}
	managed.SetExternalName(c, id)
	// status.clusterID set marks the cluster as made: subnetGroupName is fixed from now on.
	c.Status.ClusterID, c.Status.Mode = id, s.Mode()
	if tok != nil {
		c.Status.AuthTokenHash = tok.hash
	}
	return nil
}

// optional returns s for a request, or nil when the spec leaves it empty (AWS's default).
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}
