package compute_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/awsfixture"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPolicies runs the shared policy check on a LambdaFunction: its outputs in a ConfigMap,
// a timeout changed outside the operator reported (driftPolicy Report) and then restored
// (Enforce), and a second object that only observes the function.
func TestPolicies(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	kubetest.Create(t, h.c, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "code"},
		BinaryData: map[string][]byte{"function.zip": awsfixture.Zip(t, "index.py", "v1")}})
	name := ns + "-policy-check"
	timeout := func(ctx context.Context) (int32, error) {
		out, err := h.lambda.GetFunctionConfiguration(ctx, &lambda.GetFunctionConfigurationInput{FunctionName: aws.String(name)})
		if err != nil {
			return 0, err
		}
		return aws.ToInt32(out.Timeout), nil
	}
	kubetest.RunPolicyCheck(t, h.c, kubetest.PolicyCheck[*v1alpha1.LambdaFunction]{
		New: func(object string) *v1alpha1.LambdaFunction {
			return newFunction(ns, object, func(f *v1alpha1.LambdaFunction) {
				f.Spec.FunctionName, f.Spec.Timeout = name, 20
				f.Spec.Tags = map[string]string{"team": "compute"}
			})
		},
		Outputs: []string{"functionARN", "functionName"},
		Drift: func(ctx context.Context, _ *v1alpha1.LambdaFunction) error {
			_, err := h.lambda.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: aws.String(name), Timeout: aws.Int32(7)})
			return err
		},
		DriftField: "timeout",
		Drifted: func(ctx context.Context, _ *v1alpha1.LambdaFunction) (bool, error) {
			seconds, err := timeout(ctx)
			return seconds == 7, err
		},
		Exists: func(ctx context.Context, _ *v1alpha1.LambdaFunction) (bool, error) {
			_, err := timeout(ctx)
			return kubetest.Found(err)
		},
	})
}
