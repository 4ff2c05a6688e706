package cli

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/cli/internal/kube"
)

// clusterFlags are the flags that choose a cluster.
type clusterFlags struct {
	kubeconfig, context string
}

func (f *clusterFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.kubeconfig, "kubeconfig", "", "path of the kubeconfig (default: $KUBECONFIG or ~/.kube/config)")
	fs.StringVar(&f.context, "context", "", "kubeconfig context to use (default: the current one)")
}

// connect loads the cluster's configuration and a client for it.
func (f *clusterFlags) connect(ctx context.Context) (*rest.Config, client.Client, error) {
	cfg, err := kube.Config(ctx, f.kubeconfig, f.context)
	if err != nil {
		return nil, nil, err
	}
	c, err := newClient(cfg)
	return cfg, c, err
}

// newClient returns an uncached client that knows the built-in kinds; infra-operator's kinds
// are read as unstructured objects.
func newClient(cfg *rest.Config) (client.Client, error) {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return nil, fmt.Errorf("build the scheme: %w", err)
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return nil, fmt.Errorf("connect to the cluster at %s: %w", cfg.Host, err)
	}
	return c, nil
}
