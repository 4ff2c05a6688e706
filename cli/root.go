// Package cli is infractl, the command line of infra-operator.
package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/runner-codes/infra-operator/shared/operator"
)

// NewRootCommand returns the infractl root command.
func NewRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "infractl",
		Short:         "Try, install and inspect infra-operator",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newVersionCommand())
	return root
}

func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of infractl",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "infractl %s\n", operator.Version)
			return err
		},
	}
}
