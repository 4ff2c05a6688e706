package cloudfrontdistribution

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete takes the distribution through CloudFront's deletion, one step per pass, never
// blocking: an enabled distribution is disabled (UpdateDistribution with the ETag), a disabled
// one is waited for until CloudFront has deployed that (minutes on AWS), and only a disabled
// and Deployed distribution is deleted (DeleteDistribution with the ETag). A step that lost a
// race with another writer (PreconditionFailed) is retried on a fresh observation.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.CloudFrontDistribution, obs managed.Observation[State]) error {
	dist := obs.State.Distribution
	id := aws.ToString(dist.Id)
	if cfg := clone(dist.DistributionConfig); aws.ToBool(cfg.Enabled) {
		cfg.Enabled = aws.Bool(false)
		if err := d.update(ctx, id, obs.State.ETag, cfg); err != nil {
			return err
		}
		return &managed.WaitingError{Reason: condition.ReasonDeleting, After: DeployRecheck,
			Message: "disabled distribution " + id + ": CloudFront deletes it once the change is deployed"}
	}
	if aws.ToString(dist.Status) != deployed {
		return &managed.WaitingError{Reason: condition.ReasonDeleting, After: DeployRecheck,
			Message: "distribution " + id + " is disabled and CloudFront is deploying that (status " + aws.ToString(dist.Status) + "); it is deleted once Deployed"}
	}
	_, err := d.api.DeleteDistribution(ctx, &cloudfront.DeleteDistributionInput{Id: aws.String(id), IfMatch: aws.String(obs.State.ETag)})
	if err == nil || awserr.IsNotFound(err) {
		return nil
	}
	return managed.Wrap(err, "delete distribution %s", id)
}

// ReleaseOwnership removes the ownership tags from the distribution, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.CloudFrontDistribution, obs managed.Observation[State]) error {
	return d.untag(aws.ToString(obs.State.Distribution.ARN))(ctx, managed.OwnershipTagKeys())
}
