// Package e2e holds the tests that cross module boundaries: the repository-wide checks (every
// family's kinds against its reference page, the RBAC, the Argo CD health check, the GitOps
// examples and the conformance of each kind to the project's definition of one). A family's own
// module builds and tests that family alone; a release of one family never compiles this.
package e2e

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/runner-codes/infra-operator/cli"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// CRDs returns the shared CRDs and every family's.
func CRDs() ([]*apiextensionsv1.CustomResourceDefinition, error) {
	return operator.CRDs(cli.Families()...)
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
