package managed

import (
	"context"
	"slices"
)

// ParameterSet is a parameter group's parameters as a set by name (an RDS DB parameter group's,
// an ElastiCache cache parameter group's), for PlanParameters: the spec's parameters and the
// values users set in AWS.
type ParameterSet[P any] struct {
	// Desired are the spec's parameters.
	Desired []P
	// Name and Value return a parameter's name and value.
	Name, Value func(P) string
	// Current holds the values users set in AWS, by parameter name (the parameters whose
	// source is "user").
	Current map[string]string
	// InSync reports whether AWS already has the spec's parameter p as the spec says (for
	// example its apply method too); nil compares the values only.
	InSync func(p P) bool
}

// PlanParameters plans, as one plan entry, what makes the group's user-set parameters the
// spec's: the spec's parameters AWS lacks or has with another value (set), and those AWS has
// that the spec no longer names (reset to the engine's defaults, in name order). Each shows as
// the field "parameters[<name>]" with AWS's value and the spec's ("(engine default)" for a
// reset). It plans nothing when the set is in sync.
func PlanParameters[P any](changes *Plan, s ParameterSet[P], apply func(ctx context.Context, set []P, reset []string) error) {
	inSync := s.InSync
	if inSync == nil {
		inSync = func(p P) bool {
			cur, ok := s.Current[s.Name(p)]
			return ok && cur == s.Value(p)
		}
	}
	var set []P
	var reset, fields []string
	values := map[string]Values{}
	named := map[string]bool{}
	for _, p := range s.Desired {
		named[s.Name(p)] = true
		if inSync(p) {
			continue
		}
		set = append(set, p)
		field := "parameters[" + s.Name(p) + "]"
		fields, values[field] = append(fields, field), ValuesOf(s.Current[s.Name(p)], s.Value(p))
	}
	for name, cur := range s.Current {
		if !named[name] {
			reset = append(reset, name)
			field := "parameters[" + name + "]"
			fields, values[field] = append(fields, field), ValuesOf(cur, "(engine default)")
		}
	}
	slices.Sort(reset)
	slices.Sort(fields)
	changes.AddFieldValues(fields, values, func(ctx context.Context) error { return apply(ctx, set, reset) })
}

// InBatches calls call with items in batches of at most size, in order, and stops at the
// first error: for APIs that take a limited number of items per request (20 parameters per
// ModifyDBParameterGroup or ModifyCacheParameterGroup).
func InBatches[T any](items []T, size int, call func(batch []T) error) error {
	for batch := range slices.Chunk(items, size) {
		if err := call(batch); err != nil {
			return err
		}
	}
	return nil
}
