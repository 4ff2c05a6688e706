package doctor

import (
	"context"
	"fmt"
	"slices"
	"sync"

	authorizationv1 "k8s.io/api/authorization/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// reviewWorkers is how many SubjectAccessReviews are in flight at once.
const reviewWorkers = 8

// permission is one thing an operator must be allowed to do.
type permission struct {
	group, resource, subresource, verb string
	// namespace is where; empty means every namespace.
	namespace string
}

func (p permission) String() string {
	r := p.resource
	if p.subresource != "" {
		r += "/" + p.subresource
	}
	if p.group != "" {
		r += "." + p.group
	}
	where := "in every namespace"
	if p.namespace != "" {
		where = "in namespace " + p.namespace
	}
	return fmt.Sprintf("%s %s %s", p.verb, r, where)
}

// checkRBAC asks the API server, with SubjectAccessReviews, whether each Deployment's
// ServiceAccount may do what its operator does: one fail row per missing permission, or one ok
// row per Deployment.
func (k *cluster) checkRBAC(ctx context.Context, deps []deployment) []Row {
	var rows []Row
	for _, d := range deps {
		sa := d.obj.Namespace + "/" + d.serviceAccount()
		perms := permissions(d, append(slices.Clone(k.shared), k.familyCRDs(d.family)...))
		denied, err := k.denied(ctx, d, perms)
		if err != nil {
			rows = append(rows, cannotCheck(CheckRBAC, sa, "create SubjectAccessReviews", err))
			continue
		}
		if len(denied) == 0 {
			rows = append(rows, ok(CheckRBAC, sa, fmt.Sprintf("the %s operator may do all %d things it does", d.family, len(perms))))
			continue
		}
		var missing []Row
		for _, p := range denied {
			missing = append(missing, fail(CheckRBAC, sa, "may not "+p.String(), rbacFix(d, p)))
		}
		rows = append(rows, capped(CheckRBAC, "missing permissions", upgradeFix(d, "rbac.create=true"), missing)...)
	}
	return rows
}

// familyCRDs returns the embedded CRDs of the family called name.
func (k *cluster) familyCRDs(name string) []*apiextensionsv1.CustomResourceDefinition {
	for _, f := range k.fams {
		if f.name == name {
			return f.crds
		}
	}
	return nil
}

// rbacFix says how the chart grants p.
func rbacFix(d deployment, p permission) string {
	switch {
	case p.resource == "secrets" && p.namespace != "":
		return fmt.Sprintf("the chart's Role and RoleBinding in %s grant it (watchNamespaces; the namespace must exist before the install): %s",
			p.namespace, upgradeFix(d, "rbac.create=true"))
	case p.resource == "leases":
		return fmt.Sprintf("the chart's leader-election Role in %s grants it: %s", p.namespace, upgradeFix(d, "rbac.create=true"))
	default:
		return "the chart's ClusterRole and ClusterRoleBinding grant it: " + upgradeFix(d, "rbac.create=true")
	}
}

// permissions lists what the operator of d does with the kinds of defs (AWSProviders,
// ClusterAWSProviders and the family's kinds; Previews have rules of their own), events,
// Secrets in the namespaces it watches, and its leader election Lease.
func permissions(d deployment, defs []*apiextensionsv1.CustomResourceDefinition) []permission {
	var out []permission
	for _, crd := range defs {
		if crd.Spec.Names.Kind == "Preview" {
			continue
		}
		for _, verb := range []string{"get", "list", "watch", "update", "patch"} {
			out = append(out, permission{group: crd.Spec.Group, resource: crd.Spec.Names.Plural, verb: verb})
		}
		for _, verb := range []string{"get", "update", "patch"} {
			out = append(out, permission{group: crd.Spec.Group, resource: crd.Spec.Names.Plural, subresource: "status", verb: verb})
		}
	}
	for _, group := range []string{"", "events.k8s.io"} {
		out = append(out, permission{group: group, resource: "events", verb: "create"})
	}
	watched := d.opts.Namespaces
	if len(watched) == 0 {
		watched = []string{""}
	}
	for _, ns := range watched {
		for _, verb := range []string{"get", "list", "watch"} {
			out = append(out, permission{resource: "secrets", verb: verb, namespace: ns})
		}
	}
	if d.opts.LeaderElect {
		ns := d.opts.LeaderElectionNamespace
		if ns == "" {
			ns = d.obj.Namespace
		}
		for _, verb := range []string{"get", "create", "update"} {
			out = append(out, permission{group: "coordination.k8s.io", resource: "leases", verb: verb, namespace: ns})
		}
	}
	return out
}

// denied returns the permissions of perms that d's ServiceAccount lacks, in order, asking
// reviewWorkers SubjectAccessReviews at a time.
func (k *cluster) denied(ctx context.Context, d deployment, perms []permission) ([]permission, error) {
	user := fmt.Sprintf("system:serviceaccount:%s:%s", d.obj.Namespace, d.serviceAccount())
	groups := []string{"system:serviceaccounts", "system:serviceaccounts:" + d.obj.Namespace, "system:authenticated"}
	allowed := make([]bool, len(perms))
	errs := make([]error, len(perms))
	next := make(chan int)
	var wg sync.WaitGroup
	for range reviewWorkers {
		wg.Go(func() {
			for i := range next {
				p := perms[i]
				sar := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
					User: user, Groups: groups,
					ResourceAttributes: &authorizationv1.ResourceAttributes{Namespace: p.namespace, Verb: p.verb,
						Group: p.group, Resource: p.resource, Subresource: p.subresource},
				}}
				if errs[i] = k.c.Create(ctx, sar); errs[i] == nil {
					allowed[i] = sar.Status.Allowed
				}
			}
		})
	}
	for i := range perms {
		next <- i
	}
	close(next)
	wg.Wait()
	var out []permission
	for i, p := range perms {
		if errs[i] != nil {
			return nil, fmt.Errorf("review %s: %w", p, errs[i])
		}
		if !allowed[i] {
			out = append(out, p)
		}
	}
	return out, nil
}
