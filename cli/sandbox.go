package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/runner-codes/infra-operator/cli/sandbox"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// sandboxFlags are the sandbox command's flags.
type sandboxFlags struct {
	examples        string
	apply           []string
	kubeconfig      string
	emulatorAddress string
	region          string
	waitInterval    time.Duration
	verbose         bool
}

// newSandboxCommand returns the sandbox command.
func newSandboxCommand() *cobra.Command {
	var f sandboxFlags
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Run infra-operator locally: a control plane, the AWS emulator and every family, with no cluster or AWS account",
		Long: "sandbox starts a local control plane (kube-apiserver and etcd, built from source and cached on first use),\n" +
			"the AWS emulator, every CRD and every operator family in one process, writes a kubeconfig, applies\n" +
			"every family's examples (--examples, with the placeholder ids that cannot work offline replaced)\n" +
			"and --apply manifests (as they are), shows their progress, then runs until Ctrl-C.",
		Example: "  infractl sandbox --examples examples\n  infractl sandbox --apply my-manifests/",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			// After the first Ctrl-C the sandbox stops cleanly; a second one ends it at once.
			go func() { <-ctx.Done(); stop() }()
			setLogger(f.verbose)
			err := runSandbox(ctx, cmd, f)
			if err != nil && ctx.Err() != nil {
				// Stopped by Ctrl-C or SIGTERM while starting or applying: what the user asked.
				return nil
			}
			return err
		},
	}
	home, _ := os.UserHomeDir()
	cmd.Flags().StringVar(&f.examples, "examples", "", "examples tree (the repository's examples/) whose families' examples to apply, placeholders replaced: "+strings.Join(sandbox.ExampleDirs, ", "))
	cmd.Flags().StringSliceVar(&f.apply, "apply", nil, "manifest file or directory to apply as it is once the sandbox runs (repeatable, applied in order, after --examples)")
	cmd.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "show the operators' logs on standard error")
	cmd.Flags().StringVar(&f.kubeconfig, "kubeconfig-out", filepath.Join(home, ".infra-operator", "sandbox.kubeconfig"), "where to write the sandbox's kubeconfig")
	cmd.Flags().StringVar(&f.emulatorAddress, "emulator-address", "127.0.0.1:4566", "loopback address of the AWS emulator (AWSProviders' spec.endpoint)")
	cmd.Flags().StringVar(&f.region, "region", "us-east-1", "AWS region of the sandbox's baseline resources")
	cmd.Flags().DurationVar(&f.waitInterval, "wait-interval", time.Second, "how soon a resource AWS is still creating is looked at again")
	return cmd
}

// runSandbox starts the sandbox, applies the manifests, follows them until they settle, and
// runs until ctx ends.
func runSandbox(ctx context.Context, cmd *cobra.Command, f sandboxFlags) error {
	out := cmd.OutOrStdout()
	opts := operator.DefaultOptions()
	opts.WaitInterval = f.waitInterval
	sb, err := sandbox.Start(ctx, sandbox.Options{
		EmulatorAddress: f.emulatorAddress, Region: f.region, KubeconfigPath: f.kubeconfig,
		Families: Families(), Operator: opts, Progress: out,
	})
	if err != nil {
		return fmt.Errorf("start the sandbox: %w", err)
	}
	defer func() {
		fmt.Fprintln(out, "sandbox: stopping")
		if err := sb.Stop(); err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), "infractl: stop the sandbox:", err)
		}
	}()
	fmt.Fprintf(out, "sandbox: ready. AWS endpoint for AWSProviders: %s\n", sb.EmulatorURL)
	fmt.Fprintf(out, "sandbox: emulator admin API: curl -H 'Authorization: Bearer %s' %s/_emulator/calls\n", sb.EmulatorAdminToken, sb.EmulatorURL)
	fmt.Fprintf(out, "sandbox: kubectl --kubeconfig %s get aws\n", f.kubeconfig)
	fmt.Fprintf(out, "sandbox: infractl status -A --kubeconfig %s\n", f.kubeconfig)
	if f.examples != "" || len(f.apply) > 0 {
		if err := applyAndFollow(ctx, sb, f, out); err != nil {
			return err
		}
	}
	fmt.Fprintln(out, "sandbox: running; press Ctrl-C to stop")
	select {
	case <-ctx.Done():
		return nil
	case err := <-sb.Done():
		return fmt.Errorf("the operators stopped: %w", err)
	}
}
