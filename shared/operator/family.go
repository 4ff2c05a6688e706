// Package operator runs infra-operator families: the manager, its flags, health and metrics
// endpoints, leader election, the AWSProvider controller and the kinds' controllers.
package operator

import (
	"fmt"
	"io/fs"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/shared/crds"
	"github.com/runner-codes/infra-operator/shared/engine"
)

// Family is one operator family: its name, its kinds' types and the registration of their
// controllers. Families are registered explicitly by each operator's main.
type Family struct {
	// Name is the family's name, for example "data".
	Name string
	// AddToScheme registers the family's kinds.
	AddToScheme []func(*runtime.Scheme) error
	// CRDs holds the CustomResourceDefinition manifests of the family's kinds; nil for a
	// family with no kinds yet.
	CRDs fs.FS
	// Kinds are the family's kinds, each declared with engine.For; a family with no kinds
	// yet still runs the AWSProvider controller and serves its endpoints.
	Kinds []engine.Controller
}

// CRDs returns the shared CRDs (AWSProvider, ClusterAWSProvider) followed by the CRDs of each
// of families, in order.
func CRDs(families ...Family) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	defs, err := crds.Load(crds.FS())
	if err != nil {
		return nil, fmt.Errorf("load the shared CRDs: %w", err)
	}
	for _, f := range families {
		if f.CRDs == nil {
			continue
		}
		more, err := crds.Load(f.CRDs)
		if err != nil {
			return nil, fmt.Errorf("load the %s family's CRDs: %w", f.Name, err)
		}
		defs = append(defs, more...)
	}
	return defs, nil
}
