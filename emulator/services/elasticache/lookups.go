package elasticache

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// lookup returns the resource of m, a region's resources of one kind by lowercased id, that a
// request names by ref in any case, or missing's not-found error for that id. The caller holds
// the backend's mutex.
func lookup[T any](m map[string]*T, ref *string, missing func(id string) error) (*T, error) {
	id := strings.ToLower(aws.ToString(ref))
	v, ok := m[id]
	if !ok {
		return nil, missing(id)
	}
	return v, nil
}

// settledOn runs f, as settled does, on the resource find returns for ref, and returns f's answer
// or find's error: the scaffold of the operations that change or delete one resource.
func settledOn[O, T any](b *Backend, call *core.Call, ref *string, find func(r *region, ref *string) (*T, error), f func(r *region, v *T) (*O, error)) (*O, error) {
	return settled(b, call, func(r *region) (*O, error) {
		v, err := find(r, ref)
		if err != nil {
			return nil, err
		}
		return f(r, v)
	})
}

// selected returns the ids of m, a region's resources of one kind by lowercased id, that a
// Describe request selects: the one ref names in any case (or missing's not-found error when m
// has none such), or every id in order when ref is nil.
func selected[T any](m map[string]*T, ref *string, missing func(id string) error) ([]string, error) {
	if ref == nil {
		return core.SortedKeys(m), nil
	}
	if _, err := lookup(m, ref, missing); err != nil {
		return nil, err
	}
	return []string{strings.ToLower(*ref)}, nil
}
