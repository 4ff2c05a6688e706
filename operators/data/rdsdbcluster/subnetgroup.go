package rdsdbcluster

import (
	"fmt"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdssubnetgroup"
)

// ownsSubnetGroup reports whether the operator makes the cluster's DB subnet group: the spec
// gives subnets (subnetIDs or subnetRefs) and no dbSubnetGroupName.
func ownsSubnetGroup(s *v1alpha1.RDSDBClusterSpec) bool {
	return s.DBSubnetGroupName == "" && (len(s.SubnetIDs) > 0 || len(s.SubnetRefs) > 0)
}

// subnetGroupName returns the DB subnet group the cluster is placed in: the spec's, the one
// the operator makes (named after the cluster), or "" for the default VPC.
func subnetGroupName(c *v1alpha1.RDSDBCluster) string {
	if ownsSubnetGroup(&c.Spec) {
		return identifier(c)
	}
	return c.Spec.DBSubnetGroupName
}

// subnetGroup returns the DB subnet group the operator owns for c (see rdssubnetgroup).
func (d *driver) subnetGroup(c *v1alpha1.RDSDBCluster) rdssubnetgroup.Group {
	name := identifier(c)
	return rdssubnetgroup.Group{API: d.api, Object: c, Name: name, SubnetIDs: c.Spec.SubnetIDs,
		Description: fmt.Sprintf("Subnets of DB cluster %s (infra-operator RDSDBCluster %s/%s)", name, c.Namespace, c.Name)}
}
