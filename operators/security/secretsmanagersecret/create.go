package secretsmanagersecret

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the secret with its description, KMS key, replicas, tags (the ownership tags
// included) and value, if the spec gives one, and records its name; rotation follows as a
// change of the next look, in the same pass. The value's hash is the ClientRequestToken, so a
// retry of a create whose answer was lost is recognised by Secrets Manager; a secret made
// without a value is ResourceExistsException on retry, and Observe claims it by its tags.
func (d *driver) Create(ctx context.Context, s *v1alpha1.SecretsManagerSecret, req managed.Request) error {
	want, err := d.desired(ctx, s)
	if err != nil {
		return err
	}
	name := s.Spec.SecretName
	in := &secretsmanager.CreateSecretInput{Name: aws.String(name), Tags: tagList(req.Tags), AddReplicaRegions: replicas(s)}
	if s.Spec.Description != "" {
		in.Description = aws.String(s.Spec.Description)
	}
	if key := defaultKeyAsEmpty(s.Spec.KMSKeyID); key != "" {
		in.KmsKeyId = aws.String(key)
	}
	if want != nil {
		want.warnIgnored(ctx)
		in.SecretString, in.ClientRequestToken = aws.String(want.str), aws.String(want.version)
	}
	_, err = d.api.CreateSecret(ctx, in)
	if awserr.Code(err) == "ResourceExistsException" {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create secret %s: %w", name, err)
	}
	managed.SetExternalName(s, name)
	return nil
}
