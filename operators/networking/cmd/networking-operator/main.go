// Command networking-operator runs the networking family of infra-operator.
package main

import (
	"github.com/runner-codes/infra-operator/operators/networking"
	"github.com/runner-codes/infra-operator/shared/operator"
)

func main() { operator.Main(networking.Family()) }
