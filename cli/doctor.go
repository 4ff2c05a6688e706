package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/runner-codes/infra-operator/cli/doctor"
	"github.com/runner-codes/infra-operator/cli/internal/kube"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// doctorRenderers are the formats of `infractl doctor -o`.
var doctorRenderers = map[string]func(io.Writer, *doctor.Report) error{"text": doctor.Text, "json": doctor.JSON}

func newDoctorCommand() *cobra.Command {
	var cluster clusterFlags
	var names []string
	var output string
	var opts doctor.Options
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "doctor [--families f1,f2] [-n NS] [-o text|json]",
		Short: "Check the install in the cluster: CRDs, operators, their permissions, providers, tenancy, stuck objects, metrics",
		Long: "doctor checks, in the cluster of the current kubeconfig context, each chosen family's CRDs against the ones " +
			"this infractl embeds, its operator Deployment, the Deployment's permissions, the AWSProviders and " +
			"ClusterAWSProviders, tenancy settings left open to every namespace, objects stuck deleting or stalled, and " +
			"the metrics endpoints, and prints one row per finding with a fix for each that is not ok " +
			"(docs/troubleshooting.md). Exit status: 0 no row failed, 3 a row failed, 1 the command failed.",
		Example: "  infractl doctor\n  infractl doctor --families networking,data -n team-a -o json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			render, ok := doctorRenderers[output]
			if !ok {
				return fmt.Errorf("unknown output format %q: want text or json", output)
			}
			chosen, err := chooseFamilies(names)
			if err != nil {
				return err
			}
			opts.Families = slices.DeleteFunc(Families(), func(f operator.Family) bool { return !slices.Contains(chosen, f.Name) })
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			cfg, err := kube.Config(ctx, cluster.kubeconfig, cluster.context)
			if err != nil {
				return err
			}
			r, err := doctor.Run(ctx, cfg, opts)
			if err != nil {
				return err
			}
			if err := render(cmd.OutOrStdout(), r); err != nil {
				return err
			}
			if r.Count(doctor.Fail) > 0 {
				return &ExitError{Code: doctor.ExitFail}
			}
			return nil
		},
	}
	cluster.add(cmd.Flags())
	cmd.Flags().StringSliceVar(&names, "families", nil, "families to check, comma-separated (default: all)")
	cmd.Flags().StringVarP(&opts.Namespace, "namespace", "n", "", "namespace of the AWSProviders and objects to check (default: every namespace)")
	cmd.Flags().StringVar(&opts.OperatorNamespace, "operator-namespace", "", "namespace of the operators' Deployments (default: every namespace)")
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text or json")
	cmd.Flags().DurationVar(&opts.CheckTimeout, "check-timeout", doctor.DefaultCheckTimeout, "time limit of each check's API calls")
	cmd.Flags().DurationVar(&opts.StuckAfter, "stuck-after", doctor.DefaultStuckAfter, "how long an object may be deleting before it is reported as stuck")
	cmd.Flags().DurationVar(&timeout, "timeout", 2*time.Minute, "time limit of the whole run")
	return cmd
}
