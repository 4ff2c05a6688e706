package doctor

import "fmt"

// installFix is the command that installs or upgrades fam's chart (its CRDs, Deployment and
// RBAC) as infractl install names its release, in namespace ns (empty: infractl install's
// default).
func installFix(fam, ns string) string {
	if ns == "" {
		ns = "infra-operator"
	}
	return fmt.Sprintf("infractl install --families %s -n %s", fam, ns)
}

// upgradeFix is the command that upgrades the release of d with the chart value set changed
// (in helm --set syntax, for example rbac.create=true): infractl install for the releases it
// names, helm upgrade for others (the release is the Deployment's app.kubernetes.io/instance
// label; in the umbrella chart the value is under the family's key).
func upgradeFix(d deployment, set string) string {
	release := d.obj.Labels["app.kubernetes.io/instance"]
	if release == "" || release == "infra-operator-"+d.family {
		return fmt.Sprintf("%s --values FILE (FILE setting %s)", installFix(d.family, d.obj.Namespace), set)
	}
	return fmt.Sprintf("helm upgrade %s CHART -n %s --reuse-values --set %s", release, d.obj.Namespace, set)
}
