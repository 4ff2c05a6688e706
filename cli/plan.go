package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/discovery"

	"github.com/runner-codes/infra-operator/cli/plan"
)

// renderers are the formats of `infractl plan -o`.
var renderers = map[string]func(io.Writer, *plan.Report) error{
	"text": plan.Text, "json": plan.JSON, "markdown": plan.Markdown,
}

func newPlanCommand() *cobra.Command {
	var cluster clusterFlags
	var files []string
	var namespace, output string
	var prune, verbose bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "plan -f FILE|DIR [-f ...] [-n NS] [--prune] [-o text|json|markdown]",
		Short: "Show what applying manifests would do in AWS, without AWS credentials and without writing anything",
		Long: "plan dry-runs the manifests against the API server, asks the running operators through a Preview " +
			"object what applying them would do (create, update, delete, refuse, wait), and prints their answers. " +
			"Exit status: 0 nothing would change, 2 something would change, 3 an object would be refused, " +
			"would wait, could not be planned or got no answer, 1 the command failed.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			render, ok := renderers[output]
			if !ok {
				return fmt.Errorf("unknown output format %q: want text, json or markdown", output)
			}
			if verbose && output == "text" {
				render = plan.TextVerbose
			}
			if len(files) == 0 {
				return fmt.Errorf("no manifests: pass -f FILE or -f DIR")
			}
			objs, err := plan.Read(files)
			if err != nil {
				return err
			}
			cfg, c, err := cluster.connect(cmd.Context())
			if err != nil {
				return err
			}
			dc, err := discovery.NewDiscoveryClientForConfig(cfg)
			if err != nil {
				return fmt.Errorf("connect to the cluster at %s: %w", cfg.Host, err)
			}
			families, err := plan.KindFamilies(dc)
			if err != nil {
				return err
			}
			r, err := plan.Run(cmd.Context(), c, plan.Options{Namespace: namespace, Objects: objs, Prune: prune,
				Families: families, Timeout: timeout})
			if err != nil {
				return err
			}
			if err := render(cmd.OutOrStdout(), r); err != nil {
				return err
			}
			if code := r.ExitCode(); code != plan.ExitNoChanges {
				return &ExitError{Code: code}
			}
			return nil
		},
	}
	cluster.add(cmd.Flags())
	cmd.Flags().StringArrayVarP(&files, "filename", "f", nil, "manifest file, or directory read recursively for *.yaml, *.yml and *.json (repeatable)")
	cmd.Flags().StringVarP(&namespace, "namespace", "n", "default", "namespace to plan; every infra-operator object must be in it or have no namespace")
	cmd.Flags().BoolVar(&prune, "prune", false, "also plan the deletion of the namespace's objects that the manifests lack, as GitOps pruning would")
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text, json or markdown")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "text format: list the unchanged objects too")
	cmd.Flags().DurationVar(&timeout, "timeout", plan.DefaultTimeout, "how long to wait for the operators' answers")
	return cmd
}
