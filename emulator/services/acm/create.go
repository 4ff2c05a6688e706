package acm

import (
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// creating checks a request that makes a certificate (RequestCertificate, ImportCertificate),
// first with check and then its tags, as ACM does before it looks at the region, and runs
// create on what check returns and the tags, holding the backend's mutex.
func creating[C, O any](b *Backend, call *core.Call, list []types.Tag, check func() (C, error), create func(r *region, c C, tags map[string]string) (*O, error)) (*O, error) {
	c, err := check()
	if err != nil {
		return nil, err
	}
	tags, err := core.RequestTags(tagRules, list, core.TagPair[types.Tag])
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*O, error) { return create(r, c, tags) })
}

// newCertificate returns a certificate of the caller's account under a new ARN of its region,
// with the options every certificate starts with, and keeps tags as its tags. The caller holds
// the backend's mutex and keeps the certificate in the region.
func (b *Backend) newCertificate(call *core.Call, tags map[string]string) (*certificate, error) {
	arn := call.Scope().ARN("acm", "certificate/"+core.NewUUID())
	if err := b.tags.Replace(arn, tags); err != nil {
		return nil, err
	}
	return &certificate{arn: arn, account: call.Account,
		options: types.CertificateOptions{CertificateTransparencyLoggingPreference: types.CertificateTransparencyLoggingPreferenceEnabled,
			Export: types.CertificateExportDisabled}}, nil
}
