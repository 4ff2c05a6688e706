package lambdafunction

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// maxEnvironment is the largest size Lambda takes for a function's environment variables: 4 KB
// for all of them together (Lambda quotas), names and values as one JSON object (see
// environmentSize).
const maxEnvironment = 4096

// environment returns the function's environment variables: the spec's values, and the values
// of the Secrets it names, read through kube (see managed.SecretValue, which registers them as
// secret in the pass). The values are only sent to Lambda: never logged, reported or written
// to the object.
//
// An environment larger than Lambda takes is a terminal EnvironmentTooLarge error that names
// its size and no value, before any request: Lambda's own refusal quotes every variable,
// Secret values included.
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
	if size := environmentSize(out); size > maxEnvironment {
		return nil, managed.Terminal(condition.ReasonEnvironmentTooLarge, "the environment of function %s is %d bytes (its %d variables, the values of "+
			"spec.environment.fromSecrets included, measured as Lambda measures them), over the %d bytes Lambda allows; move large values out "+
			"of the environment (the function can read them from Secrets Manager or SSM Parameter Store)", f.Spec.FunctionName, size, len(out), maxEnvironment)
	}
	return out, nil
}

// environmentSize returns the size of env as Lambda measures it against maxEnvironment: the
// length in bytes of the variables as one compact JSON object of names and values, the string
// Lambda's refusal quotes as "String measured". The characters <, > and & count as the six
// bytes of their JSON escapes (\u003c), as encoding/json writes them and the emulator counts
// them: where Lambda counts them as one byte, an environment within a few bytes of the limit
// that holds them is refused here rather than sent, which is the side to err on, since
// Lambda's refusal quotes every value.
func environmentSize(env map[string]string) int {
	b, _ := json.Marshal(env) // A map of strings always encodes.
	return len(b)
}
