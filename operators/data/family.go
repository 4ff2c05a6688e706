// Package data is the data family of infra-operator: S3Bucket, DynamoDBTable, RDSInstance,
// RDSDBParameterGroup and RDSDBCluster.
package data

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/crds"
	"github.com/runner-codes/infra-operator/operators/data/dynamodbtable"
	"github.com/runner-codes/infra-operator/operators/data/rdsdbcluster"
	"github.com/runner-codes/infra-operator/operators/data/rdsdbparametergroup"
	"github.com/runner-codes/infra-operator/operators/data/rdsinstance"
	"github.com/runner-codes/infra-operator/operators/data/s3bucket"
	"github.com/runner-codes/infra-operator/shared/engine"
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
		Kinds: []engine.Controller{
			engine.For(s3bucket.Kind()),
			engine.For(dynamodbtable.Kind()),
			engine.For(rdsinstance.Kind()),
			engine.For(rdsdbparametergroup.Kind()),
			engine.For(rdsdbcluster.Kind()),
		},
	}
}
