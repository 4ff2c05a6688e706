// Package v1alpha1 holds the API types every infra-operator family shares: the AWSProvider kind
// and the spec and status pieces that every managed kind embeds.
//
// +kubebuilder:object:generate=true
// +groupName=aws-infra-operator.runner.codes
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

// Group is the API group of every infra-operator kind.
const Group = "aws-infra-operator.runner.codes"

var (
	// GroupVersion is the group and version of every infra-operator kind.
	GroupVersion = schema.GroupVersion{Group: Group, Version: "v1alpha1"}

	// SchemeBuilder registers the kinds of this package with a runtime scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the kinds of this package to a runtime scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
