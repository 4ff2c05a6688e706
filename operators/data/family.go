// Package data is the data family of infra-operator: S3Bucket, DynamoDBTable and RDSInstance.
package data

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/crds"
	"github.com/runner-codes/infra-operator/operators/data/dynamodbtable"
	"github.com/runner-codes/infra-operator/operators/data/rdsinstance"
	"github.com/runner-codes/infra-operator/operators/data/s3bucket"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// Name is the family's name.
const Name = "data"

// Family returns the data family with its kinds.
func Family() operator.Family {
	return operator.Family{
		Name:        Name,
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme},
		CRDs:        crds.FS(),
		Setup:       Setup,
	}
}

// Setup registers the controllers of the data family's kinds with mgr.
func Setup(ctx context.Context, mgr ctrl.Manager, opts managed.SetupOptions) error {
	if err := managed.Setup(ctx, mgr, s3bucket.Kind(), opts); err != nil {
		return fmt.Errorf("set up S3Bucket: %w", err)
	}
	if err := managed.Setup(ctx, mgr, dynamodbtable.Kind(), opts); err != nil {
		return fmt.Errorf("set up DynamoDBTable: %w", err)
	}
	if err := managed.Setup(ctx, mgr, rdsinstance.Kind(), opts); err != nil {
		return fmt.Errorf("set up RDSInstance: %w", err)
	}
	return nil
}
