package acm

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// describeCertificate returns the detail of a certificate.
func (b *Backend) describeCertificate(call *core.Call, in *acm.DescribeCertificateInput) (*acm.DescribeCertificateOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*acm.DescribeCertificateOutput, error) {
		c, err := lookup(r, call, in.CertificateArn)
		if err != nil {
			return nil, err
		}
		return &acm.DescribeCertificateOutput{Certificate: c.detail()}, nil
	})
}

// getCertificate returns the PEM certificate and chain of an issued or imported certificate.
func (b *Backend) getCertificate(call *core.Call, in *acm.GetCertificateInput) (*acm.GetCertificateOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*acm.GetCertificateOutput, error) {
		c, err := lookup(r, call, in.CertificateArn)
		if err != nil {
			return nil, err
		}
		if c.status == types.CertificateStatusPendingValidation {
			return nil, core.Errorf("RequestInProgressException", "Certificate %s is still pending validation and has not been issued yet.", c.arn)
		}
		if c.certPEM == nil {
			if err := b.sign(c); err != nil {
				return nil, err
			}
		}
		out := &acm.GetCertificateOutput{Certificate: aws.String(string(c.certPEM))}
		if len(c.chainPEM) > 0 {
			out.CertificateChain = aws.String(string(c.chainPEM))
		}
		return out, nil
	})
}

// deleteCertificate deletes a certificate that nothing uses.
func (b *Backend) deleteCertificate(call *core.Call, in *acm.DeleteCertificateInput) (*acm.DeleteCertificateOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*acm.DeleteCertificateOutput, error) {
		c, err := lookup(r, call, in.CertificateArn)
		if err != nil {
			return nil, err
		}
		if len(c.inUseBy) > 0 {
			return nil, core.Errorf("ResourceInUseException", "Certificate %s in account %s is in use by %v.", c.arn, call.Account, c.inUseBy)
		}
		delete(r.certs, c.arn)
		b.tags.Delete(c.arn)
		return &acm.DeleteCertificateOutput{}, nil
	})
}
