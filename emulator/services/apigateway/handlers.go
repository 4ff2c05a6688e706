package apigateway

import (
	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The shapes of handler that API Gateway v1 and v2 share: reading one resource (Read), listing a
// page of them (List), and finding a resource that another holds by id (Member).

// Read answers a Get operation: holding the backend's mutex, find returns the resource the
// request names as API Gateway shows it, and Read fills a new O from it.
func Read[O, R, V any](state *core.Backend[R], call *core.Call, find func(r R) (V, error)) (*O, error) {
	return core.Locked(state, call, func(r R) (*O, error) {
		v, err := find(r)
		if err != nil {
			return nil, err
		}
		out := new(O)
		core.Fill(out, v)
		return out, nil
	})
}

// List answers a list operation: holding the backend's mutex, items returns every resource the
// request lists, in order, and page cuts the page that token and size select; List fills a new
// O with the page (Items) and the next token (NextToken in v2, Position in v1).
func List[O, R, T, P, S any](state *core.Backend[R], call *core.Call, items func(r R) ([]T, error),
	page func([]T, P, S) ([]T, *string, error), token P, size S) (*O, error) {
	return core.Locked(state, call, func(r R) (*O, error) {
		all, err := items(r)
		if err != nil {
			return nil, err
		}
		got, next, err := page(all, token, size)
		if err != nil {
			return nil, err
		}
		out := new(O)
		core.Fill(out, &listAnswer[T]{Items: got, NextToken: next, Position: next})
		return out, nil
	})
}

// listAnswer is what the outputs of list operations say: a page of items and the token of the
// next page, under the name either version of API Gateway gives it.
type listAnswer[T any] struct {
	Items               []T
	NextToken, Position *string
}

// Member returns parent with its member id in members, or missing, the error for a member it
// does not have; a non-nil err, the error of finding parent, comes back as it is.
func Member[P, T any](parent P, err error, members func(P) map[string]*T, id *string, missing error) (P, *T, error) {
	if err != nil {
		return parent, nil, err
	}
	m, ok := members(parent)[aws.ToString(id)]
	if !ok {
		return parent, nil, missing
	}
	return parent, m, nil
}

// View returns what view makes of v, or err, the error of finding v, when there is one.
func View[V, T any](v V, err error, view func(V) *T) (*T, error) {
	if err != nil {
		return nil, err
	}
	return view(v), nil
}

// Views returns what view makes of each value of m, in the order of their keys.
func Views[V, T any](m map[string]V, view func(V) *T) []T {
	out := make([]T, 0, len(m))
	for _, k := range core.SortedKeys(m) {
		out = append(out, *view(m[k]))
	}
	return out
}

// values returns the values of what members gives of parent, in the order of their keys, or
// err, the error of finding parent, when there is one.
func values[P, T any](parent P, err error, members func(P) map[string]*T) ([]T, error) {
	if err != nil {
		return nil, err
	}
	return Views(members(parent), func(v *T) *T { return v }), nil
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// Created answers a Create operation, holding the backend's mutex: it gives the new resource v
// the request's tags under arn (or answers the tag rules' error), keeps it under id in
// resources, and fills a new O from it as view shows it.
func Created[O, T, V any](tags *core.Tags, requested map[string]string, arn string, resources map[string]*T, id string, v *T,
	view func(*T) *V) (*O, error) {
	if err := tags.Merge(requested, arn); err != nil {
		return nil, err
	}
	resources[id] = v
	out := new(O)
	core.Fill(out, view(v))
	return out, nil
}
