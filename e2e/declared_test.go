package e2e

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/runner-codes/infra-operator/shared/engine"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// repoModule is the prefix of the import paths of the repository's packages; the rest of such a
// path is the package's directory under the repository's root.
const repoModule = "github.com/runner-codes/infra-operator/"

// declaredKind is one kind a family declares in its Kinds, as the conformance checks see it.
type declaredKind struct {
	// Family is the family that declares the kind.
	Family operator.Family
	// Name is the kind's name, for example "ElasticIP".
	Name string
	// Type is the kind's Go type (the struct, not the pointer).
	Type reflect.Type
	// DriverPackage is the import path of the package of the kind's driver: the package of the
	// State type its driver hands from Observe to Delete.
	DriverPackage string
	// Controller is the declaration itself.
	Controller engine.Controller
}

// DriverDir returns the directory of the kind's driver package, relative to the repository's
// root.
func (k declaredKind) DriverDir() string {
	return filepath.FromSlash(strings.TrimPrefix(k.DriverPackage, repoModule))
}

// declaredKinds returns every kind the families declare, in declaration order.
func declaredKinds(fams []operator.Family) ([]declaredKind, error) {
	var out []declaredKind
	for _, f := range fams {
		for _, c := range f.Kinds {
			k, err := declared(f, c)
			if err != nil {
				return nil, fmt.Errorf("the %s family: %w", f.Name, err)
			}
			out = append(out, k)
		}
	}
	return out, nil
}

// declared describes the kind c declares. engine.Controller exposes only Setup and Targets, so
// the kind's type, name and driver package are read from the type parameters of the
// managed.Kind[O, S] engine.For wraps: O is New's result and S the State of Connect's driver's
// Observation. The name is the Kind's Name when it sets one, else O's type name, as the engine
// takes it.
func declared(f operator.Family, c engine.Controller) (declaredKind, error) {
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Struct || v.NumField() == 0 {
		return declaredKind{}, fmt.Errorf("a controller of type %T was not made by engine.For", c)
	}
	kind := v.Field(0)
	newField, ok := kind.Type().FieldByName("New")
	connect, ok2 := kind.Type().FieldByName("Connect")
	if !ok || !ok2 {
		return declaredKind{}, fmt.Errorf("a controller of type %T holds no managed.Kind", c)
	}
	obj := newField.Type.Out(0).Elem()
	observe, ok := connect.Type.Out(0).MethodByName("Observe")
	if !ok {
		return declaredKind{}, fmt.Errorf("the driver of %s has no Observe", obj.Name())
	}
	state, ok := observe.Type.Out(0).FieldByName("State")
	if !ok {
		return declaredKind{}, fmt.Errorf("the observation of %s has no State", obj.Name())
	}
	name := kind.FieldByName("Name").String()
	if name == "" {
		name = obj.Name()
	}
	return declaredKind{Family: f, Name: name, Type: obj, DriverPackage: state.Type.Elem().PkgPath(), Controller: c}, nil
}
