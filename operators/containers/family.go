// Package containers is the containers family of infra-operator: ECRRepository, ECSCluster,
// ECSTaskDefinition and ECSService.
package containers

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/containers/crds"
	"github.com/runner-codes/infra-operator/operators/containers/ecrrepository"
	"github.com/runner-codes/infra-operator/operators/containers/ecscluster"
	"github.com/runner-codes/infra-operator/operators/containers/ecsservice"
	"github.com/runner-codes/infra-operator/operators/containers/ecstaskdefinition"
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
			engine.For(ecstaskdefinition.Kind()),
			engine.For(ecsservice.Kind()),
		},
	}
}
