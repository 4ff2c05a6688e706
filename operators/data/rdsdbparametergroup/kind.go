// Package rdsdbparametergroup manages custom RDS DB parameter groups and, for spec.scope
// Cluster, DB cluster parameter groups (Aurora) for the RDSDBParameterGroup kind: the group of a
// family, and its parameters reconciled as a set (modified in batches of 20, reset to the
// engine's defaults when the spec drops them), with the apply method each parameter's type
// allows when the spec gives none. The two scopes differ only in RDS's calls (see groups).
package rdsdbparametergroup

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the RDSDBParameterGroup kind to the engine. A group is usable as soon as RDS
// answers its creation. The driver calls the API of the group's scope, which cannot change.
func Kind() managed.Kind[*v1alpha1.RDSDBParameterGroup, State] {
	return managed.Kind[*v1alpha1.RDSDBParameterGroup, State]{
		Connect: func(s *provider.Session, _ client.Reader, g *v1alpha1.RDSDBParameterGroup) managed.Driver[*v1alpha1.RDSDBParameterGroup, State] {
			c := provider.Client(s, "rds", func(c aws.Config) *rds.Client { return rds.NewFromConfig(c) })
			return &driver{api: c, groups: groupsOf(c, g.Spec.Scope)}
		},
	}
}

// driver manages one provider's parameter groups of one scope.
type driver struct {
	// api tags the groups.
	api api
	// groups are the calls of the group's scope.
	groups groups
}

// groupName returns the group's name as RDS keeps it (lower case): the recorded one, else the
// spec's, else the object's.
func groupName(g *v1alpha1.RDSDBParameterGroup) string {
	if name := managed.ExternalName(g); name != "" {
		return name
	}
	if g.Spec.Name != "" {
		return strings.ToLower(g.Spec.Name)
	}
	return strings.ToLower(g.Name)
}
