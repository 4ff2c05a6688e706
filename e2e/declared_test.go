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

// declared describes the kind c of family f declares.
func declared(f operator.Family, c engine.Controller) (declaredKind, error) {
	d := c.Declaration()
	if d.Name == "" || d.Type == nil || d.DriverPackage == "" {
		return declaredKind{}, fmt.Errorf("a controller of type %T declares no kind, type or driver package", c)
	}
	return declaredKind{Family: f, Name: d.Name, Type: d.Type, DriverPackage: d.DriverPackage, Controller: c}, nil
}
