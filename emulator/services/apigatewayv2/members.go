package apigatewayv2

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/services/apigateway"
)

// member is a kind of resource an API holds by id: its name in NotFoundException and where the
// API keeps them.
type member[T any] struct {
	kind string
	of   func(a *api) map[string]*T
}

// The kinds of resource an API holds by id.
var (
	integrations = member[types.Integration]{kind: "Integration", of: func(a *api) map[string]*types.Integration { return a.integrations }}
	routes       = member[types.Route]{kind: "Route", of: func(a *api) map[string]*types.Route { return a.routes }}
	deployments  = member[types.Deployment]{kind: "Deployment", of: func(a *api) map[string]*types.Deployment { return a.deployments }}
)

// find returns the API a request names and its member id, or NotFoundException. The caller
// holds the backend's mutex.
func (m member[T]) find(r *region, call *core.Call, apiID, id *string) (*api, *T, error) {
	a, err := r.lookup(call, aws.ToString(apiID))
	return apigateway.Member(a, err, m.of, id, notFound(call, m.kind, aws.ToString(id)))
}

// one returns the function that finds the member id of the API apiID, for apigateway.Read.
func (m member[T]) one(call *core.Call, apiID, id *string) func(r *region) (*T, error) {
	return func(r *region) (*T, error) {
		_, v, err := m.find(r, call, apiID, id)
		return v, err
	}
}

// all returns the function that lists the members of the API apiID in the order of their ids,
// for apigateway.List.
func (m member[T]) all(call *core.Call, apiID *string) func(r *region) ([]T, error) {
	return ofAPI(call, apiID, func(_ *region, a *api) []T { return sortedValues(m.of(a)) })
}

// store keeps v as the member id of the API a, marks the API changed (for auto-deploying
// stages), and answers O filled from v.
func store[O, T any](m member[T], r *region, call *core.Call, a *api, id string, v *T) (*O, error) {
	m.of(a)[id] = v
	r.changed(call, a)
	out := new(O)
	core.Fill(out, v)
	return out, nil
}

// update answers an Update operation of the member id of the API apiID, holding the backend's
// mutex: change edits a copy of the member (or refuses the request), which then takes its place.
func update[O, T any](m member[T], b *Backend, call *core.Call, apiID, id *string, change func(r *region, a *api, v *T) error) (*O, error) {
	return core.Locked(b.state, call, func(r *region) (*O, error) {
		a, old, err := m.find(r, call, apiID, id)
		if err != nil {
			return nil, err
		}
		v := *old
		if err := change(r, a, &v); err != nil {
			return nil, err
		}
		return store[O](m, r, call, a, aws.ToString(id), &v)
	})
}

// remove answers a Delete operation of the member id of the API apiID, holding the backend's
// mutex: del removes the member from its API a (or refuses the request, for a member in use).
func remove[O, T any](m member[T], b *Backend, call *core.Call, apiID, id *string, del func(r *region, a *api, v *T) error) (*O, error) {
	return core.Locked(b.state, call, func(r *region) (*O, error) {
		a, v, err := m.find(r, call, apiID, id)
		if err != nil {
			return nil, err
		}
		if err := del(r, a, v); err != nil {
			return nil, err
		}
		return new(O), nil
	})
}
