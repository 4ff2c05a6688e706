// Command caching-operator runs the caching family of infra-operator.
package main

import (
	"github.com/runner-codes/infra-operator/operators/caching"
	"github.com/runner-codes/infra-operator/shared/operator"
)

func main() { operator.Main(caching.Family()) }
