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
	// Secrets are the reads of Secrets: granted by the ClusterRole when the operator watches
	// every namespace, otherwise by a Role in each watched namespace.
	Secrets string
	// Lease is the leader election Lease rule, granted only in the Lease's namespace.
	Lease string
}

// splitRules splits a generated ClusterRole into the rules the chart grants cluster-wide, the
// rules on core Secrets and the leader election Lease rule.
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
		case slices.Contains(rule.APIGroups, "") && slices.Contains(rule.Resources, "secrets"):
			s, rest := splitSecrets(rule)
			secrets = append(secrets, s)
			cluster = append(cluster, rest...)
		default:
			cluster = append(cluster, rule)
		}
	}
	if len(lease) == 0 {
		return roleRules{}, fmt.Errorf("no rule for coordination.k8s.io leases (the shared provider's markers grant it)")
	}
	if len(secrets) == 0 {
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

// encodeRules returns rules as a YAML list; what names them in an error.
func encodeRules(what string, rules []rbacv1.PolicyRule) (string, error) {
	b, err := yaml.Marshal(rules)
	if err != nil {
		return "", fmt.Errorf("encode the %s rules: %w", what, err)
	}
	return string(b), nil
}

// splitSecrets splits a rule that covers core Secrets into the rule for Secrets alone and rules
// for the rest it covers, since controller-gen merges rules of equal verbs across resources and
// groups.
func splitSecrets(rule rbacv1.PolicyRule) (secrets rbacv1.PolicyRule, rest []rbacv1.PolicyRule) {
	secrets = *rule.DeepCopy()
	secrets.APIGroups, secrets.Resources = []string{""}, []string{"secrets"}
	if others := slices.DeleteFunc(slices.Clone(rule.Resources), func(r string) bool { return r == "secrets" }); len(others) > 0 {
		r := *rule.DeepCopy()
		r.Resources = others
		rest = append(rest, r)
	}
	if groups := slices.DeleteFunc(slices.Clone(rule.APIGroups), func(g string) bool { return g == "" }); len(groups) > 0 {
		r := *rule.DeepCopy()
		r.APIGroups, r.Resources = groups, []string{"secrets"}
		rest = append(rest, r)
	}
	return secrets, rest
}
