package containers_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/containers"
	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestBinary builds the containers-operator binary and runs it, as a Deployment would, against
// a real control plane and the AWS emulator: an ECR repository becomes Ready, the AWS call
// metrics count its creation, a change of its tag mutability reaches ECR, and the binary exits
// cleanly on SIGTERM.
func TestBinary(t *testing.T) {
	kubetest.RunBinaryCheck(t, kubetest.BinaryCheck{
		Family: containers.Family(),
		AWS:    emulator.New(emulator.Options{}),
		Object: func(ns string) shared.Managed {
			r := &v1alpha1.ECRRepository{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "images"}}
			r.Spec.ProviderRef.Name = "aws"
			r.Spec.RepositoryName = ns + "/images"
			return r
		},
		Metrics: []string{
			`infra_operator_aws_api_calls_total{operation="CreateRepository",outcome="success",service="ECR"} 1`,
			`infra_operator_resources{kind="ECRRepository",ready="true"} 1`,
		},
		Then: func(t *testing.T, env *testenv.Env, ns string) {
			kubetest.Update(t, env.Client, &v1alpha1.ECRRepository{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "images"}}, func(r *v1alpha1.ECRRepository) {
				r.Spec.ImageTagMutability = "IMMUTABLE"
			})
			api := ecr.NewFromConfig(env.AWSConfig("AKIDBINARY", "binary-secret"))
			testenv.Eventually(t, 30*time.Second, func() string {
				out, err := api.DescribeRepositories(context.Background(), &ecr.DescribeRepositoriesInput{RepositoryNames: []string{ns + "/images"}})
				if err != nil {
					return err.Error()
				}
				if out.Repositories[0].ImageTagMutability != types.ImageTagMutabilityImmutable {
					return "the repository's tags are still mutable"
				}
				return ""
			})
		},
	})
}
