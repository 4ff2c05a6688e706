// Package caching is the caching family of infra-operator: ElastiCacheCluster.
package caching

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/caching/crds"
	"github.com/runner-codes/infra-operator/operators/caching/elasticachecluster"
	"github.com/runner-codes/infra-operator/operators/caching/elasticacheparametergroup"
	"github.com/runner-codes/infra-operator/shared/engine"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// Name is the family's name.
const Name = "caching"

// Family returns the caching family with the kinds it implements.
func Family() operator.Family {
	return operator.Family{
		Name:        Name,
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme},
		CRDs:        crds.FS(),
		Kinds: []engine.Controller{
			engine.For(elasticachecluster.Kind()),
			engine.For(elasticacheparametergroup.Kind()),
		},
	}
}
