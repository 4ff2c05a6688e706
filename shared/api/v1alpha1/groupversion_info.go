// Package v1alpha1 holds the API types every infra-operator family shares: the AWSProvider kind
// and the spec and status pieces that every managed kind embeds.
//
// +kubebuilder:object:generate=true
// +groupName=aws-infra-operator.runner.codes
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Group is the API group of every infra-operator kind.
const Group = "aws-infra-operator.runner.codes"

var (
	// GroupVersion is the group and version of every infra-operator kind.
	GroupVersion = schema.GroupVersion{Group: Group, Version: "v1alpha1"}

	// SchemeBuilder registers the kinds of this package with a runtime scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)

	// AddToScheme adds the kinds of this package to a runtime scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &AWSProvider{}, &AWSProviderList{}, &ClusterAWSProvider{}, &ClusterAWSProviderList{}, &Preview{}, &PreviewList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
