package acm

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/acm"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// updateCertificateOptions sets a certificate's transparency logging preference
// (UpdateCertificateOptions: opt in to or out of certificate transparency logging); an export
// option given with it is kept as well.
func (b *Backend) updateCertificateOptions(call *core.Call, in *acm.UpdateCertificateOptionsInput) (*acm.UpdateCertificateOptionsOutput, error) {
	o := in.Options
	if o == nil {
		return nil, validation("1 validation error detected: Value null at 'options' failed to satisfy constraint: Member must not be null")
	}
	if p := o.CertificateTransparencyLoggingPreference; p != "" && !slices.Contains(p.Values(), p) {
		return nil, validation("1 validation error detected: Value '%s' at 'options.certificateTransparencyLoggingPreference' failed to satisfy constraint: Member must satisfy enum value set: [ENABLED, DISABLED]", p)
	}
	if e := o.Export; e != "" && !slices.Contains(e.Values(), e) {
		return nil, validation("1 validation error detected: Value '%s' at 'options.export' failed to satisfy constraint: Member must satisfy enum value set: [ENABLED, DISABLED]", e)
	}
	return core.Locked(b.state, call, func(r *region) (*acm.UpdateCertificateOptionsOutput, error) {
		c, err := lookup(r, call, in.CertificateArn)
		if err != nil {
			return nil, err
		}
		if o.CertificateTransparencyLoggingPreference != "" {
			c.options.CertificateTransparencyLoggingPreference = o.CertificateTransparencyLoggingPreference
		}
		if o.Export != "" {
			c.options.Export = o.Export
		}
		return &acm.UpdateCertificateOptionsOutput{}, nil
	})
}
