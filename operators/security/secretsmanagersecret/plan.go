package secretsmanagersecret

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// plan plans the changes of the secret: its description and KMS key, its value, its rotation,
// its replicas and its tags. The plan shows the description's values; the KMS key is compared
// by ARN, key ID or alias (see sameKey), so its values, in different forms, are not shown.
func (d *driver) plan(plan *managed.Plan, s *v1alpha1.SecretsManagerSecret, out *secretsmanager.DescribeSecretOutput, want *value, tags map[string]string) {
	arn, name := out.ARN, s.Spec.SecretName
	var fields []string
	values := map[string]managed.Values{}
	if aws.ToString(out.Description) != s.Spec.Description {
		fields = append(fields, "description")
		values["description"] = managed.ValuesOf(aws.ToString(out.Description), s.Spec.Description)
	}
	if !sameKey(s.Spec.KMSKeyID, aws.ToString(out.KmsKeyId)) {
		fields = append(fields, "kmsKeyID")
	}
	plan.AddFieldValues(fields, values, func(ctx context.Context) error {
		key := s.Spec.KMSKeyID
		if key == "" {
			key = defaultKey
		}
		_, err := d.api.UpdateSecret(ctx, &secretsmanager.UpdateSecretInput{SecretId: arn, Description: aws.String(s.Spec.Description), KmsKeyId: aws.String(key)})
		return managed.Wrap(err, "update secret %s", name)
	})
	d.planValue(plan, s, out, want)
	d.planRotation(plan, s, out)
	d.planReplicas(plan, s, out)
	plan.AddTags(tags, tagMap(out.Tags), managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.api.TagResource(ctx, &secretsmanager.TagResourceInput{SecretId: arn, Tags: tagList(set)})
		return managed.Wrap(err, "tag secret %s", name)
	}, func(ctx context.Context, keys []string) error {
		_, err := d.api.UntagResource(ctx, &secretsmanager.UntagResourceInput{SecretId: arn, TagKeys: keys})
		return managed.Wrap(err, "untag secret %s", name)
	}))
}

// planValue plans writing the spec's value when the version AWSCURRENT is not the value's
// version (its hash). With rotation on, the rotation function owns the value once the spec's
// value was written, so only a change of the spec's value itself is written. It records the
// value's hash in the status once it is written.
func (d *driver) planValue(plan *managed.Plan, s *v1alpha1.SecretsManagerSecret, out *secretsmanager.DescribeSecretOutput, want *value) {
	if want == nil {
		s.Status.ValueHash = ""
		return
	}
	cur := staged(out, current)
	_, listed := out.VersionIdsToStages[want.version]
	written := cur == want.version || (s.Spec.RotationEnabled && (s.Status.ValueHash == want.version || listed))
	if written {
		s.Status.ValueHash = want.version
		return
	}
	plan.Add("secretString", func(ctx context.Context) error {
		want.warnIgnored(ctx)
		return d.write(ctx, s.Spec.SecretName, out.ARN, cur, want)
	})
}

// write makes want the secret's current value: a new version made with the value's hash as
// its token, or, when a version of that value exists already (Secrets Manager then ignores
// PutSecretValue), the label AWSCURRENT moved back to it.
func (d *driver) write(ctx context.Context, name string, arn *string, cur string, want *value) error {
	put, err := d.api.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{SecretId: arn, SecretString: aws.String(want.str),
		ClientRequestToken: aws.String(want.version)})
	if err != nil {
		return managed.Wrap(err, "write a new value of secret %s", name)
	}
	if slices.Contains(put.VersionStages, current) || cur == "" {
		return nil
	}
	_, err = d.api.UpdateSecretVersionStage(ctx, &secretsmanager.UpdateSecretVersionStageInput{SecretId: arn, VersionStage: aws.String(current),
		MoveToVersionId: aws.String(want.version), RemoveFromVersionId: aws.String(cur)})
	return managed.Wrap(err, "make version %s current in secret %s", want.version, name)
}
