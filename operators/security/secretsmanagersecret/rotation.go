package secretsmanagersecret

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// planRotation plans turning rotation on (rotating at once, as AWS does by default when it is
// turned on), changing its function or schedule (without rotating), or turning it off. The plan
// shows the values of rotationEnabled and rotationLambdaARN; the rules are compared only in
// what the spec gives (see sameRules), so theirs are not shown.
func (d *driver) planRotation(plan *managed.Plan, s *v1alpha1.SecretsManagerSecret, out *secretsmanager.DescribeSecretOutput) {
	arn, name, on := out.ARN, s.Spec.SecretName, aws.ToBool(out.RotationEnabled)
	if !s.Spec.RotationEnabled {
		if on {
			plan.AddValue("rotationEnabled", true, false, func(ctx context.Context) error {
				_, err := d.api.CancelRotateSecret(ctx, &secretsmanager.CancelRotateSecretInput{SecretId: arn})
				return managed.Wrap(err, "turn off the rotation of secret %s", name)
			})
		}
		return
	}
	var fields []string
	values := map[string]managed.Values{}
	if !on {
		fields = append(fields, "rotationEnabled")
		values["rotationEnabled"] = managed.ValuesOf(false, true)
	}
	if aws.ToString(out.RotationLambdaARN) != s.Spec.RotationLambdaARN {
		fields = append(fields, "rotationLambdaARN")
		values["rotationLambdaARN"] = managed.ValuesOf(aws.ToString(out.RotationLambdaARN), s.Spec.RotationLambdaARN)
	}
	if !sameRules(s.Spec.RotationRules, out.RotationRules) {
		fields = append(fields, "rotationRules")
	}
	plan.AddFieldValues(fields, values, func(ctx context.Context) error {
		in := &secretsmanager.RotateSecretInput{SecretId: arn, RotationLambdaARN: aws.String(s.Spec.RotationLambdaARN), RotationRules: rules(s.Spec.RotationRules)}
		if on {
			in.RotateImmediately = aws.Bool(false)
		}
		_, err := d.api.RotateSecret(ctx, in)
		return managed.Wrap(err, "set the rotation of secret %s", name)
	})
}

// rules returns the spec's rotation rules as Secrets Manager takes them.
func rules(r *v1alpha1.RotationRules) *types.RotationRulesType {
	out := &types.RotationRulesType{}
	if r.AutomaticallyAfterDays != 0 {
		out.AutomaticallyAfterDays = aws.Int64(r.AutomaticallyAfterDays)
	}
	if r.ScheduleExpression != "" {
		out.ScheduleExpression = aws.String(r.ScheduleExpression)
	}
	if r.Duration != "" {
		out.Duration = aws.String(r.Duration)
	}
	return out
}

// sameRules reports whether Secrets Manager's rotation rules are the spec's. Secrets Manager
// reports a schedule given in days with a rate expression as well, so only what the spec
// gives is compared.
func sameRules(want *v1alpha1.RotationRules, got *types.RotationRulesType) bool {
	if got == nil {
		return false
	}
	if want.AutomaticallyAfterDays != 0 && aws.ToInt64(got.AutomaticallyAfterDays) != want.AutomaticallyAfterDays {
		return false
	}
	if want.ScheduleExpression != "" && aws.ToString(got.ScheduleExpression) != want.ScheduleExpression {
		return false
	}
	return aws.ToString(got.Duration) == want.Duration
}
