// Package messaging is the messaging family of infra-operator: SQSQueue and SNSTopic.
package messaging

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging/crds"
	"github.com/runner-codes/infra-operator/operators/messaging/snstopic"
	"github.com/runner-codes/infra-operator/operators/messaging/sqsqueue"
	"github.com/runner-codes/infra-operator/shared/managed"
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
		Setup:       Setup,
	}
}

// Setup registers the controllers of the messaging family's kinds with mgr.
func Setup(ctx context.Context, mgr ctrl.Manager, opts managed.SetupOptions) error {
	if err := managed.Setup(ctx, mgr, sqsqueue.Kind(), opts); err != nil {
		return fmt.Errorf("set up SQSQueue: %w", err)
	}
	if err := managed.Setup(ctx, mgr, snstopic.Kind(), opts); err != nil {
		return fmt.Errorf("set up SNSTopic: %w", err)
	}
	return nil
}
