// Package operator runs infra-operator families: the manager, its flags, health and metrics
// endpoints, leader election, the AWSProvider controller and the kinds' controllers.
package operator

import (
	"io/fs"

	"k8s.io/apimachinery/pkg/runtime"

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
