package elasticachecluster

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/caching/internal/ectags"
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

// subnetGroupCompanion returns the subnet group the operator owns for cluster c, named name,
// made with c's subnets and tagged with tags (ownership included).
func (d *driver) subnetGroupCompanion(c *v1alpha1.ElastiCacheCluster, name string, tags map[string]string) managed.Companion {
	return managed.Companion{Kind: "cache subnet group", Name: name, Instead: "spec.subnetGroupName", Taken: "CacheSubnetGroupAlreadyExists",
		Create: func(ctx context.Context) error {
			_, err := d.api.CreateCacheSubnetGroup(ctx, &elasticache.CreateCacheSubnetGroupInput{CacheSubnetGroupName: aws.String(name),
				CacheSubnetGroupDescription: aws.String(fmt.Sprintf("Subnets of ElastiCache cluster %s (infra-operator ElastiCacheCluster %s/%s)", name, c.Namespace, c.Name)),
				SubnetIds:                   c.Spec.SubnetIDs, Tags: ectags.List(tags)})
			return err
		},
		Tags: func(ctx context.Context) (map[string]string, error) {
			g, err := d.subnetGroup(ctx, name)
			if err != nil || g == nil {
				return nil, err
			}
			return ectags.Read(ctx, d.api, aws.ToString(g.ARN))
		},
	}
}

// ensureSubnetGroup makes the subnet group the operator owns for the cluster, tagged with tags
// (ownership included), when the spec asks for one (see managed.Companion.Ensure).
func (d *driver) ensureSubnetGroup(ctx context.Context, c *v1alpha1.ElastiCacheCluster, tags map[string]string) error {
	if !owned(&c.Spec) {
		return nil
	}
	return d.subnetGroupCompanion(c, identifier(c), tags).Ensure(ctx, c)
}

// planSubnetGroup plans the changes that bring the owned subnet group in line with the spec:
// its subnets to spec.subnetIDs, its tags to desired (the cluster's, ownership included). It
// returns a terminal error, and plans nothing, when the group of its name is not this object's.
func (d *driver) planSubnetGroup(ctx context.Context, changes *managed.Plan, c *v1alpha1.ElastiCacheCluster, g *types.CacheSubnetGroup, desired map[string]string) error {
	if g == nil || !owned(&c.Spec) {
		return nil
	}
	arn := aws.ToString(g.ARN)
	tags, err := ectags.Read(ctx, d.api, arn)
	if err != nil {
		return err
	}
	companion := d.subnetGroupCompanion(c, aws.ToString(g.CacheSubnetGroupName), desired)
	if err := companion.Check(c, tags); err != nil {
		return err
	}
	var have []string
	for _, s := range g.Subnets {
		have = append(have, aws.ToString(s.SubnetIdentifier))
	}
	companion.PlanMembers(changes, "subnetIDs", have, c.Spec.SubnetIDs, func(ctx context.Context) error {
		_, err := d.api.ModifyCacheSubnetGroup(ctx, &elasticache.ModifyCacheSubnetGroupInput{CacheSubnetGroupName: aws.String(companion.Name), SubnetIds: c.Spec.SubnetIDs})
		return err
	})
	ectags.Plan(changes, d.api, arn, desired, tags)
	return nil
}
