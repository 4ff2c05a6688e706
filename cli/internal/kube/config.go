// Package kube holds what infractl does with a cluster: loading a kubeconfig with errors a
// person can act on, applying manifests, and reading the state of every managed resource.
package kube

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Config loads the cluster configuration from kubeconfig (or $KUBECONFIG, or ~/.kube/config)
// and the named context (empty: the current one), and checks that the cluster answers.
func Config(ctx context.Context, kubeconfig, kubeContext string) (*rest.Config, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if kubeconfig != "" {
		if _, err := os.Stat(kubeconfig); err != nil {
			return nil, fmt.Errorf("cannot read the kubeconfig %s: %w", kubeconfig, err)
		}
		rules.ExplicitPath = kubeconfig
	}
	loader := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: kubeContext})
	cfg, err := loader.ClientConfig()
	if clientcmd.IsEmptyConfig(err) {
		return nil, errors.New("no kubeconfig: pass --kubeconfig, set KUBECONFIG, or start a local cluster with `infractl sandbox`")
	}
	if err != nil {
		return nil, fmt.Errorf("load the kubeconfig: %w", err)
	}
	cfg.Timeout = 15 * time.Second
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to the cluster at %s: %w", cfg.Host, err)
	}
	reachable := make(chan error, 1)
	go func() { _, err := dc.ServerVersion(); reachable <- err }()
	select {
	case err := <-reachable:
		if err != nil {
			return nil, fmt.Errorf("the cluster at %s is unreachable (is it running, and is the kubeconfig's context right?): %w", cfg.Host, err)
		}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return cfg, nil
}
