// Package cli is infractl, the command line of infra-operator.
package cli

import (
	"github.com/spf13/cobra"
)

// NewRootCommand returns the infractl root command.
func NewRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "infractl",
		Short: "Try, install and inspect infra-operator",
		Long: "infractl runs infra-operator on a laptop (sandbox), installs its Helm charts into a cluster " +
			"(install, uninstall), shows every managed AWS resource (status), and checks an install (doctor).",
		SilenceUsage:  true,
		SilenceErrors: true,
		// Every command gets a logger for controller-runtime and client-go, so that none prints
		// their "log.SetLogger(...) was never called" warning; the sandbox's --verbose shows
		// the operators' logs.
		PersistentPreRun: func(*cobra.Command, []string) { setLogger(false) },
	}
	root.AddCommand(newVersionCommand(), newSandboxCommand(), newStatusCommand(), newInstallCommand(), newUninstallCommand(), newPlanCommand(), newDoctorCommand())
	return root
}
