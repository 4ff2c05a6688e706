package engine

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/runner-codes/infra-operator/shared/api/targets"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Controller is one kind, declared to a family, that the operator sets up with the manager.
type Controller interface {
	// Setup registers the kind's controller with mgr.
	Setup(ctx context.Context, mgr ctrl.Manager, opts SetupOptions) error
	// Targets returns the kinds the kind's references name, each once, which the operator
	// must be allowed to get, list and watch.
	Targets() []targets.Target
	// Declaration describes the kind, for checks that walk every family's kinds.
	Declaration() Declaration
}

// Declaration describes a kind declared with For.
type Declaration struct {
	// Name is the kind's name, for example "ElasticIP": the Kind's Name, or its Go type's.
	Name string
	// Type is the kind's Go type (the struct, not the pointer).
	Type reflect.Type
	// DriverPackage is the import path of the kind's driver package: the package of the State
	// its driver hands from Observe to Delete.
	DriverPackage string
}

// For declares kind as one of a family's controllers.
func For[O v1alpha1.Managed, S any](kind managed.Kind[O, S]) Controller {
	return declared[O, S]{kind: kind}
}

// declared is a kind declared with For.
type declared[O v1alpha1.Managed, S any] struct{ kind managed.Kind[O, S] }

// Setup registers the kind's controller with mgr.
func (d declared[O, S]) Setup(ctx context.Context, mgr ctrl.Manager, opts SetupOptions) error {
	if err := Setup(ctx, mgr, d.kind, opts); err != nil {
		return fmt.Errorf("set up %s: %w", reflect.TypeFor[O]().Elem().Name(), err)
	}
	return nil
}

// Declaration describes the kind.
func (d declared[O, S]) Declaration() Declaration {
	typ := reflect.TypeFor[O]().Elem()
	name := d.kind.Name
	if name == "" {
		name = typ.Name()
	}
	return Declaration{Name: name, Type: typ, DriverPackage: reflect.TypeFor[S]().PkgPath()}
}

// Targets returns the kinds the kind's references name, each once, in declaration order.
func (d declared[O, S]) Targets() []targets.Target {
	var out []targets.Target
	for _, r := range d.kind.References {
		if !slices.ContainsFunc(out, func(t targets.Target) bool { return t.Kind == r.Target.Kind }) {
			out = append(out, r.Target)
		}
	}
	return out
}
