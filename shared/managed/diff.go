package managed

import (
	"slices"
	"strings"
)

// Diff collects the names of the fields whose AWS value differs from the spec, in the order a
// driver compares them. Its String is the Observation's Diff.
type Diff []string

// Check records field when differs is true, and returns differs.
func (d *Diff) Check(field string, differs bool) bool {
	if differs {
		*d = append(*d, field)
	}
	return differs
}

// Has reports whether field was recorded.
func (d Diff) Has(field string) bool {
	for _, f := range d {
		if f == field {
			return true
		}
	}
	return false
}

// String lists the fields, for example "tags, versioning".
func (d Diff) String() string { return strings.Join(d, ", ") }

// SameSet reports whether a and b hold the same strings, in any order and counting repeats
// once, as AWS lists of ids (security groups, subnets) are compared.
func SameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}
