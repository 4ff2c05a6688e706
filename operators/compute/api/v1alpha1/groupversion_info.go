// Package v1alpha1 holds the compute family's kinds: EC2Instance, LambdaFunction and
// EKSCluster.
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
	// SchemeBuilder registers the compute family's kinds.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(shared.GroupVersion,
			&EC2Instance{}, &EC2InstanceList{},
			&LambdaFunction{}, &LambdaFunctionList{},
			&EKSCluster{}, &EKSClusterList{},
			&LambdaEventSourceMapping{}, &LambdaEventSourceMappingList{},
			&LambdaAlias{}, &LambdaAliasList{},
			&EKSAccessEntry{}, &EKSAccessEntryList{},
			&EKSPodIdentityAssociation{}, &EKSPodIdentityAssociationList{},
		)
		return nil
	})
	// AddToScheme adds the compute family's kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
