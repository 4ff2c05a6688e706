package managed

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Change is one difference between the AWS resource and the spec, and the call (or calls)
// that remove it.
type Change struct {
	// Fields name the spec fields that differ, for events, for example "versioning".
	Fields []string
	// Values holds, by field, AWS's current value and the spec's for the fields whose values
	// the driver shows (a plan waiting for approval lists them); a secret value is never in it.
	Values map[string]Values
	// Apply makes AWS match the spec for those fields.
	Apply func(ctx context.Context) error
}

// Values are AWS's current value of a field and the spec's, as a plan shows them.
type Values struct {
	Current, Desired string
}

// Plan is what Observe found different from the spec, in the order the changes must be
// made. The engine carries it out as it is: nothing is compared a second time.
type Plan []Change

// Add plans apply for one differing field.
func (p *Plan) Add(field string, apply func(ctx context.Context) error) {
	*p = append(*p, Change{Fields: []string{field}, Apply: apply})
}

// AddValue plans apply for one differing field whose values the plan shows: current is AWS's
// and desired the spec's, each written as JSON (a string as it is). Never pass a secret value:
// plan such a field with Add, which shows only that it changes.
func (p *Plan) AddValue(field string, current, desired any, apply func(ctx context.Context) error) {
	*p = append(*p, Change{Fields: []string{field}, Values: map[string]Values{field: ValuesOf(current, desired)}, Apply: apply})
}

// ValuesOf returns how a plan shows a field's values: current is AWS's and desired the
// spec's, each written by Shown.
func ValuesOf(current, desired any) Values {
	return Values{Current: Shown(current), Desired: Shown(desired)}
}

// Shown writes a value for a plan: a string (of any string type, such as an SDK enum) as it
// is, anything else as JSON.
func Shown(v any) string {
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
		return rv.String()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// AddFields plans one call that changes several differing fields at once (one
// ModifyDBInstance, one SetQueueAttributes); it plans nothing when fields is empty.
func (p *Plan) AddFields(fields []string, apply func(ctx context.Context) error) {
	if len(fields) > 0 {
		*p = append(*p, Change{Fields: fields, Apply: apply})
	}
}

// AddFieldValues plans one call that changes several differing fields at once, as AddFields
// does, and shows the values that values holds by field (see ValuesOf). The fields keep their
// order; a field values does not hold, such as one whose value is secret, shows only its name.
// It plans nothing when fields is empty.
func (p *Plan) AddFieldValues(fields []string, values map[string]Values, apply func(ctx context.Context) error) {
	if len(fields) == 0 {
		return
	}
	shown := make(map[string]Values, len(values))
	for _, f := range fields {
		if v, ok := values[f]; ok {
			shown[f] = v
		}
	}
	*p = append(*p, Change{Fields: fields, Values: shown, Apply: apply})
}

// AddAttributes plans one call that sets the attributes of an attribute-map API (an SQS
// queue's, an SNS topic's): set holds, by attribute name, the spec's value of each attribute
// that differs, and observed AWS's values, which the plan shows next to the spec's. It plans
// nothing when set is empty. Attributes holding secret values must be planned with AddFields.
func (p *Plan) AddAttributes(set, observed map[string]string, apply func(ctx context.Context) error) {
	if len(set) == 0 {
		return
	}
	values := make(map[string]Values, len(set))
	for name, v := range set {
		values[name] = Values{Current: observed[name], Desired: v}
	}
	*p = append(*p, Change{Fields: slices.Sorted(maps.Keys(set)), Values: values, Apply: apply})
}

// AddTags plans the tag change that turns observed into desired, when they differ: apply
// receives the tags to add or overwrite and the keys to remove (see TagChanges).
func (p *Plan) AddTags(desired, observed map[string]string, apply func(ctx context.Context, set map[string]string, remove []string) error) {
	set, remove := TagChanges(desired, observed)
	if len(set)+len(remove) == 0 {
		return
	}
	*p = append(*p, Change{Fields: []string{"tags"}, Values: map[string]Values{"tags": TagValues(set, remove, observed)},
		Apply: func(ctx context.Context) error { return apply(ctx, set, remove) }})
}

// TagValues returns how a plan shows a tag change (see TagChanges): the tags that change,
// with their values in observed (AWS's) and in set (the spec's); a removed tag has only its
// observed value.
func TagValues(set map[string]string, remove []string, observed map[string]string) Values {
	current, wanted := map[string]string{}, map[string]string{}
	for k, v := range set {
		wanted[k] = v
		if ov, ok := observed[k]; ok {
			current[k] = ov
		}
	}
	for _, k := range remove {
		current[k] = observed[k]
	}
	return ValuesOf(current, wanted)
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
