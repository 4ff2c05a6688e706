package doctor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
)

// checkCRDs compares each shared CRD and each family's CRDs in the cluster with the ones this
// infractl embeds: installed, Established, and serving the same versions with the same schemas.
// It returns the rows and the names of the CRDs the cluster serves.
func (k *cluster) checkCRDs(ctx context.Context) ([]Row, map[string]bool) {
	served := map[string]bool{}
	var rows []Row
	check := func(want *apiextensionsv1.CustomResourceDefinition, fam, dir string) {
		row, ok := k.checkCRD(ctx, want, fam, dir)
		served[want.Name] = ok
		rows = append(rows, row)
	}
	// The shared CRDs come with every family's chart; the first chosen family's fix installs them.
	first := "networking"
	if len(k.fams) > 0 {
		first = k.fams[0].name
	}
	for _, want := range k.shared {
		check(want, first, "shared/crds")
	}
	for _, f := range k.fams {
		for _, want := range f.crds {
			check(want, f.name, "operators/"+f.name+"/crds")
		}
	}
	return rows, served
}

// checkCRD checks one CRD, whose manifest is in dir of the repository at this version and
// which fam's chart installs, and reports whether the cluster serves it.
func (k *cluster) checkCRD(ctx context.Context, want *apiextensionsv1.CustomResourceDefinition, fam, dir string) (Row, bool) {
	fix := fmt.Sprintf("%s (or, from a checkout of this version: kubectl apply --server-side --force-conflicts -f %s/%s_%s.yaml)",
		installFix(fam, k.opts.OperatorNamespace), dir, want.Spec.Group, want.Spec.Names.Plural)
	got := &apiextensionsv1.CustomResourceDefinition{}
	if err := k.c.Get(ctx, types.NamespacedName{Name: want.Name}, got); err != nil {
		if apierrors.IsNotFound(err) {
			return fail(CheckCRD, want.Name, "not installed: "+want.Spec.Names.Kind+" objects cannot be created", fix), false
		}
		return cannotCheck(CheckCRD, want.Name, "get CustomResourceDefinitions", err), false
	}
	if !established(got) {
		return fail(CheckCRD, want.Name, "not Established: the API server does not serve it (kubectl describe crd "+want.Name+")", fix), false
	}
	if w, g := servedVersions(want), servedVersions(got); !slices.Equal(w, g) {
		return fail(CheckCRD, want.Name, fmt.Sprintf("not at this version: serves %s, this infractl's charts serve %s",
			strings.Join(g, ","), strings.Join(w, ",")), fix), true
	}
	if w, g := fingerprint(want), fingerprint(got); w != g {
		return fail(CheckCRD, want.Name, fmt.Sprintf("not at this version: its schema differs from this infractl's charts (spec hash %s, want %s)", g, w), fix), true
	}
	return ok(CheckCRD, want.Name, "installed, Established, at this version ("+strings.Join(servedVersions(want), ",")+")"), true
}

// established reports whether the CRD's Established condition is True.
func established(crd *apiextensionsv1.CustomResourceDefinition) bool {
	for _, c := range crd.Status.Conditions {
		if c.Type == apiextensionsv1.Established {
			return c.Status == apiextensionsv1.ConditionTrue
		}
	}
	return false
}

// servedVersions returns the names of the versions the CRD serves, sorted.
func servedVersions(crd *apiextensionsv1.CustomResourceDefinition) []string {
	var out []string
	for _, v := range crd.Spec.Versions {
		if v.Served {
			out = append(out, v.Name)
		}
	}
	slices.Sort(out)
	return out
}

// fingerprint is a short hash of what makes a CRD's API: its names, scope, and each version's
// flags, schema, subresources and printer columns. Fields the API server fills in (conversion
// defaults, status) are left out, so that a CRD applied from the embedded manifest matches it.
func fingerprint(crd *apiextensionsv1.CustomResourceDefinition) string {
	type version struct {
		Name             string
		Served, Storage  bool
		Schema           *apiextensionsv1.CustomResourceValidation
		Subresources     *apiextensionsv1.CustomResourceSubresources
		PrinterColumns   []apiextensionsv1.CustomResourceColumnDefinition
		SelectableFields []apiextensionsv1.SelectableField
	}
	api := struct {
		Kind, Plural string
		Scope        apiextensionsv1.ResourceScope
		Versions     []version
	}{Kind: crd.Spec.Names.Kind, Plural: crd.Spec.Names.Plural, Scope: crd.Spec.Scope}
	for _, v := range crd.Spec.Versions {
		api.Versions = append(api.Versions, version{Name: v.Name, Served: v.Served, Storage: v.Storage, Schema: v.Schema,
			Subresources: v.Subresources, PrinterColumns: v.AdditionalPrinterColumns, SelectableFields: v.SelectableFields})
	}
	b, err := json.Marshal(api)
	if err != nil {
		// The types above always marshal; a failure would be a bug worth seeing in the row.
		return "unhashable: " + err.Error()
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6])
}
