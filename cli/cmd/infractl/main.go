// Command infractl is the command line of infra-operator.
package main

import (
	"fmt"
	"os"

	"github.com/runner-codes/infra-operator/cli"
)

func main() {
	if err := cli.NewRootCommand().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "infractl:", err)
		os.Exit(1)
	}
}
