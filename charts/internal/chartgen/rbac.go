package chartgen

import (
	"fmt"
	"slices"

	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"
)

// roleRules are the rules of a family's generated ClusterRole, split by where the chart grants
// them; each is a YAML list.
type roleRules struct {
	// Cluster are granted cluster-wide by the ClusterRole.
	Cluster string
	// Secrets are the rules on core Secrets and ConfigMaps (the providers' keys, RDS passwords,
	// Lambda packages, and the outputs spec.writeOutputsTo names): granted by the ClusterRole
	// when the operator watches every namespace, otherwise by a Role in each watched namespace.
	Secrets string
	// Lease is the leader election Lease rule, granted only in the Lease's namespace.
	Lease string
}

// namespacedData are the core resources that hold a namespace's data, which an operator
// restricted to some namespaces may use in those alone.
var namespacedData = []string{"configmaps", "secrets"}

// splitRules splits a generated ClusterRole into the rules the chart grants cluster-wide, the
// rules on core Secrets and ConfigMaps and the leader election Lease rule.
func splitRules(role []byte) (roleRules, error) {
	var r rbacv1.ClusterRole
	if err := yaml.UnmarshalStrict(role, &r); err != nil {
		return roleRules{}, fmt.Errorf("decode the ClusterRole: %w", err)
	}
	var cluster, secrets, lease []rbacv1.PolicyRule
	for _, rule := range r.Rules {
		switch {
		case slices.Equal(rule.APIGroups, []string{"coordination.k8s.io"}) && slices.Equal(rule.Resources, []string{"leases"}):
			lease = append(lease, rule)
		case slices.Contains(rule.APIGroups, "") && slices.ContainsFunc(rule.Resources, isNamespacedData):
			s, rest := splitNamespaced(rule)
			secrets = append(secrets, s)
			cluster = append(cluster, rest...)
		default:
			cluster = append(cluster, rule)
		}
	}
	if len(lease) == 0 {
		return roleRules{}, fmt.Errorf("no rule for coordination.k8s.io leases (the shared provider's markers grant it)")
	}
	if !slices.ContainsFunc(secrets, func(r rbacv1.PolicyRule) bool { return slices.Contains(r.Resources, "secrets") }) {
		return roleRules{}, fmt.Errorf("no rule for secrets (the shared provider's markers grant it)")
	}
	var out roleRules
	var err error
	if out.Cluster, err = encodeRules("cluster", cluster); err != nil {
		return roleRules{}, err
	}
	if out.Secrets, err = encodeRules("secret", secrets); err != nil {
		return roleRules{}, err
	}
	if out.Lease, err = encodeRules("lease", lease); err != nil {
		return roleRules{}, err
	}
	return out, nil
}

// isNamespacedData reports whether resource is one of namespacedData.
func isNamespacedData(resource string) bool { return slices.Contains(namespacedData, resource) }

// encodeRules returns rules as a YAML list; what names them in an error.
func encodeRules(what string, rules []rbacv1.PolicyRule) (string, error) {
	b, err := yaml.Marshal(rules)
	if err != nil {
		return "", fmt.Errorf("encode the %s rules: %w", what, err)
	}
	return string(b), nil
}

// splitNamespaced splits a rule that covers core Secrets or ConfigMaps into the rule for those
// alone and rules for the rest it covers, since controller-gen merges rules of equal verbs
// across resources and groups.
func splitNamespaced(rule rbacv1.PolicyRule) (data rbacv1.PolicyRule, rest []rbacv1.PolicyRule) {
	data = *rule.DeepCopy()
	data.APIGroups = []string{""}
	data.Resources = slices.DeleteFunc(slices.Clone(rule.Resources), func(r string) bool { return !isNamespacedData(r) })
	if others := slices.DeleteFunc(slices.Clone(rule.Resources), isNamespacedData); len(others) > 0 {
		r := *rule.DeepCopy()
		r.Resources = others
		rest = append(rest, r)
	}
	if groups := slices.DeleteFunc(slices.Clone(rule.APIGroups), func(g string) bool { return g == "" }); len(groups) > 0 {
		r := *rule.DeepCopy()
		r.APIGroups, r.Resources = groups, data.Resources
		rest = append(rest, r)
	}
	return data, rest
}
