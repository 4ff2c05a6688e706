package testenv

import (
	"context"
	"fmt"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/metadata"
)

const (
	// wipeTimeout bounds the deletion of a finished test's objects.
	wipeTimeout = 30 * time.Second
	// uninstallTimeout bounds the removal of the CRDs the next test does not ask for.
	uninstallTimeout = 30 * time.Second
)

// builtins are the built-in namespaced resources that tests and the operators they run write
// (credentials and outputs, events, leader election leases, RBAC), which wipe deletes outside
// the control plane's own namespaces.
var builtins = []schema.GroupVersionResource{
	{Version: "v1", Resource: "secrets"},
	{Version: "v1", Resource: "configmaps"},
	{Version: "v1", Resource: "events"},
	{Version: "v1", Resource: "serviceaccounts"},
	{Group: "events.k8s.io", Version: "v1", Resource: "events"},
	{Group: "coordination.k8s.io", Version: "v1", Resource: "leases"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"},
}

// wipe deletes every object of the CRDs installed in c, in every namespace, removing their
// finalizers first, and the built-in objects tests write (builtins) outside kube-system,
// kube-public and kube-node-lease: the test that made them has ended and its controllers are
// stopped, and the next test must find a cluster as a new control plane would have it (tests
// use fixed namespaces such as "default" and "production" too).
func (c *ControlPlane) wipe() error {
	ctx, cancel := context.WithTimeout(context.Background(), wipeTimeout)
	defer cancel()
	mc, err := metadata.NewForConfig(c.Config)
	if err != nil {
		return fmt.Errorf("metadata client: %w", err)
	}
	if err := wipeCustom(ctx, mc, c.installed); err != nil {
		return err
	}
	for _, gvr := range builtins {
		list, err := mc.Resource(gvr).List(ctx, metav1.ListOptions{})
		if err != nil {
			return fmt.Errorf("list %s: %w", gvr.GroupResource(), err)
		}
		namespaces := map[string]bool{}
		for _, o := range list.Items {
			if !strings.HasPrefix(o.Namespace, "kube-") {
				namespaces[o.Namespace] = true
			}
		}
		for ns := range namespaces {
			if err := mc.Resource(gvr).Namespace(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
				return fmt.Errorf("delete the %s of %s: %w", gvr.GroupResource(), ns, err)
			}
		}
	}
	return nil
}

// wipeCustom deletes every object of the CRDs installed, in every namespace, removing their
// finalizers first, since the controllers that would have are stopped.
func wipeCustom(ctx context.Context, mc metadata.Interface, installed map[string]*apiextensionsv1.CustomResourceDefinition) error {
	for _, d := range installed {
		gvr := schema.GroupVersionResource{Group: d.Spec.Group, Version: storageVersion(d), Resource: d.Spec.Names.Plural}
		list, err := mc.Resource(gvr).List(ctx, metav1.ListOptions{})
		if err != nil {
			return fmt.Errorf("list %s: %w", gvr.GroupResource(), err)
		}
		for _, o := range list.Items {
			r := mc.Resource(gvr).Namespace(o.Namespace)
			if len(o.Finalizers) > 0 {
				_, err := r.Patch(ctx, o.Name, types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
				if err != nil && !apierrors.IsNotFound(err) {
					return fmt.Errorf("remove the finalizers of %s %s/%s: %w", gvr.GroupResource(), o.Namespace, o.Name, err)
				}
			}
			if err := r.Delete(ctx, o.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return fmt.Errorf("delete %s %s/%s: %w", gvr.GroupResource(), o.Namespace, o.Name, err)
			}
		}
	}
	return nil
}

// storageVersion returns the version in which d's objects are stored.
func storageVersion(d *apiextensionsv1.CustomResourceDefinition) string {
	for _, v := range d.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return d.Spec.Versions[0].Name
}

// equalCRD reports whether a and b define the same resource in the same way.
func equalCRD(a, b *apiextensionsv1.CustomResourceDefinition) bool {
	return equality.Semantic.DeepEqual(a.Spec, b.Spec)
}
