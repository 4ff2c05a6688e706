// Command containers-operator runs the containers family of infra-operator.
package main

import (
	"github.com/runner-codes/infra-operator/operators/containers"
	"github.com/runner-codes/infra-operator/shared/operator"
)

func main() { operator.Main(containers.Family()) }
