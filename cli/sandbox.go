package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/runner-codes/infra-operator/cli/internal/kube"
	"github.com/runner-codes/infra-operator/cli/internal/sandbox"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// sandboxFlags are the sandbox command's flags.
type sandboxFlags struct {
	apply           []string
	kubeconfig      string
	emulatorAddress string
	region          string
	waitInterval    time.Duration
}

func newSandboxCommand() *cobra.Command {
	var f sandboxFlags
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Run infra-operator locally: a control plane, the AWS emulator and every family, with no cluster or AWS account",
		Long: "sandbox starts a local control plane (kube-apiserver and etcd, built from source and cached on first use),\n" +
			"the AWS emulator, every CRD and every operator family in one process, writes a kubeconfig, applies\n" +
			"--apply manifests and shows their progress, then runs until Ctrl-C.",
		Example: "  infractl sandbox --apply examples/sandbox --apply examples/data",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runSandbox(ctx, cmd, f)
		},
	}
	home, _ := os.UserHomeDir()
	cmd.Flags().StringSliceVar(&f.apply, "apply", nil, "manifest file or directory to apply once the sandbox runs (repeatable, applied in order)")
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
		Families: families(), Operator: opts, Progress: out,
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
	if len(f.apply) > 0 {
		if err := applyAndFollow(ctx, sb, f.apply, cmd); err != nil {
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

// applyAndFollow applies the manifests and prints their progress until they settle.
func applyAndFollow(ctx context.Context, sb *sandbox.Sandbox, paths []string, cmd *cobra.Command) error {
	out := cmd.OutOrStdout()
	objs, err := kube.ReadManifests(paths)
	if err != nil {
		return err
	}
	c, err := newClient(sb.Config)
	if err != nil {
		return err
	}
	if err := kube.Apply(ctx, c, objs, "default"); err != nil {
		return err
	}
	fmt.Fprintf(out, "sandbox: applied %d objects; following them until each is Ready or failed\n", len(objs))
	stalled, blocked, err := followProgress(ctx, c, objs, out, 500*time.Millisecond)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	if stalled > 0 {
		fmt.Fprintf(out, "sandbox: %d of the resources failed and %d wait for one that did (see the reasons above); fix their specs and apply again\n", stalled, blocked)
	} else {
		fmt.Fprintln(out, "sandbox: every resource is Ready")
	}
	return nil
}
