package containers_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPolicies runs the shared policy check on an ECRRepository: its outputs in a ConfigMap,
// tags made mutable outside the operator reported (driftPolicy Report) and then immutable
// again (Enforce), and a second object that only observes the repository.
func TestPolicies(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	const name = "team/policy-check"
	mutability := func(ctx context.Context) (types.ImageTagMutability, error) {
		out, err := h.ecr.DescribeRepositories(ctx, &ecr.DescribeRepositoriesInput{RepositoryNames: []string{name}})
		if err != nil {
			return "", err
		}
		return out.Repositories[0].ImageTagMutability, nil
	}
	kubetest.RunPolicyCheck(t, h.c, kubetest.PolicyCheck[*v1alpha1.ECRRepository]{
		New: func(object string) *v1alpha1.ECRRepository {
			r := newRepository(ns, object, name)
			r.Spec.ImageTagMutability = string(types.ImageTagMutabilityImmutable)
			r.Spec.Tags = map[string]string{"team": "containers"}
			return r
		},
		Outputs: []string{"repositoryURI", "arn", "registryID"},
		Drift: func(ctx context.Context, _ *v1alpha1.ECRRepository) error {
			_, err := h.ecr.PutImageTagMutability(ctx, &ecr.PutImageTagMutabilityInput{RepositoryName: aws.String(name),
				ImageTagMutability: types.ImageTagMutabilityMutable})
			return err
		},
		DriftField: "imageTagMutability",
		Drifted: func(ctx context.Context, _ *v1alpha1.ECRRepository) (bool, error) {
			m, err := mutability(ctx)
			return m == types.ImageTagMutabilityMutable, err
		},
		Exists: func(ctx context.Context, _ *v1alpha1.ECRRepository) (bool, error) {
			_, err := mutability(ctx)
			return kubetest.Found(err)
		},
	})
}
