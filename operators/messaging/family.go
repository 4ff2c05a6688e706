// Package messaging is the messaging family of infra-operator: SQSQueue and SNSTopic.
package messaging

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging/crds"
	"github.com/runner-codes/infra-operator/operators/messaging/snstopic"
	"github.com/runner-codes/infra-operator/operators/messaging/sqsqueue"
	"github.com/runner-codes/infra-operator/shared/engine"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// Name is the family's name.
const Name = "messaging"

// Family returns the messaging family with its kinds.
func Family() operator.Family {
	return operator.Family{
		Name:        Name,
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme},
		CRDs:        crds.FS(),
		Kinds: []engine.Controller{
			engine.For(sqsqueue.Kind()),
			engine.For(snstopic.Kind()),
		},
	}
}
