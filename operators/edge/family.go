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

// Tunables are the timings of the edge family's kinds; a zero field takes its default. Tests
// shorten them, since they cannot wait as long as AWS makes an operator wait.
type Tunables struct {
	// CloudFrontDistribution paces the looks at distributions CloudFront is deploying.
	CloudFrontDistribution cloudfrontdistribution.Tunables
}

// Family returns the edge family with its kinds, with the default timings.
func Family() operator.Family { return FamilyWith(Tunables{}) }

// FamilyWith returns the edge family with its kinds, with the timings t.
func FamilyWith(t Tunables) operator.Family {
	return operator.Family{
		Name:        Name,
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme},
		CRDs:        crds.FS(),
		Kinds: []engine.Controller{
			engine.For(apigateway.Kind()),
			engine.For(cloudfrontdistribution.Kind(t.CloudFrontDistribution)),
		},
	}
}
