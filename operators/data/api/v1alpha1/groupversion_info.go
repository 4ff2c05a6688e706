// Package v1alpha1 holds the data family's kinds: S3Bucket, DynamoDBTable and RDSInstance.
//
// +kubebuilder:object:generate=true
// +groupName=aws-infra-operator.runner.codes
// +versionName=v1alpha1
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

var (
	// SchemeBuilder registers the data family's kinds.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(shared.GroupVersion,
			&S3Bucket{}, &S3BucketList{},
			&DynamoDBTable{}, &DynamoDBTableList{},
			&RDSInstance{}, &RDSInstanceList{},
			&RDSDBParameterGroup{}, &RDSDBParameterGroupList{},
			&RDSDBCluster{}, &RDSDBClusterList{},
		)
		return nil
	})
	// AddToScheme adds the data family's kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
