// Package v1alpha1 holds the caching family's kinds: ElastiCacheCluster.
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
	// SchemeBuilder registers the caching family's kinds.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(shared.GroupVersion,
			&ElastiCacheCluster{}, &ElastiCacheClusterList{},
			&ElastiCacheParameterGroup{}, &ElastiCacheParameterGroupList{},
		)
		return nil
	})
	// AddToScheme adds the caching family's kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
