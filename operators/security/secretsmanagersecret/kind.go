// Package secretsmanagersecret manages Secrets Manager secrets for the SecretsManagerSecret
// kind: the secret with its description, KMS key and tags, its value from the spec or a
// Kubernetes Secret (written only when it differs, compared by a salted hash, never by reading
// or keeping the value), its rotation and its replicas. A secret awaiting deletion whose object
// is created again is restored and reused.
package secretsmanagersecret

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the SecretsManagerSecret kind to the engine.
func Kind() managed.Kind[*v1alpha1.SecretsManagerSecret, State] {
	return managed.Kind[*v1alpha1.SecretsManagerSecret, State]{
		Connect: func(s *provider.Session, kube client.Reader, _ *v1alpha1.SecretsManagerSecret) managed.Driver[*v1alpha1.SecretsManagerSecret, State] {
			return &driver{api: provider.Client(s, "secretsmanager", func(c aws.Config) *secretsmanager.Client { return secretsmanager.NewFromConfig(c) }),
				kube: kube}
		},
		Secrets: func(s *v1alpha1.SecretsManagerSecret) []string {
			if ref := s.Spec.SecretStringSecretRef; ref != nil {
				return []string{ref.Name}
			}
			return nil
		},
		References: []managed.Ref[*v1alpha1.SecretsManagerSecret]{
			managed.One(targets.KMSKey, "spec.kmsKeyRef", func(s *v1alpha1.SecretsManagerSecret) (*shared.Reference, *string) {
				return s.Spec.KMSKeyRef, &s.Spec.KMSKeyID
			}),
		},
	}
}

// driver manages one provider's secrets; kube reads the Kubernetes Secrets that hold values.
type driver struct {
	api  *secretsmanager.Client
	kube client.Reader
}
