package cli

import (
	"github.com/spf13/cobra"

	"github.com/runner-codes/infra-operator/cli/internal/kube"
)

func newStatusCommand() *cobra.Command {
	var cluster clusterFlags
	var namespace string
	var all bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show every managed AWS resource: READY, SYNCED, AWS id, age, and why it is not ready",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, c, err := cluster.connect(cmd.Context())
			if err != nil {
				return err
			}
			kinds, err := kube.Kinds(cfg)
			if err != nil {
				return err
			}
			ns := namespace
			if all {
				ns = ""
			}
			states, err := kube.States(cmd.Context(), c, kinds, ns)
			if err != nil {
				return err
			}
			return kube.PrintStates(cmd.OutOrStdout(), states, all)
		},
	}
	cluster.add(cmd.Flags())
	cmd.Flags().StringVarP(&namespace, "namespace", "n", "default", "namespace to show")
	cmd.Flags().BoolVarP(&all, "all-namespaces", "A", false, "show every namespace")
	return cmd
}
