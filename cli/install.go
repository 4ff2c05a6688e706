package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/storage/driver"

	"github.com/runner-codes/infra-operator/charts"
	"github.com/runner-codes/infra-operator/cli/internal/kube"
)

// releasePrefix names the Helm release of each family: infra-operator-<family>.
const releasePrefix = "infra-operator-"

// helmFlags are the flags install and uninstall share.
type helmFlags struct {
	cluster   clusterFlags
	namespace string
	families  []string
}

func (f *helmFlags) add(cmd *cobra.Command, familiesHelp string) {
	f.cluster.add(cmd.Flags())
	cmd.Flags().StringVarP(&f.namespace, "namespace", "n", "infra-operator", "namespace of the operators and their Helm releases")
	cmd.Flags().StringSliceVar(&f.families, "families", nil, familiesHelp)
}

// chosenFamilies returns the families named by --families (all when none), refusing unknown
// names.
func (f *helmFlags) chosenFamilies() ([]string, error) { return chooseFamilies(f.families) }

// chooseFamilies returns names (every family when empty), refusing unknown names.
func chooseFamilies(names []string) ([]string, error) {
	if len(names) == 0 {
		return charts.Families(), nil
	}
	for _, name := range names {
		if !slices.Contains(charts.Families(), name) {
			return nil, fmt.Errorf("unknown family %q: choose among %s", name, strings.Join(charts.Families(), ", "))
		}
	}
	return names, nil
}

// helm checks that the cluster answers and returns Helm's configuration for it.
func (f *helmFlags) helm(cmd *cobra.Command) (*action.Configuration, error) {
	if _, err := kube.Config(cmd.Context(), f.cluster.kubeconfig, f.cluster.context); err != nil {
		return nil, err
	}
	return kube.HelmConfig(f.cluster.kubeconfig, f.cluster.context, f.namespace, nil)
}

func newInstallCommand() *cobra.Command {
	var f helmFlags
	var valuesFile string
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Install or upgrade family charts into the cluster of the current kubeconfig context",
		Long: "install installs each chosen family's chart as its own Helm release (infra-operator-<family>), or\n" +
			"upgrades the release when it exists. CRDs are installed and upgraded with the charts and kept on uninstall.",
		Example: "  infractl install --families networking,data --values my-values.yaml",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fams, err := f.chosenFamilies()
			if err != nil {
				return err
			}
			values := map[string]any{}
			if valuesFile != "" {
				v, err := chartutil.ReadValuesFile(valuesFile)
				if err != nil {
					return fmt.Errorf("read the values file %s: %w", valuesFile, err)
				}
				values = v.AsMap()
			}
			cfg, err := f.helm(cmd)
			if err != nil {
				return err
			}
			for _, family := range fams {
				if err := installFamily(cmd.OutOrStdout(), cfg, f.namespace, family, values); err != nil {
					return err
				}
			}
			return nil
		},
	}
	f.add(cmd, "families to install, comma-separated (default: all)")
	cmd.Flags().StringVarP(&valuesFile, "values", "f", "", "YAML file of chart values, applied to every chosen family")
	return cmd
}

// installFamily installs the family's release, or upgrades it when it exists.
func installFamily(out io.Writer, cfg *action.Configuration, namespace, family string, values map[string]any) error {
	chart, err := charts.Load(family)
	if err != nil {
		return err
	}
	name := releasePrefix + family
	_, err = action.NewHistory(cfg).Run(name)
	switch {
	case errors.Is(err, driver.ErrReleaseNotFound):
		in := action.NewInstall(cfg)
		in.ReleaseName, in.Namespace, in.CreateNamespace = name, namespace, true
		rel, err := in.Run(chart, values)
		if err != nil {
			return fmt.Errorf("install %s: %w", name, err)
		}
		fmt.Fprintf(out, "installed %s (chart %s %s) in namespace %s\n", rel.Name, chart.Metadata.Name, chart.Metadata.Version, namespace)
	case err != nil:
		return fmt.Errorf("look up the release %s: %w", name, err)
	default:
		up := action.NewUpgrade(cfg)
		up.Namespace = namespace
		rel, err := up.Run(name, chart, values)
		if err != nil {
			return fmt.Errorf("upgrade %s: %w", name, err)
		}
		fmt.Fprintf(out, "upgraded %s to chart %s %s (revision %d)\n", rel.Name, chart.Metadata.Name, chart.Metadata.Version, rel.Version)
	}
	return nil
}

func newUninstallCommand() *cobra.Command {
	var f helmFlags
	cmd := &cobra.Command{
		Use:   "uninstall",
		Short: "Remove family releases; their CRDs, managed resources and AWS resources are kept",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fams, err := f.chosenFamilies()
			if err != nil {
				return err
			}
			cfg, err := f.helm(cmd)
			if err != nil {
				return err
			}
			removed := 0
			for _, family := range fams {
				name := releasePrefix + family
				_, err := action.NewUninstall(cfg).Run(name)
				if errors.Is(err, driver.ErrReleaseNotFound) {
					continue
				}
				if err != nil {
					return fmt.Errorf("uninstall %s: %w", name, err)
				}
				removed++
				fmt.Fprintf(cmd.OutOrStdout(), "uninstalled %s\n", name)
			}
			if removed == 0 {
				return fmt.Errorf("no infra-operator release of %s in namespace %s", strings.Join(fams, ", "), f.namespace)
			}
			fmt.Fprintln(cmd.OutOrStdout(), "CRDs and managed resources are kept; delete CRDs by hand only once their resources are gone")
			return nil
		},
	}
	f.add(cmd, "families to uninstall, comma-separated (default: all installed)")
	return cmd
}
