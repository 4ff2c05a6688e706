package managed

import "strings"

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
