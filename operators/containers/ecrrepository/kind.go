// Package ecrrepository manages private Amazon ECR repositories for the ECRRepository kind.
package ecrrepository

import (
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the ECRRepository kind to the engine.
func Kind() managed.Kind[*v1alpha1.ECRRepository, State] {
	return managed.Kind[*v1alpha1.ECRRepository, State]{
		Validate: validate,
		References: []managed.Ref[*v1alpha1.ECRRepository]{
			managed.One(targets.KMSKey, "spec.encryptionConfiguration.kmsKeyRef", func(r *v1alpha1.ECRRepository) (*shared.Reference, *string) {
				if e := r.Spec.EncryptionConfiguration; e != nil {
					return e.KMSKeyRef, &e.KMSKey
				}
				return nil, nil
			}),
		},
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.ECRRepository) managed.Driver[*v1alpha1.ECRRepository, State] {
			return &driver{api: provider.Client(s, "ecr", func(c aws.Config) *ecr.Client { return ecr.NewFromConfig(c) })}
		},
	}
}

// validate checks what admission cannot: the lifecycle policy is a JSON object and the
// repository policy a JSON policy document.
func validate(r *v1alpha1.ECRRepository) error {
	if doc := r.Spec.LifecyclePolicy; doc != "" {
		var rules map[string]any
		if err := json.Unmarshal([]byte(doc), &rules); err != nil {
			return fmt.Errorf("spec.lifecyclePolicy is not a JSON object of lifecycle rules: %w", err)
		}
	}
	if doc := r.Spec.RepositoryPolicy; doc != "" {
		if _, err := policy.Parse(doc); err != nil {
			return fmt.Errorf("spec.repositoryPolicy: %w", err)
		}
	}
	return nil
}

// driver manages one provider's ECR repositories.
type driver struct {
	api *ecr.Client
}
