// Package e2e holds the tests that cross module boundaries: the repository-wide checks (every
// family's kinds against its reference page, the RBAC, the Argo CD health check, the GitOps
// examples and the conformance of each kind to the project's definition of one). A family's own
// module builds and tests that family alone; a release of one family never compiles this.
package e2e

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/runner-codes/infra-operator/operators/caching"
	"github.com/runner-codes/infra-operator/operators/compute"
	"github.com/runner-codes/infra-operator/operators/containers"
	"github.com/runner-codes/infra-operator/operators/data"
	"github.com/runner-codes/infra-operator/operators/edge"
	"github.com/runner-codes/infra-operator/operators/messaging"
	"github.com/runner-codes/infra-operator/operators/networking"
	"github.com/runner-codes/infra-operator/operators/security"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// Families returns every operator family, in the order the sandbox runs them.
func Families() []operator.Family {
	return []operator.Family{
		networking.Family(), compute.Family(), data.Family(), messaging.Family(),
		edge.Family(), security.Family(), containers.Family(), caching.Family(),
	}
}

// CRDs returns the shared CRDs and every family's.
func CRDs() ([]*apiextensionsv1.CustomResourceDefinition, error) {
	return operator.CRDs(Families()...)
}

// CRDKinds returns the kinds of the shared CRDs and of every family's CRDs.
func CRDKinds() ([]string, error) {
	defs, err := CRDs()
	if err != nil {
		return nil, err
	}
	kinds := make([]string, 0, len(defs))
	for _, d := range defs {
		kinds = append(kinds, d.Spec.Names.Kind)
	}
	return kinds, nil
}
