// Package lambdaalias manages Lambda aliases for the LambdaAlias kind: a name for a version of
// a function, with an optional weighted second version for a gradual rollout. Aliases carry no
// tags: the kind claims an alias of its name only when its own create made it, and AWS answers
// every change at once.
package lambdaalias

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

// Kind declares the LambdaAlias kind to the engine.
func Kind() managed.Kind[*v1alpha1.LambdaAlias, State] {
	return managed.Kind[*v1alpha1.LambdaAlias, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.LambdaAlias) managed.Driver[*v1alpha1.LambdaAlias, State] {
			return &driver{api: provider.Client(s, "lambda", func(c aws.Config) *lambda.Client { return lambda.NewFromConfig(c) })}
		},
		References: []managed.Ref[*v1alpha1.LambdaAlias]{
			managed.One(targets.LambdaFunction, "spec.functionRef", func(a *v1alpha1.LambdaAlias) (*shared.Reference, *string) {
				return a.Spec.FunctionRef, &a.Spec.FunctionName
			}),
		},
	}
}

// driver manages one provider's aliases.
type driver struct {
	api *lambda.Client
}
