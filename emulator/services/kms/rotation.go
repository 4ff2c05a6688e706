package kms

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The automatic rotation period, in days: 90 to 2560, 365 when EnableKeyRotation gives none
// (EnableKeyRotation, RotationPeriodInDays).
const (
	minRotationDays     = 90
	maxRotationDays     = 2560
	defaultRotationDays = 365
)

// withRotatable runs f, holding b.mu, on the key ref names whose rotation operation may change
// (rotatable), and returns f's answer or rotatable's error.
func withRotatable[O any](b *Backend, call *core.Call, ref *string, operation string, f func(*key) (*O, error)) (*O, error) {
	return core.Holding(&b.mu, func() (*key, error) { return b.rotatable(call, aws.ToString(ref), operation) }, f)
}

// rotatable returns the key whose automatic rotation EnableKeyRotation or DisableKeyRotation
// changes, when it may: a customer managed symmetric encryption key that is enabled and, for a
// multi-Region key, the primary, whose rotation its replicas share. The caller holds b.mu.
func (b *Backend) rotatable(call *core.Call, ref, operation string) (*key, error) {
	_, k, err := b.lookup(call, ref, false)
	if err != nil {
		return nil, err
	}
	if err := customerOnly(call, k, operation); err != nil {
		return nil, err
	}
	if err := k.usable(); err != nil {
		return nil, err
	}
	if !k.symmetricEncryption() {
		return nil, unsupported("%s is a %s key with key usage %s; automatic rotation is supported for symmetric encryption keys only.", k.arn, k.spec, k.usage)
	}
	if k.replica() {
		return nil, unsupported("%s is a multi-Region replica key; its automatic rotation is set on its primary key in %s.", k.arn, k.primary)
	}
	return k, nil
}

// enableKeyRotation turns on automatic rotation of a key's material every RotationPeriodInDays (EnableKeyRotation).
func (b *Backend) enableKeyRotation(call *core.Call, in *kms.EnableKeyRotationInput) (*kms.EnableKeyRotationOutput, error) {
	period := int32(defaultRotationDays)
	if in.RotationPeriodInDays != nil {
		switch period = *in.RotationPeriodInDays; {
		case period < minRotationDays:
			return nil, tooSmall("rotationPeriodInDays", period, minRotationDays)
		case period > maxRotationDays:
			return nil, tooLarge("rotationPeriodInDays", period, maxRotationDays)
		}
	}
	return withRotatable(b, call, in.KeyId, "EnableKeyRotation", func(k *key) (*kms.EnableKeyRotationOutput, error) {
		m := k.material
		m.rotation, m.period, m.next = true, period, call.Now.Add(time.Duration(period)*day)
		return &kms.EnableKeyRotationOutput{}, nil
	})
}

// disableKeyRotation turns off automatic rotation of a key's material (DisableKeyRotation).
func (b *Backend) disableKeyRotation(call *core.Call, in *kms.DisableKeyRotationInput) (*kms.DisableKeyRotationOutput, error) {
	return withRotatable(b, call, in.KeyId, "DisableKeyRotation", func(k *key) (*kms.DisableKeyRotationOutput, error) {
		m := k.material
		m.rotation, m.period, m.next = false, 0, time.Time{}
		return &kms.DisableKeyRotationOutput{}, nil
	})
}

// getKeyRotationStatus answers a key's automatic rotation settings (GetKeyRotationStatus).
func (b *Backend) getKeyRotationStatus(call *core.Call, in *kms.GetKeyRotationStatusInput) (*kms.GetKeyRotationStatusOutput, error) {
	return withKey(b, call, in.KeyId, false, func(k *key) (*kms.GetKeyRotationStatusOutput, error) {
		if !k.symmetricEncryption() {
			return nil, unsupported("%s is a %s key with key usage %s; automatic rotation is supported for symmetric encryption keys only.", k.arn, k.spec, k.usage)
		}
		m := k.material
		m.rotate(call.Now)
		out := &kms.GetKeyRotationStatusOutput{KeyId: aws.String(k.arn), KeyRotationEnabled: m.rotation}
		if m.rotation {
			out.RotationPeriodInDays, out.NextRotationDate = aws.Int32(m.period), aws.Time(m.next)
		}
		return out, nil
	})
}
