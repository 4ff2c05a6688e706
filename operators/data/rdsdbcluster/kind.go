// Package rdsdbcluster manages Aurora DB clusters (aurora-postgresql, aurora-mysql) for the
// RDSDBCluster kind: the cluster, its DB instances (the writer and its readers, named
// <dbClusterIdentifier>-1, -2, ...) as one object, and the DB subnet group the operator makes
// from subnets when the spec names none.
package rdsdbcluster

import (
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdswindows"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the RDSDBCluster kind to the engine. Every reference only reads its target
// (the cluster writes into none of them), as RDSInstance's do.
func Kind() managed.Kind[*v1alpha1.RDSDBCluster, State] {
	return managed.Kind[*v1alpha1.RDSDBCluster, State]{
		Validate: validate,
		References: []managed.Ref[*v1alpha1.RDSDBCluster]{
			managed.One(targets.KMSKey, "spec.kmsKeyRef", func(c *v1alpha1.RDSDBCluster) (*shared.Reference, *string) {
				return c.Spec.KMSKeyRef, &c.Spec.KMSKeyID
			}),
			managed.One(targets.KMSKey, "spec.masterUserSecretKMSKeyRef", func(c *v1alpha1.RDSDBCluster) (*shared.Reference, *string) {
				return c.Spec.MasterUserSecretKMSKeyRef, &c.Spec.MasterUserSecretKMSKeyID
			}),
			managed.One(targets.KMSKey, "spec.instances.performanceInsights.kmsKeyRef", func(c *v1alpha1.RDSDBCluster) (*shared.Reference, *string) {
				if p := c.Spec.Instances.PerformanceInsights; p != nil {
					return p.KMSKeyRef, &p.KMSKeyID
				}
				return nil, nil
			}),
			managed.List(targets.SecurityGroup, "spec.securityGroupRefs", "", func(c *v1alpha1.RDSDBCluster) ([]shared.Reference, *shared.Selector, *[]string) {
				return c.Spec.SecurityGroupRefs, nil, &c.Spec.VPCSecurityGroupIDs
			}),
			managed.List(targets.Subnet, "spec.subnetRefs", "", func(c *v1alpha1.RDSDBCluster) ([]shared.Reference, *shared.Selector, *[]string) {
				return c.Spec.SubnetRefs, nil, &c.Spec.SubnetIDs
			}),
			managed.One(targets.RDSDBParameterGroup, "spec.dbClusterParameterGroupRef", func(c *v1alpha1.RDSDBCluster) (*shared.Reference, *string) {
				return c.Spec.DBClusterParameterGroupRef, &c.Spec.DBClusterParameterGroupName
			}),
		},
		Connect: func(s *provider.Session, kube client.Reader, _ *v1alpha1.RDSDBCluster) managed.Driver[*v1alpha1.RDSDBCluster, State] {
			return &driver{api: provider.Client(s, "rds", func(c aws.Config) *rds.Client { return rds.NewFromConfig(c) }), kube: kube}
		},
		Secrets: func(c *v1alpha1.RDSDBCluster) []string {
			if ref := c.Spec.MasterUserPasswordSecretRef; ref != nil {
				return []string{ref.Name}
			}
			return nil
		},
		// A cluster and its instances are creating for minutes in AWS (2s in the emulator).
		ReadyIn: 2 * time.Second,
	}
}

// validate checks what admission cannot: the backup window stays out of the maintenance window.
func validate(c *v1alpha1.RDSDBCluster) error {
	return rdswindows.Check(c.Spec.PreferredBackupWindow, c.Spec.PreferredMaintenanceWindow)
}

// identifier returns the cluster's identifier as RDS stores it: lowercased.
func identifier(c *v1alpha1.RDSDBCluster) string {
	if id := managed.ExternalName(c); id != "" {
		return id
	}
	return strings.ToLower(c.Spec.DBClusterIdentifier)
}

// driver manages one provider's Aurora DB clusters.
type driver struct {
	api *rds.Client
	// kube reads the Secret that holds the master password and the parameter group a
	// reference names.
	kube client.Reader
}

// optional returns s for a request, or nil when the spec leaves it empty (AWS's default).
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}
