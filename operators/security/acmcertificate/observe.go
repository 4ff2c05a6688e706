package acmcertificate

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what ACM said about a certificate.
type State struct {
	// Certificate is DescribeCertificate's answer.
	Certificate *types.CertificateDetail
}

// Observe reads the certificate (DescribeCertificate and ListTagsForCertificate; the TLS Secret
// too for an imported one), fills the status, reports it Ready once ISSUED, and plans the
// changes that bring it in line with the spec: its tags, its transparency logging preference,
// the validation records of a pending one into the hosted zone the spec names, and for an
// imported certificate a new import when the Secret's certificate changed.
func (d *driver) Observe(ctx context.Context, c *v1alpha1.ACMCertificate, req managed.Request) (managed.Observation[State], error) {
	arn := managed.ExternalName(c)
	if arn == "" {
		found, err := d.find(ctx, c)
		if err != nil || found == "" {
			return managed.Observation[State]{}, err
		}
		arn = found
		managed.SetExternalName(c, arn)
	}
	out, err := d.api.DescribeCertificate(ctx, &acm.DescribeCertificateInput{CertificateArn: aws.String(arn)})
	if awserr.IsNotFound(err) {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("describe certificate %s: %w", arn, err)
	}
	tags, err := d.tags(ctx, arn)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	cert := out.Certificate
	fillStatus(c, cert)
	obs := managed.Observation[State]{Exists: true, State: &State{Certificate: cert}, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	if obs.Conflict = mismatch(c, cert); obs.Conflict != nil {
		return obs, nil
	}
	d.planTags(&obs.Changes, arn, req.Tags, tags)
	if c.Spec.ImportFrom == nil {
		d.planTransparency(&obs.Changes, c, cert)
		if err := d.planValidationRecords(ctx, &obs, c, cert); err != nil {
			return managed.Observation[State]{}, err
		}
	} else if err := d.planReimport(ctx, &obs, c, cert); err != nil {
		return managed.Observation[State]{}, err
	}
	if obs.Conflict == nil {
		readiness(&obs, c, cert, d.timing)
	}
	return obs, nil
}

// tags returns the tags of the certificate arn names.
func (d *driver) tags(ctx context.Context, arn string) (map[string]string, error) {
	out, err := d.api.ListTagsForCertificate(ctx, &acm.ListTagsForCertificateInput{CertificateArn: aws.String(arn)})
	if err != nil {
		return nil, fmt.Errorf("list the tags of certificate %s: %w", arn, err)
	}
	return tagMap(out.Tags), nil
}

// tagMap returns ACM tags as a map; a tag without a value has the empty one.
func tagMap(tags []types.Tag) map[string]string {
	return managed.TagMap(tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
}

// tagList returns tags as ACM takes them.
func tagList(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}
