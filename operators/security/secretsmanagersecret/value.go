package secretsmanagersecret

import (
	"context"
	"fmt"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Where a value comes from, as status.valueSource reports it.
const (
	sourceSecretRef = "secretStringSecretRef"
	sourceSpec      = "secretString"
)

// value is the value the spec gives a secret.
type value struct {
	// str is the value. It never leaves the driver but for Secrets Manager.
	str string
	// source is where it comes from (sourceSecretRef or sourceSpec).
	source string
	// version is its salted, stretched hash in the form of a version id: the
	// ClientRequestToken it is written with, and so the version id it gets.
	version string
	// ignored is true when the spec gives both sources and secretString is ignored.
	ignored bool
}

// desired returns the value s's spec gives, nil when it gives none. A missing Kubernetes
// Secret or key is a *managed.WaitingError that names it.
func (d *driver) desired(ctx context.Context, s *v1alpha1.SecretsManagerSecret) (*value, error) {
	v := &value{str: s.Spec.SecretString, source: sourceSpec}
	if ref := s.Spec.SecretStringSecretRef; ref != nil {
		b, _, err := managed.SecretValue(ctx, d.kube, s.Namespace, "spec.secretStringSecretRef", *ref)
		if err != nil {
			return nil, err
		}
		v = &value{str: string(b), source: sourceSecretRef, ignored: s.Spec.SecretString != ""}
	}
	if v.str == "" {
		return nil, nil
	}
	h, err := managed.ValueHash(v.str, string(s.UID))
	if err != nil {
		return nil, fmt.Errorf("hash the value of secret %s: %w", s.Spec.SecretName, err)
	}
	v.version = h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
	return v, nil
}

// warnIgnored emits the event that says secretString is ignored, when it is, as the value is
// written.
func (v *value) warnIgnored(ctx context.Context) {
	if v.ignored {
		managed.Warn(ctx, condition.ReasonSecretStringIgnored, "spec sets both secretString and secretStringSecretRef: the value comes from the Kubernetes Secret and secretString is ignored; remove it from the spec")
	}
}
