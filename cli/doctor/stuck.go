package doctor

import (
	"context"
	"fmt"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/duration"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/cli/internal/kube"
)

// checkStuck reports the managed objects of the checked families (in the checked namespace)
// that have been deleting for longer than StuckAfter, or are Stalled; served names the CRDs
// the cluster serves (the others are reported by the CRD check).
func (k *cluster) checkStuck(ctx context.Context, served map[string]bool) []Row {
	now := time.Now()
	var rows []Row
	objects, kinds := 0, 0
	for _, f := range k.fams {
		for _, crd := range f.crds {
			if !served[crd.Name] {
				continue
			}
			list := &unstructured.UnstructuredList{}
			list.SetGroupVersionKind(schema.GroupVersionKind{Group: crd.Spec.Group, Version: storageVersion(crd.Spec.Versions), Kind: crd.Spec.Names.ListKind})
			if err := k.c.List(ctx, list, client.InNamespace(k.opts.Namespace)); err != nil {
				rows = append(rows, cannotCheck(CheckStuck, crd.Spec.Names.Kind, "list "+crd.Spec.Names.Plural, err))
				continue
			}
			kinds++
			for i := range list.Items {
				objects++
				rows = append(rows, k.stuckRows(&list.Items[i], crd.Spec.Names.Plural, now)...)
			}
		}
	}
	if len(rows) == 0 {
		return []Row{ok(CheckStuck, "objects", fmt.Sprintf("%d objects of %d kinds: none stuck deleting or stalled", objects, kinds))}
	}
	return capped(CheckStuck, "objects", "infractl status -A lists every object with the reason it is not Ready", rows)
}

// stuckRows are the rows of one object: stuck deleting (a warning: the operator keeps trying)
// and Stalled (a failure: nothing happens until its spec changes).
func (k *cluster) stuckRows(u *unstructured.Unstructured, plural string, now time.Time) []Row {
	st := kube.StateOf(u, now)
	object := u.GetKind() + " " + client.ObjectKeyFromObject(u).String()
	kubectl := "kubectl"
	if ns := u.GetNamespace(); ns != "" {
		kubectl += " -n " + ns
	}
	var rows []Row
	if ts := u.GetDeletionTimestamp(); ts != nil && now.Sub(ts.Time) > k.opts.StuckAfter {
		detail := fmt.Sprintf("deleting for %s, held by finalizer %s", duration.HumanDuration(now.Sub(ts.Time)), strings.Join(u.GetFinalizers(), ", "))
		if st.Reason != "" {
			detail += "; " + st.Reason
		}
		rows = append(rows, warn(CheckStuck, object, detail, fmt.Sprintf(
			"%s describe %s %s: the operator retries the AWS delete until it succeeds (a dependency, a permission, a deletion protection); "+
				"only if the AWS resource is gone or is to be kept: %s patch %s %s --type=merge -p '{\"metadata\":{\"finalizers\":null}}'",
			kubectl, plural, u.GetName(), kubectl, plural, u.GetName())))
	}
	if st.Stalled {
		rows = append(rows, fail(CheckStuck, object, "Stalled: "+st.Reason, fmt.Sprintf(
			"change the spec as the message says (%s edit %s %s); the operator tries again when the spec changes", kubectl, plural, u.GetName())))
	}
	return rows
}

// storageVersion returns the name of the version the CRD stores, else its first.
func storageVersion(versions []apiextensionsv1.CustomResourceDefinitionVersion) string {
	for _, v := range versions {
		if v.Storage {
			return v.Name
		}
	}
	return versions[0].Name
}
