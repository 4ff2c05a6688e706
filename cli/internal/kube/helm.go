package kube

import (
	"fmt"
	"log"

	"helm.sh/helm/v3/pkg/action"
	"k8s.io/cli-runtime/pkg/genericclioptions"
)

// HelmConfig returns a Helm action configuration for the cluster of kubeconfig and kubeContext
// (empty: the defaults), working in namespace, with Helm's debug output sent to debug (nil
// drops it).
func HelmConfig(kubeconfig, kubeContext, namespace string, debug *log.Logger) (*action.Configuration, error) {
	flags := genericclioptions.NewConfigFlags(true)
	flags.Namespace = &namespace
	if kubeconfig != "" {
		flags.KubeConfig = &kubeconfig
	}
	if kubeContext != "" {
		flags.Context = &kubeContext
	}
	cfg := new(action.Configuration)
	logf := func(string, ...any) {}
	if debug != nil {
		logf = debug.Printf
	}
	if err := cfg.Init(flags, namespace, "secret", logf); err != nil {
		return nil, fmt.Errorf("set up Helm for namespace %s: %w", namespace, err)
	}
	return cfg, nil
}
