package doctor

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/operator"
)

// The labels the family charts put on every object (charts/internal/chartgen/skeleton's
// _helpers.tpl): part-of is infra-operator, component is <family>-operator.
const (
	labelPartOf    = "app.kubernetes.io/part-of"
	labelComponent = "app.kubernetes.io/component"
	partOf         = "infra-operator"
)

// deployment is a family's operator Deployment and the operator options its arguments set.
type deployment struct {
	family string
	obj    *appsv1.Deployment
	// opts are the operator's options, parsed from the operator container's arguments with
	// the operator's own flags; optsErr says why they could not be.
	opts    operator.Options
	optsErr error
}

// name is the Deployment as namespace/name.
func (d deployment) name() string { return d.obj.Namespace + "/" + d.obj.Name }

// serviceAccount is the name of the ServiceAccount the Deployment's pods run as.
func (d deployment) serviceAccount() string {
	if sa := d.obj.Spec.Template.Spec.ServiceAccountName; sa != "" {
		return sa
	}
	return "default"
}

// findDeployments finds each family's Deployments by the chart's labels and checks that each
// has an available replica.
func (k *cluster) findDeployments(ctx context.Context) ([]Row, []deployment) {
	var rows []Row
	var found []deployment
	for _, f := range k.fams {
		object := f.name + "-operator"
		list := &appsv1.DeploymentList{}
		err := k.c.List(ctx, list, client.InNamespace(k.opts.OperatorNamespace),
			client.MatchingLabels{labelPartOf: partOf, labelComponent: object})
		if err != nil {
			rows = append(rows, cannotCheck(CheckDeployment, object, "list Deployments", err))
			continue
		}
		if len(list.Items) == 0 {
			rows = append(rows, fail(CheckDeployment, object, fmt.Sprintf("no Deployment labelled %s=%s, %s=%s: the %s operator is not installed",
				labelPartOf, partOf, labelComponent, object, f.name), installFix(f.name, k.opts.OperatorNamespace)))
			continue
		}
		for i := range list.Items {
			d := deployment{family: f.name, obj: &list.Items[i]}
			d.opts, d.optsErr = operatorOptions(d.obj)
			found = append(found, d)
			rows = append(rows, availability(d))
		}
	}
	return rows, found
}

// availability is the row of a Deployment: ok when a replica is available and the Available
// condition is True.
func availability(d deployment) Row {
	st := d.obj.Status
	want := int32(1)
	if d.obj.Spec.Replicas != nil {
		want = *d.obj.Spec.Replicas
	}
	detail := fmt.Sprintf("%d of %d replicas available", st.AvailableReplicas, want)
	var available *appsv1.DeploymentCondition
	for i := range st.Conditions {
		if st.Conditions[i].Type == appsv1.DeploymentAvailable {
			available = &st.Conditions[i]
		}
	}
	if st.AvailableReplicas >= 1 && available != nil && available.Status == corev1.ConditionTrue {
		return ok(CheckDeployment, d.name(), detail)
	}
	if available != nil && available.Message != "" {
		detail += "; " + available.Reason + ": " + available.Message
	}
	return fail(CheckDeployment, d.name(), detail,
		fmt.Sprintf("kubectl -n %s describe deployment %s; kubectl -n %s logs deploy/%s (image pull, crash loop, probes, quota)",
			d.obj.Namespace, d.obj.Name, d.obj.Namespace, d.obj.Name))
}

// operatorOptions parses the arguments of the Deployment's operator container (the one named
// "operator", else the first), as the chart writes them, with the operator's own flags and
// defaults.
func operatorOptions(dep *appsv1.Deployment) (operator.Options, error) {
	opts := operator.DefaultOptions()
	containers := dep.Spec.Template.Spec.Containers
	if len(containers) == 0 {
		return opts, fmt.Errorf("deployment %s/%s has no container", dep.Namespace, dep.Name)
	}
	c := containers[0]
	for _, cand := range containers {
		if cand.Name == "operator" {
			c = cand
		}
	}
	fs := pflag.NewFlagSet(dep.Name, pflag.ContinueOnError)
	fs.ParseErrorsAllowlist.UnknownFlags = true
	opts.AddFlags(fs)
	if err := fs.Parse(c.Args); err != nil {
		return opts, fmt.Errorf("parse the arguments of container %s: %w", c.Name, err)
	}
	return opts, nil
}
