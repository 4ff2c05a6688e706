package engine

import (
	"context"
	"fmt"
	"reflect"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Controller is one kind, declared to a family, that the operator sets up with the manager.
type Controller interface {
	// Setup registers the kind's controller with mgr.
	Setup(ctx context.Context, mgr ctrl.Manager, opts SetupOptions) error
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
