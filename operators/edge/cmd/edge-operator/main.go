// Command edge-operator runs the edge family of infra-operator.
package main

import (
	"github.com/runner-codes/infra-operator/operators/edge"
	"github.com/runner-codes/infra-operator/shared/operator"
)

func main() { operator.Main(edge.Family()) }
