// Command compute-operator runs the compute family of infra-operator.
package main

import (
	"github.com/runner-codes/infra-operator/operators/compute"
	"github.com/runner-codes/infra-operator/shared/operator"
)

func main() { operator.Main(compute.Family()) }
