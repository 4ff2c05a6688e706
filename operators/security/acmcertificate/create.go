package acmcertificate

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create requests the certificate from ACM, or imports it from its TLS Secret, with the tags
// (the ownership tags included), and records its ARN.
func (d *driver) Create(ctx context.Context, c *v1alpha1.ACMCertificate, req managed.Request) error {
	if c.Spec.ImportFrom != nil {
		return d.importNew(ctx, c, req)
	}
	return d.request(ctx, c, req)
}

// request requests a public certificate for the spec's names, with RequestCertificate's
// idempotency token derived from the object's UID: a request whose answer was lost and that is
// made again within the hour answers the same certificate.
func (d *driver) request(ctx context.Context, c *v1alpha1.ACMCertificate, req managed.Request) error {
	in := &acm.RequestCertificateInput{
		DomainName:              aws.String(c.Spec.DomainName),
		SubjectAlternativeNames: c.Spec.SubjectAlternativeNames,
		ValidationMethod:        validationMethod(c),
		KeyAlgorithm:            keyAlgorithm(c),
		IdempotencyToken:        aws.String(idempotencyToken(c.GetUID())),
		Options:                 &types.CertificateOptions{CertificateTransparencyLoggingPreference: transparency(c)},
		Tags:                    tagList(req.Tags),
	}
	for _, o := range c.Spec.DomainValidationOptions {
		in.DomainValidationOptions = append(in.DomainValidationOptions,
			types.DomainValidationOption{DomainName: aws.String(o.DomainName), ValidationDomain: aws.String(o.ValidationDomain)})
	}
	out, err := d.api.RequestCertificate(ctx, in)
	if err != nil {
		return managed.Wrap(err, "request a certificate for %s", c.Spec.DomainName)
	}
	managed.SetExternalName(c, aws.ToString(out.CertificateArn))
	return nil
}
