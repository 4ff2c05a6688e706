package cloudfrontdistribution

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete takes the distribution through CloudFront's deletion, one step per pass, never
// blocking: an enabled distribution is disabled (UpdateDistribution with the ETag), a disabled
// one is waited for until CloudFront has deployed that (minutes on AWS), and only a disabled
// and Deployed distribution is deleted (DeleteDistribution with the ETag), after its statement
// is removed from the policy of every bucket its origin access control reads, and followed by
// the deletion of that control. A control left when the distribution is gone (its deletion
// failed, or the distribution was never made) is deleted alone. A step that lost a race with
// another writer (PreconditionFailed) is retried on a fresh observation.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.CloudFrontDistribution, obs managed.Observation[State]) error {
	dist, control := obs.State.Distribution, obs.State.Control
	if dist == nil {
		return d.deleteControl(ctx, control)
	}
	id := aws.ToString(dist.Id)
	if cfg := clone(dist.DistributionConfig); aws.ToBool(cfg.Enabled) {
		cfg.Enabled = aws.Bool(false)
		if err := d.update(ctx, id, obs.State.ETag, cfg); err != nil {
			return err
		}
		return &managed.WaitingError{Reason: condition.ReasonDeleting, After: d.deployRecheck,
			Message: "disabled distribution " + id + ": CloudFront deletes it once the change is deployed"}
	}
	if aws.ToString(dist.Status) != deployed {
		return &managed.WaitingError{Reason: condition.ReasonDeleting, After: d.deployRecheck,
			Message: "distribution " + id + " is disabled and CloudFront is deploying that (status " + aws.ToString(dist.Status) + "); it is deleted once Deployed"}
	}
	if err := d.revokeAll(ctx, dist, control); err != nil {
		return err
	}
	_, err := d.api.DeleteDistribution(ctx, &cloudfront.DeleteDistributionInput{Id: aws.String(id), IfMatch: aws.String(obs.State.ETag)})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "delete distribution %s", id)
	}
	if control == nil {
		return nil
	}
	return d.deleteControl(ctx, control)
}

// revokeAll removes the distribution's statement from the policy of every bucket that an
// origin reads through the distribution's origin access control.
func (d *driver) revokeAll(ctx context.Context, dist *types.Distribution, control *accessControl) error {
	if control == nil || dist.DistributionConfig.Origins == nil {
		return nil
	}
	for _, o := range dist.DistributionConfig.Origins.Items {
		if aws.ToString(o.OriginAccessControlId) != control.ID {
			continue
		}
		if err := d.revoke(ctx, aws.ToString(dist.Id), bucketOf(aws.ToString(o.DomainName))); err != nil {
			return err
		}
	}
	return nil
}

// ReleaseOwnership removes the ownership tags from the distribution, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.CloudFrontDistribution, obs managed.Observation[State]) error {
	return d.untag(aws.ToString(obs.State.Distribution.ARN))(ctx, managed.OwnershipTagKeys())
}
