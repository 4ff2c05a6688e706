package acmcertificate

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the certificate, then the validation records the operator wrote for it that
// no other certificate of the namespace uses. ACM refuses to delete a certificate that a load
// balancer (or another service) uses, with ResourceInUseException: a retryable error
// (status.inUseBy names the users), so that the object goes once they let the certificate go.
func (d *driver) Delete(ctx context.Context, c *v1alpha1.ACMCertificate, obs managed.Observation[State]) error {
	arn := aws.ToString(obs.State.Certificate.CertificateArn)
	_, err := d.api.DeleteCertificate(ctx, &acm.DeleteCertificateInput{CertificateArn: aws.String(arn)})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "delete certificate %s", arn)
	}
	return d.deleteValidationRecords(ctx, c, obs.State.Certificate)
}

// ReleaseOwnership removes the ownership tags from the certificate, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.ACMCertificate, obs managed.Observation[State]) error {
	arn := obs.State.Certificate.CertificateArn
	_, err := d.api.RemoveTagsFromCertificate(ctx, &acm.RemoveTagsFromCertificateInput{CertificateArn: arn, Tags: keyTags(managed.OwnershipTagKeys())})
	return managed.Wrap(err, "remove the ownership tags of certificate %s", aws.ToString(arn))
}
