package doctor

import (
	"fmt"
	"slices"
	"strings"
)

// openSetting is a tenancy setting (chart value) left open to every namespace or every role.
type openSetting struct {
	// value is the chart value, as helm --set names it.
	value string
	// detail says what the setting allows as it is.
	detail string
	// set is a narrower value, in helm --set syntax.
	set string
}

// checkTenancy reports, for each Deployment, the tenancy settings its operator runs with that
// leave "*": read from the operator's arguments, which the chart writes from its tenancy and
// guardrails values.
func checkTenancy(deps []deployment) []Row {
	var rows []Row
	for _, d := range deps {
		if d.optsErr != nil {
			rows = append(rows, warn(CheckTenancy, d.name(), "cannot read its settings: "+d.optsErr.Error(),
				"kubectl -n "+d.obj.Namespace+" get deployment "+d.obj.Name+" -o yaml"))
			continue
		}
		open := openSettings(d)
		if len(open) == 0 {
			rows = append(rows, ok(CheckTenancy, d.name(), "no tenancy setting left open to every namespace"))
			continue
		}
		for _, s := range open {
			rows = append(rows, warn(CheckTenancy, d.name(), s.value+": "+s.detail, upgradeFix(d, s.set)))
		}
	}
	return rows
}

// openSettings returns the settings of d's operator that allow any namespace, any role or any
// host.
func openSettings(d deployment) []openSetting {
	o := d.opts
	var out []openSetting
	if slices.Contains(o.OperatorIdentityNamespaces, "*") {
		out = append(out, openSetting{"tenancy.operatorIdentityNamespaces", `"*": every namespace's AWSProviders may use the operator's own AWS identity`,
			"tenancy.operatorIdentityNamespaces={platform}"})
	}
	const roleRule = "tenancy.assumeRolePolicy[0].namespace=team-a,tenancy.assumeRolePolicy[0].roleARNPattern=arn:aws:iam::123456789012:role/team-a-*"
	if len(o.AssumeRolePolicy) == 0 {
		out = append(out, openSetting{"tenancy.assumeRolePolicy", "empty: every namespace's AWSProviders may assume any role (spec.roleARN)", roleRule})
	} else if rules := anyValue(o.AssumeRolePolicy); len(rules) > 0 {
		out = append(out, openSetting{"tenancy.assumeRolePolicy", fmt.Sprintf(`roleARNPattern "*" for %s: those namespaces may assume any role`, strings.Join(rules, ", ")), roleRule})
	}
	for _, s := range []struct {
		value, allows string
		namespaces    []string
	}{
		{"tenancy.adoptionNamespaces", "every namespace may adopt AWS resources made outside the operator", o.AdoptionNamespaces},
		{"tenancy.takeoverNamespaces", "every namespace may take over resources other namespaces own", o.TakeoverNamespaces},
		{"tenancy.foreignWriteNamespaces", "every namespace may write statements into resources it does not own", o.ForeignWriteNamespaces},
	} {
		if slices.Contains(s.namespaces, "*") {
			out = append(out, openSetting{s.value, `"*": ` + s.allows, s.value + "={platform}"})
		}
	}
	if rules := anyValue(o.InClusterEndpoints); len(rules) > 0 {
		out = append(out, openSetting{"tenancy.inClusterEndpoints", fmt.Sprintf(`hostPattern "*" for %s: those namespaces may send requests to any in-cluster host`, strings.Join(rules, ", ")),
			"tenancy.inClusterEndpoints[0].namespace=dev,tenancy.inClusterEndpoints[0].hostPattern=localstack"})
	}
	if len(o.PassableRoles) == 0 {
		out = append(out, openSetting{"guardrails.passableRoles", "empty: objects may pass any role of their provider's account to a service",
			"guardrails.passableRoles[0].namespace=team-a,guardrails.passableRoles[0].roleARNPattern=arn:aws:iam::123456789012:role/team-a-*"})
	}
	if rules := anyValue(o.IAMTrustedAccounts); len(rules) > 0 {
		out = append(out, openSetting{"guardrails.iam.trustedAccounts", fmt.Sprintf(`accountID "*" for %s: their roles may trust any principal`, strings.Join(rules, ", ")),
			"guardrails.iam.trustedAccounts[0].namespace=team-a,guardrails.iam.trustedAccounts[0].accountID=123456789012"})
	}
	return out
}

// anyValue returns the namespaces of the NAMESPACE=VALUE rules whose value is "*".
func anyValue(rules []string) []string {
	var out []string
	for _, r := range rules {
		if ns, v, found := strings.Cut(r, "="); found && v == "*" {
			out = append(out, ns)
		}
	}
	return out
}
