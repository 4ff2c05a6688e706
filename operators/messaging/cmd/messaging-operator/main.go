// Command messaging-operator runs the messaging family of infra-operator.
package main

import (
	"github.com/runner-codes/infra-operator/operators/messaging"
	"github.com/runner-codes/infra-operator/shared/operator"
)

func main() { operator.Main(messaging.Family()) }
