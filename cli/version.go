package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/runner-codes/infra-operator/shared/operator"
)

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
