// Package v1alpha1 holds the fake family's kinds.
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

var (
	// SchemeBuilder registers the fake family's kinds.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(shared.GroupVersion,
			&Widget{}, &WidgetList{},
		)
		return nil
	})
	// AddToScheme adds the fake family's kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
