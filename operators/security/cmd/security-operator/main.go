// Command security-operator runs the security family of infra-operator.
package main

import (
	"github.com/runner-codes/infra-operator/operators/security"
	"github.com/runner-codes/infra-operator/shared/operator"
)

func main() { operator.Main(security.Family()) }
