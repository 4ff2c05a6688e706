// Package fake is a family for new-kind's test: one kind, Widget.
package fake

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/operators/fake/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/fake/widget"
	"github.com/runner-codes/infra-operator/shared/engine"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// Family returns the fake family with its kinds.
func Family() operator.Family {
	return operator.Family{
		Name:        "fake",
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme},
		Kinds: []engine.Controller{
			engine.For(widget.Kind()),
		},
	}
}
