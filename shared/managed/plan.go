package managed

import (
	"context"
	"slices"
	"strings"
)

// Change is one difference between the AWS resource and the spec, and the call (or calls)
// that remove it.
type Change struct {
	// Fields name the spec fields that differ, for events, for example "versioning".
	Fields []string
	// Apply makes AWS match the spec for those fields.
	Apply func(ctx context.Context) error
}

// Plan is what Observe found different from the spec, in the order the changes must be
// made. The engine carries it out as it is: nothing is compared a second time.
type Plan []Change

// Add plans apply for one differing field.
func (p *Plan) Add(field string, apply func(ctx context.Context) error) {
	*p = append(*p, Change{Fields: []string{field}, Apply: apply})
}

// AddFields plans one call that changes several differing fields at once (one
// ModifyDBInstance, one SetQueueAttributes); it plans nothing when fields is empty.
func (p *Plan) AddFields(fields []string, apply func(ctx context.Context) error) {
	if len(fields) > 0 {
		*p = append(*p, Change{Fields: fields, Apply: apply})
	}
}

// AddTags plans the tag change that turns observed into desired, when they differ: apply
// receives the tags to add or overwrite and the keys to remove (see TagChanges).
func (p *Plan) AddTags(desired, observed map[string]string, apply func(ctx context.Context, set map[string]string, remove []string) error) {
	set, remove := TagChanges(desired, observed)
	if len(set)+len(remove) == 0 {
		return
	}
	p.Add("tags", func(ctx context.Context) error { return apply(ctx, set, remove) })
}

// Apply carries out the changes in order and stops at the first that fails.
func (p Plan) Apply(ctx context.Context) error {
	for _, c := range p {
		if err := c.Apply(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Fields returns the names of every differing field, in plan order.
func (p Plan) Fields() []string {
	var out []string
	for _, c := range p {
		out = append(out, c.Fields...)
	}
	return out
}

// String lists the differing fields, for example "tags, versioning".
func (p Plan) String() string { return strings.Join(p.Fields(), ", ") }

// SameSet reports whether a and b hold the same strings, in any order and counting repeats
// once, as AWS lists of ids (security groups, subnets) are compared.
func SameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}
