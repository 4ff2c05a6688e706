package elasticache

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are ElastiCache's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateCacheSubnetGroup":       core.Op(b.createCacheSubnetGroup),
		"DescribeCacheSubnetGroups":    core.Op(b.describeCacheSubnetGroups),
		"ModifyCacheSubnetGroup":       core.Op(b.modifyCacheSubnetGroup),
		"DeleteCacheSubnetGroup":       core.Op(b.deleteCacheSubnetGroup),
		"CreateCacheCluster":           core.Op(b.createCacheCluster),
		"DescribeCacheClusters":        core.Op(b.describeCacheClusters),
		"ModifyCacheCluster":           core.Op(b.modifyCacheCluster),
		"DeleteCacheCluster":           core.Op(b.deleteCacheCluster),
		"CreateReplicationGroup":       core.Op(b.createReplicationGroup),
		"DescribeReplicationGroups":    core.Op(b.describeReplicationGroups),
		"ModifyReplicationGroup":       core.Op(b.modifyReplicationGroup),
		"DeleteReplicationGroup":       core.Op(b.deleteReplicationGroup),
		"IncreaseReplicaCount":         core.Op(b.increaseReplicaCount),
		"DecreaseReplicaCount":         core.Op(b.decreaseReplicaCount),
		"CreateSnapshot":               core.Op(b.createSnapshot),
		"DescribeSnapshots":            core.Op(b.describeSnapshots),
		"DeleteSnapshot":               core.Op(b.deleteSnapshot),
		"CreateCacheParameterGroup":    core.Op(b.createCacheParameterGroup),
		"DescribeCacheParameterGroups": core.Op(b.describeCacheParameterGroups),
		"ModifyCacheParameterGroup":    core.Op(b.modifyCacheParameterGroup),
		"ResetCacheParameterGroup":     core.Op(b.resetCacheParameterGroup),
		"DeleteCacheParameterGroup":    core.Op(b.deleteCacheParameterGroup),
		"DescribeCacheParameters":      core.Op(b.describeCacheParameters),
		"RebootCacheCluster":           core.Op(b.rebootCacheCluster),
		"AddTagsToResource":            core.Op(b.addTagsToResource),
		"RemoveTagsFromResource":       core.Op(b.removeTagsFromResource),
	}
}
