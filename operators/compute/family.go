// Package compute is the compute family of infra-operator: EC2Instance, LambdaFunction (with
// LambdaAlias and LambdaEventSourceMapping) and EKSCluster (with EKSAccessEntry and
// EKSPodIdentityAssociation).
package compute

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/compute/crds"
	"github.com/runner-codes/infra-operator/operators/compute/ec2instance"
	"github.com/runner-codes/infra-operator/operators/compute/eksaccessentry"
	"github.com/runner-codes/infra-operator/operators/compute/ekscluster"
	"github.com/runner-codes/infra-operator/operators/compute/ekspodidentityassociation"
	"github.com/runner-codes/infra-operator/operators/compute/lambdaalias"
	"github.com/runner-codes/infra-operator/operators/compute/lambdaeventsourcemapping"
	"github.com/runner-codes/infra-operator/operators/compute/lambdafunction"
	"github.com/runner-codes/infra-operator/shared/engine"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// Name is the family's name.
const Name = "compute"

// Family returns the compute family with its kinds.
func Family() operator.Family {
	return operator.Family{
		Name:        Name,
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme},
		CRDs:        crds.FS(),
		Kinds: []engine.Controller{
			engine.For(ec2instance.Kind()),
			engine.For(lambdafunction.Kind()),
			engine.For(ekscluster.Kind()),
			engine.For(lambdaeventsourcemapping.Kind()),
			engine.For(lambdaalias.Kind()),
			engine.For(eksaccessentry.Kind()),
			engine.For(ekspodidentityassociation.Kind()),
		},
	}
}
