package acmcertificate

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// find returns the ARN of the certificate this object created and did not record (a create
// whose answer was lost), "" when there is none. It looks only while a create is pending,
// since otherwise there is nothing to find: through the account's certificates of every key
// algorithm (of the spec's domain name, for a requested one), for the one whose ownership tags
// name the object.
func (d *driver) find(ctx context.Context, c *v1alpha1.ACMCertificate) (string, error) {
	if c.GetAnnotations()[shared.AnnotationCreatePending] == "" {
		return "", nil
	}
	var owned []string
	pages := acm.NewListCertificatesPaginator(d.api, &acm.ListCertificatesInput{Includes: &types.Filters{KeyTypes: types.KeyAlgorithm("").Values()}})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return "", fmt.Errorf("list certificates: %w", err)
		}
		for _, s := range page.CertificateSummaryList {
			if c.Spec.ImportFrom == nil && !strings.EqualFold(aws.ToString(s.DomainName), c.Spec.DomainName) {
				continue
			}
			arn := aws.ToString(s.CertificateArn)
			tags, err := d.tags(ctx, arn)
			if err != nil {
				return "", err
			}
			if managed.OwnedBy(c, tags) {
				owned = append(owned, arn)
			}
		}
	}
	if len(owned) > 1 {
		managed.Warn(ctx, condition.ReasonDuplicateResources, "certificates %s all carry this object's ownership tags; %s is used, delete the others",
			strings.Join(owned, ", "), owned[0])
	}
	if len(owned) == 0 {
		return "", nil
	}
	return owned[0], nil
}
