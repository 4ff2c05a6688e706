package lambdafunction

import (
	"context"
	"fmt"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// environment returns the function's environment variables: the spec's values, and the values
// of the Secrets it names, read through kube (see managed.SecretValue). The values are only
// sent to Lambda: never logged, reported or written to the object.
func (d *driver) environment(ctx context.Context, f *v1alpha1.LambdaFunction) (map[string]string, error) {
	env := f.Spec.Environment
	if env == nil {
		return map[string]string{}, nil
	}
	out := make(map[string]string, len(env.Variables)+len(env.FromSecrets))
	for k, v := range env.Variables {
		out[k] = v
	}
	for i, v := range env.FromSecrets {
		value, _, err := managed.SecretValue(ctx, d.kube, f.Namespace, fmt.Sprintf("spec.environment.fromSecrets[%d]", i), v.SecretKeyRef)
		if err != nil {
			return nil, err
		}
		out[v.Name] = string(value)
	}
	return out, nil
}
