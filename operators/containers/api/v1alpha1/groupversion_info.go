// Package v1alpha1 holds the containers family's kinds: ECRRepository and ECSCluster.
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
	// SchemeBuilder registers the containers family's kinds.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(shared.GroupVersion,
			&ECRRepository{}, &ECRRepositoryList{},
			&ECSCluster{}, &ECSClusterList{},
			&ECSTaskDefinition{}, &ECSTaskDefinitionList{},
			&ECSService{}, &ECSServiceList{},
		)
		return nil
	})
	// AddToScheme adds the containers family's kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
