// Command data-operator runs the data family of infra-operator.
package main

import (
	"github.com/runner-codes/infra-operator/operators/data"
	"github.com/runner-codes/infra-operator/shared/operator"
)

func main() { operator.Main(data.Family()) }
