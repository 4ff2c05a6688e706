// Package compute is the compute family of infra-operator: EC2Instance, LambdaFunction and EKSCluster.
package compute

import "github.com/runner-codes/infra-operator/shared/operator"

// Name is the family's name.
const Name = "compute"

// Family returns the compute family with every kind it implements so far. Kinds are added to
// AddToScheme and Setup as their drivers land; until then the family runs the AWSProvider
// controller and serves its health and metrics endpoints.
func Family() operator.Family {
	return operator.Family{Name: Name}
}
