// Package edge is the edge family of infra-operator: APIGateway (REST, HTTP and
// WebSocket APIs) and CloudFrontDistribution.
package edge

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/edge/apigateway"
	"github.com/runner-codes/infra-operator/operators/edge/cloudfrontdistribution"
	"github.com/runner-codes/infra-operator/operators/edge/crds"
	"github.com/runner-codes/infra-operator/shared/engine"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// Name is the family's name.
const Name = "edge"

// Family returns the edge family with its kinds.
func Family() operator.Family {
	return operator.Family{
		Name:        Name,
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme},
		CRDs:        crds.FS(),
		Kinds: []engine.Controller{
			engine.For(apigateway.Kind()),
			engine.For(cloudfrontdistribution.Kind()),
		},
	}
}
