package acmcertificate

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// planTags plans adding and removing tags so that the certificate carries desired.
func (d *driver) planTags(plan *managed.Plan, arn string, desired, observed map[string]string) {
	plan.AddTags(desired, observed, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.api.AddTagsToCertificate(ctx, &acm.AddTagsToCertificateInput{CertificateArn: aws.String(arn), Tags: tagList(set)})
		return managed.Wrap(err, "tag certificate %s", arn)
	}, func(ctx context.Context, keys []string) error {
		_, err := d.api.RemoveTagsFromCertificate(ctx, &acm.RemoveTagsFromCertificateInput{CertificateArn: aws.String(arn), Tags: keyTags(keys)})
		return managed.Wrap(err, "untag certificate %s", arn)
	}))
}

// keyTags returns tag keys as RemoveTagsFromCertificate takes them: without values, so that
// each tag goes whatever its value.
func keyTags(keys []string) []types.Tag {
	out := make([]types.Tag, 0, len(keys))
	for _, k := range keys {
		out = append(out, types.Tag{Key: aws.String(k)})
	}
	return out
}

// planTransparency plans setting the certificate transparency logging preference of a
// requested certificate.
func (d *driver) planTransparency(plan *managed.Plan, c *v1alpha1.ACMCertificate, cert *types.CertificateDetail) {
	want := transparency(c)
	if o := cert.Options; o == nil || o.CertificateTransparencyLoggingPreference == want {
		return
	}
	arn := aws.ToString(cert.CertificateArn)
	plan.AddValue("certificateTransparencyLoggingPreference", cert.Options.CertificateTransparencyLoggingPreference, want, func(ctx context.Context) error {
		_, err := d.api.UpdateCertificateOptions(ctx, &acm.UpdateCertificateOptionsInput{CertificateArn: aws.String(arn),
			Options: &types.CertificateOptions{CertificateTransparencyLoggingPreference: want}})
		return managed.Wrap(err, "set the transparency logging preference of certificate %s", arn)
	})
}

// lower returns domain names in lower case: DNS names compare without regard to case.
func lower(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.ToLower(n)
	}
	return out
}

// mismatch returns the terminal error for a certificate that is not what the spec describes
// and that ACM cannot change (a certificate adopted by its ARN, or requested by hand): another
// type, names, key algorithm or validation method. nil means it matches.
func mismatch(c *v1alpha1.ACMCertificate, cert *types.CertificateDetail) error {
	arn := aws.ToString(cert.CertificateArn)
	var differs []string
	if c.Spec.ImportFrom != nil {
		if cert.Type != types.CertificateTypeImported {
			differs = append(differs, "type "+string(cert.Type)+", not IMPORTED")
		}
	} else {
		if cert.Type != types.CertificateTypeAmazonIssued {
			differs = append(differs, "type "+string(cert.Type)+", not AMAZON_ISSUED")
		}
		if got := aws.ToString(cert.DomainName); !strings.EqualFold(got, c.Spec.DomainName) {
			differs = append(differs, "domain name "+got+", not "+c.Spec.DomainName)
		}
		if want := requestedNames(c); !managed.SameSet(lower(cert.SubjectAlternativeNames), lower(want)) {
			differs = append(differs, "names "+strings.Join(cert.SubjectAlternativeNames, ",")+", not "+strings.Join(want, ","))
		}
		if want := keyAlgorithm(c); cert.KeyAlgorithm != want {
			differs = append(differs, "key algorithm "+string(cert.KeyAlgorithm)+", not "+string(want))
		}
		if v := cert.DomainValidationOptions; len(v) > 0 && v[0].ValidationMethod != validationMethod(c) {
			differs = append(differs, "validation method "+string(v[0].ValidationMethod)+", not "+string(validationMethod(c)))
		}
	}
	if len(differs) == 0 {
		return nil
	}
	return managed.Terminal(condition.ReasonInvalidSpec, "certificate %s has %s, and ACM cannot change a certificate's type, names or key: "+
		"adopt a certificate that matches the spec, or create a new ACMCertificate", arn, strings.Join(differs, "; "))
}
