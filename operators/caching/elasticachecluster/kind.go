// Package elasticachecluster manages ElastiCache clusters for the ElastiCacheCluster kind: a
// standalone cache cluster, or a replication group where AWS demands one (see
// v1alpha1.ElastiCacheClusterSpec.Mode), with the cache subnet group the operator makes from
// subnets when the spec names none.
package elasticachecluster

import (
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the ElastiCacheCluster kind to the engine.
func Kind() managed.Kind[*v1alpha1.ElastiCacheCluster, State] {
	return managed.Kind[*v1alpha1.ElastiCacheCluster, State]{
		Validate: validate,
		References: []managed.Ref[*v1alpha1.ElastiCacheCluster]{
			managed.List(targets.SecurityGroup, "spec.securityGroupRefs", "", func(c *v1alpha1.ElastiCacheCluster) ([]shared.Reference, *shared.Selector, *[]string) {
				return c.Spec.SecurityGroupRefs, nil, &c.Spec.SecurityGroupIDs
			}),
			managed.List(targets.Subnet, "spec.subnetRefs", "", func(c *v1alpha1.ElastiCacheCluster) ([]shared.Reference, *shared.Selector, *[]string) {
				return c.Spec.SubnetRefs, nil, &c.Spec.SubnetIDs
			}),
			managed.One(targets.ElastiCacheParameterGroup, "spec.parameterGroupRef", func(c *v1alpha1.ElastiCacheCluster) (*shared.Reference, *string) {
				return c.Spec.ParameterGroupRef, &c.Spec.ParameterGroupName
			}),
		},
		Connect: func(s *provider.Session, kube client.Reader, _ *v1alpha1.ElastiCacheCluster) managed.Driver[*v1alpha1.ElastiCacheCluster, State] {
			return &driver{api: provider.Client(s, "elasticache", func(c aws.Config) *elasticache.Client { return elasticache.NewFromConfig(c) }), kube: kube}
		},
		Secrets: func(c *v1alpha1.ElastiCacheCluster) []string {
			if ref := c.Spec.AuthTokenSecretRef; ref != nil {
				return []string{ref.Name}
			}
			return nil
		},
		// A cluster is creating for minutes in AWS (2s in the emulator).
		ReadyIn: 2 * time.Second,
	}
}

// validate checks what admission cannot: the snapshot window stays out of the maintenance
// window, as ElastiCache requires.
func validate(c *v1alpha1.ElastiCacheCluster) error {
	return checkWindows(c.Spec.SnapshotWindow, c.Spec.PreferredMaintenanceWindow)
}

// identifier returns the cluster's id as ElastiCache stores it: lowercased.
func identifier(c *v1alpha1.ElastiCacheCluster) string {
	if id := managed.ExternalName(c); id != "" {
		return id
	}
	return strings.ToLower(c.Spec.ClusterID)
}

// applyImmediately reports whether changes are applied now rather than in the maintenance
// window: unset means now.
func applyImmediately(s *v1alpha1.ElastiCacheClusterSpec) bool {
	return s.ApplyImmediately == nil || *s.ApplyImmediately
}

// driver manages one provider's ElastiCache clusters.
type driver struct {
	api *elasticache.Client
	// kube reads the Secret that holds the AUTH token.
	kube client.Reader
}

// checkWindows refuses a snapshot window that meets the maintenance window on any day, which
// ElastiCache refuses.
func checkWindows(snapshot, maintenance string) error {
	if managed.WindowsOverlap(snapshot, maintenance) {
		return fmt.Errorf("snapshotWindow %s overlaps preferredMaintenanceWindow %s: snapshots run every day, and ElastiCache refuses a snapshot window that meets the maintenance window; move one of them", snapshot, maintenance)
	}
	return nil
}
