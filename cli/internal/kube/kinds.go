package kube

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// Kinds returns every kind of the infra-operator API group that the cluster serves, sorted,
// AWSProvider first.
func Kinds(cfg *rest.Config) ([]string, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to the cluster at %s: %w", cfg.Host, err)
	}
	list, err := dc.ServerResourcesForGroupVersion(v1alpha1.GroupVersion.String())
	if err != nil {
		return nil, fmt.Errorf("no infra-operator kinds in the cluster at %s (install the CRDs with `infractl install`): %w", cfg.Host, err)
	}
	var kinds []string
	for _, r := range list.APIResources {
		if r.Kind != "AWSProvider" && !strings.Contains(r.Name, "/") {
			kinds = append(kinds, r.Kind)
		}
	}
	sort.Strings(kinds)
	return append([]string{"AWSProvider"}, kinds...), nil
}

// States lists every object of kinds in namespace ("" for all namespaces) and returns their
// states, sorted by kind, namespace and name.
func States(ctx context.Context, c client.Reader, kinds []string, namespace string) ([]State, error) {
	now := time.Now()
	var out []State
	for _, kind := range kinds {
		list := &unstructured.UnstructuredList{}
		list.SetGroupVersionKind(schema.GroupVersionKind{Group: v1alpha1.Group, Version: v1alpha1.GroupVersion.Version, Kind: kind + "List"})
		if err := c.List(ctx, list, client.InNamespace(namespace)); err != nil {
			return nil, fmt.Errorf("list %s: %w", kind, err)
		}
		for i := range list.Items {
			out = append(out, StateOf(&list.Items[i], now))
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return false
		}
		if out[i].Namespace != out[j].Namespace {
			return out[i].Namespace < out[j].Namespace
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}
