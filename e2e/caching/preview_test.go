package caching_test

import (
	"testing"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPreview runs the shared preview check on an ElastiCacheCluster (its tags): a Preview plans a new object as Create, a
// change of its spec as Update with the fields and values the operator then plans when the
// change is applied, and the applied change as NoChange, each without an AWS write.
func TestPreview(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	subnet, _ := h.network(t, "10.9.0.0/16", "10.9.1.0/24")
	h.subnetGroup(t, "cache", subnet)
	kubetest.RunPreviewCheck(t, h.c, kubetest.PreviewCheck[*v1alpha1.ElastiCacheCluster]{
		New: func(name string) *v1alpha1.ElastiCacheCluster {
			return newCluster(ns, name, func(c *v1alpha1.ElastiCacheCluster) { c.Spec.Tags = map[string]string{"team": "caching"} })
		},
		Change: func(c *v1alpha1.ElastiCacheCluster) { c.Spec.Tags["team"] = "platform" },
		Calls:  h.emu.Calls.Snapshot,
	})
}
