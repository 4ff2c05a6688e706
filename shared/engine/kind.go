package engine

import (
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// completeKind fills what a kind's declaration may leave out: its name (the name of O's Go
// type), New (a new empty object) and NewList (the list kind the scheme registers next to it).
func completeKind[O v1alpha1.Managed, S any](k managed.Kind[O, S], scheme *runtime.Scheme) (managed.Kind[O, S], error) {
	typ := reflect.TypeFor[O]().Elem()
	if k.Name == "" {
		k.Name = typ.Name()
	}
	if k.New == nil {
		k.New = func() O { return reflect.New(typ).Interface().(O) }
	}
	if k.NewList == nil {
		gvk, err := apiutil.GVKForObject(k.New(), scheme)
		if err != nil {
			return k, fmt.Errorf("%s is not registered in the scheme: %w", k.Name, err)
		}
		gvk.Kind += "List"
		if _, err := scheme.New(gvk); err != nil {
			return k, fmt.Errorf("%s has no list kind in the scheme: %w", k.Name, err)
		}
		k.NewList = func() client.ObjectList {
			list, _ := scheme.New(gvk)
			return list.(client.ObjectList)
		}
	}
	return k, nil
}
