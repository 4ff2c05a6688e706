package elasticachecluster

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// owned reports whether the operator makes the cluster's subnet group: the spec gives subnets
// (subnetIDs or subnetRefs) and no subnetGroupName.
func owned(s *v1alpha1.ElastiCacheClusterSpec) bool {
	return s.SubnetGroupName == "" && (len(s.SubnetIDs) > 0 || len(s.SubnetRefs) > 0)
}

// subnetGroupName returns the subnet group the cluster is placed in: the spec's, the one the
// operator makes (named after the cluster), or "" for AWS's default.
func subnetGroupName(c *v1alpha1.ElastiCacheCluster) string {
	if owned(&c.Spec) {
		return identifier(c)
	}
	return c.Spec.SubnetGroupName
}

// subnetGroup returns cache subnet group name, nil when it does not exist.
func (d *driver) subnetGroup(ctx context.Context, name string) (*types.CacheSubnetGroup, error) {
	out, err := d.api.DescribeCacheSubnetGroups(ctx, &elasticache.DescribeCacheSubnetGroupsInput{CacheSubnetGroupName: aws.String(name)})
	if awserr.IsNotFound(err) || (err == nil && len(out.CacheSubnetGroups) == 0) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("describe cache subnet group %s: %w", name, err)
	}
	return &out.CacheSubnetGroups[0], nil
}

// ensureSubnetGroup makes the subnet group the operator owns for the cluster, tagged with
// tags (ownership included), when the spec asks for one. A group of the name already there is
// used when this object owns it (a create interrupted after the group was made), and refused
// otherwise.
func (d *driver) ensureSubnetGroup(ctx context.Context, c *v1alpha1.ElastiCacheCluster, name string, tags map[string]string) error {
	if !owned(&c.Spec) {
		return nil
	}
	_, err := d.api.CreateCacheSubnetGroup(ctx, &elasticache.CreateCacheSubnetGroupInput{CacheSubnetGroupName: aws.String(name),
		CacheSubnetGroupDescription: aws.String(fmt.Sprintf("Subnets of ElastiCache cluster %s (infra-operator ElastiCacheCluster %s/%s)", name, c.Namespace, c.Name)),
		SubnetIds:                   c.Spec.SubnetIDs, Tags: elasticacheTags(tags)})
	if err == nil {
		return nil
	}
	if awserr.Code(err) != "CacheSubnetGroupAlreadyExists" {
		return fmt.Errorf("create cache subnet group %s: %w", name, err)
	}
	g, err := d.subnetGroup(ctx, name)
	if err != nil || g == nil {
		return err
	}
	have, err := d.tags(ctx, aws.ToString(g.ARN))
	if err != nil {
		return err
	}
	if !managed.OwnedBy(c, have) {
		return managed.Terminal(condition.ReasonAlreadyExists, "a cache subnet group named %s, which this object did not make, already exists; "+
			"set spec.subnetGroupName to %s to use it, or delete it", name, name)
	}
	return nil
}

// planSubnetGroup plans the change of the owned subnet group's subnets to the spec's.
func (d *driver) planSubnetGroup(changes *managed.Plan, c *v1alpha1.ElastiCacheCluster, g *types.CacheSubnetGroup) {
	if g == nil || !owned(&c.Spec) {
		return
	}
	var have []string
	for _, s := range g.Subnets {
		have = append(have, aws.ToString(s.SubnetIdentifier))
	}
	if managed.SameSet(have, c.Spec.SubnetIDs) {
		return
	}
	name := aws.ToString(g.CacheSubnetGroupName)
	changes.Add("subnetIDs", func(ctx context.Context) error {
		_, err := d.api.ModifyCacheSubnetGroup(ctx, &elasticache.ModifyCacheSubnetGroupInput{CacheSubnetGroupName: aws.String(name), SubnetIds: c.Spec.SubnetIDs})
		return managed.Wrap(err, "change the subnets of cache subnet group %s", name)
	})
}
