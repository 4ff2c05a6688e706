// Command infractl is the command line of infra-operator.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/runner-codes/infra-operator/cli"
)

func main() {
	err := cli.NewRootCommand().Execute()
	if err == nil {
		return
	}
	var exit *cli.ExitError
	if errors.As(err, &exit) {
		if exit.Err != nil {
			fmt.Fprintln(os.Stderr, "infractl:", exit.Err)
		}
		os.Exit(exit.Code)
	}
	fmt.Fprintln(os.Stderr, "infractl:", err)
	os.Exit(1)
}
