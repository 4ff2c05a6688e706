// Package lambdaeventsourcemapping manages Lambda event source mappings for the
// LambdaEventSourceMapping kind: Lambda reads an SQS queue, a DynamoDB table's stream or a
// Kinesis stream and invokes a function with batches of records. AWS names a mapping by a UUID
// it chooses and takes no idempotency token, so the kind looks for a mapping of the same
// function and source before creating one and records the UUID the moment AWS answers. A
// mapping is Creating, Updating, Enabling or Disabling for a while after each change: the kind
// waits, never blocks.
package lambdaeventsourcemapping

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the LambdaEventSourceMapping kind to the engine.
func Kind() managed.Kind[*v1alpha1.LambdaEventSourceMapping, State] {
	return managed.Kind[*v1alpha1.LambdaEventSourceMapping, State]{
		// A new mapping is Creating for seconds in AWS (1s in the emulator).
		ReadyIn: transition,
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.LambdaEventSourceMapping) managed.Driver[*v1alpha1.LambdaEventSourceMapping, State] {
			return &driver{api: provider.Client(s, "lambda", func(c aws.Config) *lambda.Client { return lambda.NewFromConfig(c) })}
		},
		References: []managed.Ref[*v1alpha1.LambdaEventSourceMapping]{
			managed.One(targets.LambdaFunction, "spec.functionRef", func(m *v1alpha1.LambdaEventSourceMapping) (*shared.Reference, *string) {
				return m.Spec.FunctionRef, &m.Spec.FunctionName
			}),
			managed.One(targets.SQSQueue, "spec.queueRef", func(m *v1alpha1.LambdaEventSourceMapping) (*shared.Reference, *string) {
				return m.Spec.QueueRef, &m.Spec.EventSourceARN
			}),
			managed.One(targets.DynamoDBTableStream, "spec.tableRef", func(m *v1alpha1.LambdaEventSourceMapping) (*shared.Reference, *string) {
				return m.Spec.TableRef, &m.Spec.EventSourceARN
			}),
		},
	}
}

// driver manages one provider's event source mappings.
type driver struct {
	api *lambda.Client
}
