package managed

import (
	"fmt"

	"github.com/runner-codes/infra-operator/shared/api/targets"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// Ref declares one reference field of kind O: the kind it names, and every place in a spec
// where it occurs. The engine both resolves and watches references from this one declaration.
// Build it with One, List or Each.
type Ref[O any] struct {
	// Target is the kind the field names and where that kind keeps the identifier.
	Target targets.Target
	// Created resolves a reference as soon as the target has created its AWS resource
	// (recorded its external name), without waiting for it to be Ready, for references that
	// may form cycles, such as security groups that allow each other's traffic.
	Created bool
	// Defer, when set and true for o, skips (does not wait for) a target that has not created
	// its AWS resource yet, so that objects that refer to each other can all be created; the
	// engine resolves the reference on a later pass.
	Defer func(o O) bool
	// Sites returns every occurrence of the field in o's spec.
	Sites func(o O) []Site
	// Writes says that the referring object writes into the target's AWS resource (a
	// statement in its policy, a permission to invoke it): a target with managementPolicy
	// ObserveOnly, whose resource the operator never writes to, is then waited for with
	// ReferenceObserveOnly rather than resolved. Set it with Writing.
	Writes bool
}

// Writing returns r marked as a reference that writes into its target's AWS resource (see
// Ref.Writes).
func (r Ref[O]) Writing() Ref[O] {
	r.Writes = true
	return r
}

// Site is one occurrence of a reference field in a spec.
type Site struct {
	// Field is the field's path, for messages, for example "spec.routes[1].natGatewayRef".
	Field string
	// Name is the referenced object's name, in the referring object's namespace; empty for
	// a selector.
	Name string
	// Selector selects the referenced objects by label when Name is empty.
	Selector *v1alpha1.Selector
	// Element names the element of the target's list that the site resolves to, for a target
	// with an Element (a load balancer's target group by its name).
	Element string
	// Set receives the identifiers the site resolves to: one for a name, every selected
	// object's (sorted) for a selector.
	Set func(ids []string)
}

// Slot is one optional reference and the field its identifier goes to, for Each.
type Slot struct {
	// Ref is the reference; nil when the field is not set.
	Ref *v1alpha1.Reference
	// ID receives the identifier.
	ID *string
	// Element names the element of the target's list the reference resolves to, for a target
	// with an Element.
	Element string
}

// One declares a field that holds at most one reference (field is its path, for example
// "spec.vpcRef"): at returns the reference, nil when it is not set, and the spec field its
// identifier goes to.
func One[O any](t targets.Target, field string, at func(O) (*v1alpha1.Reference, *string)) Ref[O] {
	return Ref[O]{Target: t, Sites: func(o O) []Site {
		ref, id := at(o)
		return slotSites(field, []Slot{{Ref: ref, ID: id}})
	}}
}

// Each declares a reference inside every element of a list (field holds %d for the element's
// index, for example "spec.routes[%d].natGatewayRef"): at returns one Slot per element.
func Each[O any](t targets.Target, field string, at func(O) []Slot) Ref[O] {
	return Ref[O]{Target: t, Sites: func(o O) []Site {
		slots := at(o)
		sites := make([]Site, 0, len(slots))
		for i, s := range slots {
			sites = append(sites, slotSites(fmt.Sprintf(field, i), []Slot{s})...)
		}
		return sites
	}}
}

// List declares a list of references (refsField) and a label selector (selectorField), either
// of which may be empty: at returns them and the spec list that their identifiers are
// appended to.
func List[O any](t targets.Target, refsField, selectorField string, at func(O) ([]v1alpha1.Reference, *v1alpha1.Selector, *[]string)) Ref[O] {
	return Ref[O]{Target: t, Sites: func(o O) []Site {
		refs, sel, ids := at(o)
		add := func(v []string) { *ids = append(*ids, v...) }
		sites := make([]Site, 0, len(refs)+1)
		for i, ref := range refs {
			sites = append(sites, Site{Field: fmt.Sprintf("%s[%d]", refsField, i), Name: ref.Name, Set: add})
		}
		if sel != nil {
			sites = append(sites, Site{Field: selectorField, Selector: sel, Set: add})
		}
		return sites
	}}
}

// slotSites returns the sites of the slots that are set, all under the field path field.
func slotSites(field string, slots []Slot) []Site {
	var sites []Site
	for _, s := range slots {
		if s.Ref == nil {
			continue
		}
		id := s.ID
		sites = append(sites, Site{Field: field, Name: s.Ref.Name, Element: s.Element, Set: func(v []string) { *id = v[0] }})
	}
	return sites
}
