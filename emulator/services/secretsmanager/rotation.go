package secretsmanager

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// rateExpr is a rate() schedule: rate(10 days), rate(1 day), rate(12 hours).
var rateExpr = regexp.MustCompile(`^rate\((\d+) (day|days|hour|hours)\)$`)

// cronExpr is a cron() schedule of six fields (minutes, hours, day of month, month, day of
// week, year), which the emulator accepts without evaluating.
var cronExpr = regexp.MustCompile(`^cron\(\S+( \S+){5}\)$`)

// durationExpr is a rotation window: 1h to 24h.
var durationExpr = regexp.MustCompile(`^([1-9]|1[0-9]|2[0-4])h$`)

// parseRate returns the count and unit ("day" or "hour") of a rate() expression.
func parseRate(expr string) (n int, unit string, ok bool) {
	m := rateExpr.FindStringSubmatch(expr)
	if m == nil {
		return 0, "", false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return 0, "", false
	}
	return n, strings.TrimSuffix(m[2], "s"), true
}

// checkRules returns the error for rotation rules Secrets Manager refuses: AutomaticallyAfterDays
// outside 1 to 1000, both it and a ScheduleExpression, a schedule that is neither a rate() of
// 4 hours to 1000 days nor a cron() expression, or a window that is not 1h to 24h (Secrets
// Manager User Guide, Rotation schedules).
func checkRules(r *types.RotationRulesType) error {
	if r == nil {
		return nil
	}
	if r.AutomaticallyAfterDays != nil && r.ScheduleExpression != nil {
		return invalidParameter("You can't specify both AutomaticallyAfterDays and ScheduleExpression in RotationRules.")
	}
	if d := r.AutomaticallyAfterDays; d != nil && (*d < 1 || *d > 1000) {
		return invalidParameter("RotationRules.AutomaticallyAfterDays must be within 1-1000.")
	}
	if expr := r.ScheduleExpression; expr != nil {
		n, unit, ok := parseRate(*expr)
		switch {
		case ok && unit == "hour" && (n < 4 || n > 23):
			return invalidParameter("The schedule expression %s is not valid: a rate in hours must be between 4 and 23 hours.", *expr)
		case ok && unit == "day" && (n < 1 || n > 1000):
			return invalidParameter("The schedule expression %s is not valid: a rate in days must be between 1 and 1000 days.", *expr)
		case !ok && !cronExpr.MatchString(*expr):
			return invalidParameter("The schedule expression %s is not valid. Use a rate() or cron() expression.", *expr)
		}
	}
	if d := r.Duration; d != nil && !durationExpr.MatchString(*d) {
		return invalidParameter("The rotation window duration %s is not valid. Specify 1h to 24h.", *d)
	}
	return nil
}

// reportedRules returns rotation rules as DescribeSecret reports them: a rate() schedule in days
// also shows as AutomaticallyAfterDays.
func reportedRules(r *types.RotationRulesType) *types.RotationRulesType {
	out := *r
	if n, unit, ok := parseRate(aws.ToString(r.ScheduleExpression)); ok && unit == "day" && out.AutomaticallyAfterDays == nil {
		out.AutomaticallyAfterDays = aws.Int64(int64(n))
	}
	return &out
}

// rotateSecret sets a secret's rotation function and schedule and, unless RotateImmediately is
// false, rotates it at once as the package documentation describes.
func (b *Backend) rotateSecret(call *core.Call, in *secretsmanager.RotateSecretInput) (*secretsmanager.RotateSecretOutput, error) {
	if err := checkToken(in.ClientRequestToken); err != nil {
		return nil, err
	}
	if len(aws.ToString(in.RotationLambdaARN)) > 2048 {
		return nil, validation("Value at 'rotationLambdaARN' failed to satisfy constraint: Member must have length less than or equal to 2048")
	}
	if err := checkRules(in.RotationRules); err != nil {
		return nil, err
	}
	return withSecret(b, call, b.primary, in.SecretId, func(s *secret) (*secretsmanager.RotateSecretOutput, error) {
		out := &secretsmanager.RotateSecretOutput{ARN: aws.String(s.arn), Name: aws.String(s.name)}
		if in.ClientRequestToken != nil {
			if _, done := s.versions[*in.ClientRequestToken]; done {
				// A retry of the rotation that created this version.
				out.VersionId = in.ClientRequestToken
				return out, nil
			}
		}
		lambda := aws.ToString(in.RotationLambdaARN)
		if lambda == "" {
			lambda = s.rotation.lambda
		}
		if lambda == "" {
			return nil, invalidRequest("You tried to enable rotation on a secret that doesn't already have a Lambda function ARN configured and you didn't include such an ARN as a parameter in this call.")
		}
		if p := s.staged(pending); p != nil && !p.has(current) {
			return nil, invalidRequest("A previous rotation isn't complete. That rotation will be reattempted.")
		}
		s.rotation.lambda, s.rotation.enabled = lambda, true
		if in.RotationRules != nil {
			rules := *in.RotationRules
			s.rotation.rules = &rules
		}
		s.changed = call.Now
		cur := s.staged(current)
		if (in.RotateImmediately != nil && !*in.RotateImmediately) || cur == nil {
			// Without a current value there is nothing a rotation function could rotate; the
			// schedule is set and nothing else happens.
			return out, nil
		}
		// What a successful rotation leaves: createSecret stages a new version AWSPENDING and
		// finishSecret moves AWSCURRENT to it, after which AWSPENDING is no longer attached.
		v := s.addVersion(versionID(in.ClientRequestToken), cur.str, cur.bin, call.Now)
		s.attach(v, pending)
		s.attach(v, current)
		v.remove(pending)
		s.rotation.lastRotated = aws.Time(call.Now)
		out.VersionId = aws.String(v.id)
		return out, nil
	})
}

// cancelRotateSecret turns a secret's automatic rotation off and answers the version of a rotation
// in progress, if any.
func (b *Backend) cancelRotateSecret(call *core.Call, in *secretsmanager.CancelRotateSecretInput) (*secretsmanager.CancelRotateSecretOutput, error) {
	return withSecret(b, call, b.primary, in.SecretId, func(s *secret) (*secretsmanager.CancelRotateSecretOutput, error) {
		if s.rotation.lambda == "" {
			return nil, invalidRequest("You tried to enable rotation on a secret that doesn't already have a Lambda function ARN configured and you didn't include such an ARN as a parameter in this call.")
		}
		s.rotation.enabled = false
		s.changed = call.Now
		out := &secretsmanager.CancelRotateSecretOutput{ARN: aws.String(s.arn), Name: aws.String(s.name)}
		// The version of a rotation in progress, which the caller should remove AWSPENDING from.
		if p := s.staged(pending); p != nil && !p.has(current) {
			out.VersionId = aws.String(p.id)
		}
		return out, nil
	})
}
