package elasticachecluster

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
)

// fillStatus copies what the status shows from AWS's description.
func fillStatus(c *v1alpha1.ElastiCacheCluster, st *State) {
	cl, s := st.Cluster, &c.Status
	s.ClusterStatus, s.ARN = st.status(), st.arn()
	s.EngineVersion, s.NodeType = aws.ToString(cl.EngineVersion), aws.ToString(cl.CacheNodeType)
	s.SubnetGroupName = aws.ToString(cl.CacheSubnetGroupName)
	s.PendingModifiedValues = pendingValues(cl.PendingModifiedValues)
	s.ParameterGroupName, s.ParameterApplyStatus = parameterGroup(cl), ""
	if g := cl.CacheParameterGroup; g != nil {
		s.ParameterApplyStatus = aws.ToString(g.ParameterApplyStatus)
	}
	if s.ParameterApplyStatus == "pending-reboot" {
		// The operator never reboots a cluster by itself: the change waits for the owner.
		s.PendingModifiedValues = append(s.PendingModifiedValues, "parameters (pending-reboot: reboot the cluster's nodes to apply them)")
	}
	s.Endpoint, s.Port, s.ReaderEndpoint, s.NodeEndpoints = "", 0, "", nil
	if g := st.Group; g != nil {
		s.ClusterID, s.Mode = aws.ToString(g.ReplicationGroupId), v1alpha1.ModeReplicationGroup
		for _, ng := range g.NodeGroups {
			if e := ng.PrimaryEndpoint; e != nil {
				s.Endpoint, s.Port = aws.ToString(e.Address), aws.ToInt32(e.Port)
			}
			if e := ng.ReaderEndpoint; e != nil {
				s.ReaderEndpoint = aws.ToString(e.Address)
			}
			for _, m := range ng.NodeGroupMembers {
				if e := m.ReadEndpoint; e != nil {
					s.NodeEndpoints = append(s.NodeEndpoints, hostPort(e))
				}
			}
		}
		return
	}
	s.ClusterID, s.Mode = aws.ToString(cl.CacheClusterId), v1alpha1.ModeCacheCluster
	for _, n := range cl.CacheNodes {
		if n.Endpoint != nil {
			s.NodeEndpoints = append(s.NodeEndpoints, hostPort(n.Endpoint))
		}
	}
	switch {
	case cl.ConfigurationEndpoint != nil:
		s.Endpoint, s.Port = aws.ToString(cl.ConfigurationEndpoint.Address), aws.ToInt32(cl.ConfigurationEndpoint.Port)
	case len(cl.CacheNodes) > 0 && cl.CacheNodes[0].Endpoint != nil:
		s.Endpoint, s.Port = aws.ToString(cl.CacheNodes[0].Endpoint.Address), aws.ToInt32(cl.CacheNodes[0].Endpoint.Port)
	}
}

// hostPort returns an endpoint as "address:port".
func hostPort(e *types.Endpoint) string {
	return fmt.Sprintf("%s:%d", aws.ToString(e.Address), aws.ToInt32(e.Port))
}

// pendingValues names the changes ElastiCache has not applied yet, as "field=value" in the
// spec's terms.
func pendingValues(p *types.PendingModifiedValues) []string {
	if p == nil {
		return nil
	}
	var out []string
	if p.CacheNodeType != nil {
		out = append(out, "nodeType="+*p.CacheNodeType)
	}
	if p.EngineVersion != nil {
		out = append(out, "engineVersion="+*p.EngineVersion)
	}
	if p.NumCacheNodes != nil {
		out = append(out, fmt.Sprintf("numCacheNodes=%d", *p.NumCacheNodes))
	}
	return out
}
