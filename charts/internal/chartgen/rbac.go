package chartgen

import (
	"fmt"
	"slices"

	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"
)

// splitRules splits a generated ClusterRole into the rules the chart grants cluster-wide and the
// leader election Lease rule, which the chart grants only in the Lease's namespace. Both are
// returned as YAML lists.
func splitRules(role []byte) (cluster, lease string, err error) {
	var r rbacv1.ClusterRole
	if err := yaml.UnmarshalStrict(role, &r); err != nil {
		return "", "", fmt.Errorf("decode the ClusterRole: %w", err)
	}
	var clusterRules, leaseRules []rbacv1.PolicyRule
	for _, rule := range r.Rules {
		if slices.Equal(rule.APIGroups, []string{"coordination.k8s.io"}) && slices.Equal(rule.Resources, []string{"leases"}) {
			leaseRules = append(leaseRules, rule)
			continue
		}
		clusterRules = append(clusterRules, rule)
	}
	if len(leaseRules) == 0 {
		return "", "", fmt.Errorf("no rule for coordination.k8s.io leases (the shared provider's markers grant it)")
	}
	c, err := yaml.Marshal(clusterRules)
	if err != nil {
		return "", "", fmt.Errorf("encode the cluster rules: %w", err)
	}
	l, err := yaml.Marshal(leaseRules)
	if err != nil {
		return "", "", fmt.Errorf("encode the lease rules: %w", err)
	}
	return string(c), string(l), nil
}
