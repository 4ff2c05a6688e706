// Package elasticacheparametergroup manages custom ElastiCache cache parameter groups for the
// ElastiCacheParameterGroup kind: the group of a family, and its parameters reconciled as a set
// (modified in batches of 20, reset to the family's defaults when the spec drops them, a value
// changed outside the operator put back).
package elasticacheparametergroup

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the ElastiCacheParameterGroup kind to the engine. A group is usable as soon as
// ElastiCache answers its creation.
func Kind() managed.Kind[*v1alpha1.ElastiCacheParameterGroup, State] {
	return managed.Kind[*v1alpha1.ElastiCacheParameterGroup, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.ElastiCacheParameterGroup) managed.Driver[*v1alpha1.ElastiCacheParameterGroup, State] {
			return &driver{api: provider.Client(s, "elasticache", func(c aws.Config) *elasticache.Client { return elasticache.NewFromConfig(c) })}
		},
	}
}

// driver manages one provider's cache parameter groups.
type driver struct {
	api *elasticache.Client
}

// groupName returns the group's name as ElastiCache keeps it (lower case): the recorded one,
// else the spec's, else the object's.
func groupName(g *v1alpha1.ElastiCacheParameterGroup) string {
	if name := managed.ExternalName(g); name != "" {
		return name
	}
	if g.Spec.Name != "" {
		return strings.ToLower(g.Spec.Name)
	}
	return strings.ToLower(g.Name)
}
