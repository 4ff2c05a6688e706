// Package containers is the containers family of infra-operator: ECRRepository and ECSCluster.
package containers

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/containers/crds"
	"github.com/runner-codes/infra-operator/operators/containers/ecrrepository"
	"github.com/runner-codes/infra-operator/operators/containers/ecscluster"
	"github.com/runner-codes/infra-operator/shared/engine"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// Name is the family's name.
const Name = "containers"

// Family returns the containers family with the kinds it implements.
func Family() operator.Family {
	return operator.Family{
		Name:        Name,
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme},
		CRDs:        crds.FS(),
		Kinds: []engine.Controller{
			engine.For(ecrrepository.Kind()),
			engine.For(ecscluster.Kind()),
		},
	}
}
