// Package rdsinstance manages RDS DB instances for the RDSInstance kind, with the DB subnet
// group the operator makes from subnets when the spec names none.
package rdsinstance

import (
	"errors"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdswindows"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the RDSInstance kind to the engine.
func Kind() managed.Kind[*v1alpha1.RDSInstance, State] {
	return managed.Kind[*v1alpha1.RDSInstance, State]{
		Validate: validate,
		References: []managed.Ref[*v1alpha1.RDSInstance]{
			managed.One(targets.KMSKey, "spec.kmsKeyRef", func(i *v1alpha1.RDSInstance) (*shared.Reference, *string) {
				return i.Spec.KMSKeyRef, &i.Spec.KMSKeyID
			}),
			managed.One(targets.KMSKey, "spec.performanceInsights.kmsKeyRef", func(i *v1alpha1.RDSInstance) (*shared.Reference, *string) {
				if p := i.Spec.PerformanceInsights; p != nil {
					return p.KMSKeyRef, &p.KMSKeyID
				}
				return nil, nil
			}),
			managed.List(targets.SecurityGroup, "spec.securityGroupRefs", "", func(i *v1alpha1.RDSInstance) ([]shared.Reference, *shared.Selector, *[]string) {
				return i.Spec.SecurityGroupRefs, nil, &i.Spec.VPCSecurityGroupIDs
			}),
			managed.List(targets.Subnet, "spec.subnetRefs", "", func(i *v1alpha1.RDSInstance) ([]shared.Reference, *shared.Selector, *[]string) {
				return i.Spec.SubnetRefs, nil, &i.Spec.SubnetIDs
			}),
			managed.One(targets.RDSInstance, "spec.replicaSourceRef", func(i *v1alpha1.RDSInstance) (*shared.Reference, *string) {
				return i.Spec.ReplicaSourceRef, &i.Spec.ReplicaSourceIdentifier
			}),
			managed.One(targets.RDSInstance, "spec.restoreFrom.pointInTime.sourceRef", func(i *v1alpha1.RDSInstance) (*shared.Reference, *string) {
				if r := i.Spec.RestoreFrom; r != nil && r.PointInTime != nil {
					return r.PointInTime.SourceRef, &r.PointInTime.SourceDBInstanceIdentifier
				}
				return nil, nil
			}),
			managed.One(targets.RDSDBParameterGroup, "spec.dbParameterGroupRef", func(i *v1alpha1.RDSInstance) (*shared.Reference, *string) {
				return i.Spec.DBParameterGroupRef, &i.Spec.DBParameterGroupName
			}),
		},
		Connect: func(s *provider.Session, kube client.Reader, _ *v1alpha1.RDSInstance) managed.Driver[*v1alpha1.RDSInstance, State] {
			api := provider.Client(s, "rds", func(c aws.Config) *rds.Client { return rds.NewFromConfig(c) })
			return &driver{api: api, kube: kube, instances: listing(s, api)}
		},
		Secrets: func(i *v1alpha1.RDSInstance) []string { return []string{i.Spec.MasterUserPasswordSecretRef.Name} },
		// An instance is creating, then backing up, for minutes in AWS (2s each in the emulator).
		ReadyIn: 2 * time.Second,
	}
}

// validate checks what admission cannot: storage throughput is a gp3 setting, storage
// autoscaling needs a ceiling above the allocated storage, and the backup window stays out of
// the maintenance window.
func validate(i *v1alpha1.RDSInstance) error {
	s := &i.Spec
	if s.StorageThroughput != nil && s.StorageType != "gp3" {
		return errors.New("storageThroughput is only set with storageType gp3")
	}
	if s.MaxAllocatedStorage != nil && *s.MaxAllocatedStorage <= s.AllocatedStorage {
		return errors.New("maxAllocatedStorage must be greater than allocatedStorage")
	}
	return rdswindows.Check(s.PreferredBackupWindow, s.PreferredMaintenanceWindow)
}

// identifier returns the instance's identifier as RDS stores it: lowercased.
func identifier(i *v1alpha1.RDSInstance) string {
	if id := managed.ExternalName(i); id != "" {
		return id
	}
	return strings.ToLower(i.Spec.DBInstanceIdentifier)
}

// driver manages one provider's RDS DB instances.
type driver struct {
	api *rds.Client
	// kube reads the Secret that holds the master password.
	kube client.Reader
	// instances serves periodic syncs from one listing of the provider's DB instances.
	instances *managed.Listing[types.DBInstance]
}
