package cloudfrontdistribution

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// deployed is the status of a distribution whose last change has reached every edge location.
const deployed = "Deployed"

// State is what CloudFront said about a distribution.
type State struct {
	// Distribution is GetDistribution's answer: the configuration and the deployment status;
	// nil while an object being deleted has only its origin access control left.
	Distribution *types.Distribution
	// ETag is the configuration's version, which every change names in If-Match.
	ETag string
	// Control is the distribution's origin access control; nil when it has none.
	Control *accessControl
}

// Observe reads the distribution (GetDistribution: configuration, status and ETag), its tags
// and, with S3 origins, its origin access control and the policies of its buckets; it fills
// the status and plans: the origin access control made or restored, the distribution's
// statement removed from the buckets of origins leaving the spec, one UpdateDistribution
// carrying the whole configuration with the spec applied when any field differs, the
// statement added to the policy of each bucket that lacks it, and the tag changes. The
// distribution is Ready once Deployed; while CloudFront deploys it (InProgress, minutes on
// AWS) it is looked at again after the wait recheck returns. A distribution is found by its
// recorded id only: its create is idempotent on the CallerReference (the object's UID), so a
// create whose answer was lost and that is made again answers the same distribution. An
// object being deleted whose distribution is gone but whose origin access control is not
// still exists, so that Delete removes the control.
func (d *driver) Observe(ctx context.Context, o *v1alpha1.CloudFrontDistribution, req managed.Request) (managed.Observation[State], error) {
	id := managed.ExternalName(o)
	if id == "" && !req.Deleting {
		return managed.Observation[State]{}, nil // Create finds or makes the control.
	}
	var control *accessControl
	if hasS3Origin(o) || o.Status.OriginAccessControlID != "" {
		var err error
		if control, err = d.findControl(ctx, o); err != nil {
			return managed.Observation[State]{}, err
		}
		fillControlStatus(o, control)
	}
	leftover := managed.Observation[State]{Exists: req.Deleting && control != nil, State: &State{Control: control}}
	if id == "" {
		return leftover, nil
	}
	out, err := d.api.GetDistribution(ctx, &cloudfront.GetDistributionInput{Id: aws.String(id)})
	if awserr.IsNotFound(err) {
		return leftover, nil
	}
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("get distribution %s: %w", id, err)
	}
	dist, etag := out.Distribution, aws.ToString(out.ETag)
	fillStatus(o, dist, etag)
	arn := aws.ToString(dist.ARN)
	tags, err := d.tags(ctx, arn)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	obs := managed.Observation[State]{Exists: true, State: &State{Distribution: dist, ETag: etag, Control: control}, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	if hasS3Origin(o) && control == nil {
		// An S3 origin added to a distribution made without one: the control comes first, the
		// configuration that names it with the next observation.
		obs.Changes.Add("originAccessControl", func(ctx context.Context) error {
			_, err := d.createControl(ctx, o)
			return err
		})
		return obs, nil
	}
	if err := d.planBuckets(ctx, o, &obs, control); err != nil {
		return managed.Observation[State]{}, err
	}
	d.planTags(&obs.Changes, arn, req.Tags, tags)
	obs.Ready = aws.ToString(dist.Status) == deployed
	if !obs.Ready {
		obs.Message = "status is " + aws.ToString(dist.Status) + ": CloudFront is deploying the distribution to its edge locations"
		obs.ReadyIn = d.recheck(dist)
	}
	return obs, nil
}

// planBuckets plans, for a distribution with S3 origins or that had them: the origin access
// control's configuration restored when it was changed outside, the statement removed from
// the policy of each bucket whose origin leaves the configuration (before the update, so that
// a statement is never left behind unseen), the configuration update, and the statement added
// to the policy of each bucket of the spec that lacks it.
func (d *driver) planBuckets(ctx context.Context, o *v1alpha1.CloudFrontDistribution, obs *managed.Observation[State], control *accessControl) error {
	dist, etag := obs.State.Distribution, obs.State.ETag
	id, arn := aws.ToString(dist.Id), aws.ToString(dist.ARN)
	buckets := bucketOrigins{region: d.region}
	if control != nil {
		buckets.controlID = control.ID
		if !sameControl(controlConfig(o), control.Config) {
			obs.Changes.Add("originAccessControl", func(ctx context.Context) error { return d.updateControl(ctx, o, control) })
		}
	}
	wanted := map[string]bool{}
	for _, s := range o.Spec.Origins {
		if s.S3BucketRef != nil {
			wanted[s.S3BucketName] = true
		}
	}
	if cur := dist.DistributionConfig.Origins; cur != nil && control != nil {
		for _, origin := range cur.Items {
			if bucket := bucketOf(aws.ToString(origin.DomainName)); aws.ToString(origin.OriginAccessControlId) == control.ID && !wanted[bucket] {
				obs.Changes.Add(fmt.Sprintf("bucketPolicy(%s)", bucket), func(ctx context.Context) error { return d.revoke(ctx, id, bucket) })
			}
		}
	}
	ids, err := d.policies.ids(ctx, d.api)
	if err != nil {
		return err
	}
	cfg, fields, err := desired(o, dist.DistributionConfig, ids, buckets)
	if err != nil {
		return err
	}
	if len(fields) > 0 {
		obs.Changes.AddFields(fields, func(ctx context.Context) error { return d.update(ctx, id, etag, cfg) })
	}
	partition := provider.Partition(d.region)
	for _, bucket := range slices.Sorted(maps.Keys(wanted)) {
		if err := d.grant(ctx, &obs.Changes, bucketStatement(id, arn, partition, bucket), bucket); err != nil {
			return err
		}
	}
	return nil
}

// recheck returns how soon a distribution CloudFront is deploying is looked at again: after half
// as long as it has been deploying since its last change, so that a quick deployment is seen
// within half its time again, at least a second and at most d.deployRecheck.
func (d *driver) recheck(dist *types.Distribution) time.Duration {
	age := time.Duration(0)
	if dist.LastModifiedTime != nil {
		age = time.Since(*dist.LastModifiedTime)
	}
	return min(max(age/2, time.Second), d.deployRecheck)
}

// update replaces the configuration of distribution id with cfg, naming the ETag it was read
// with: a change another writer made since fails with PreconditionFailed, an error the engine
// retries after observing again.
func (d *driver) update(ctx context.Context, id, etag string, cfg *types.DistributionConfig) error {
	_, err := d.api.UpdateDistribution(ctx, &cloudfront.UpdateDistributionInput{Id: aws.String(id), IfMatch: aws.String(etag), DistributionConfig: cfg})
	return managed.Wrap(err, "update distribution %s", id)
}

// fillStatus copies what CloudFront said into the status.
func fillStatus(o *v1alpha1.CloudFrontDistribution, dist *types.Distribution, etag string) {
	st := &o.Status
	st.ID, st.ARN, st.DomainName = aws.ToString(dist.Id), aws.ToString(dist.ARN), aws.ToString(dist.DomainName)
	st.Status, st.ETag = aws.ToString(dist.Status), etag
}

// fillControlStatus records the id of the origin access control in the status; empty when
// the distribution has none.
func fillControlStatus(o *v1alpha1.CloudFrontDistribution, c *accessControl) {
	o.Status.OriginAccessControlID = ""
	if c != nil {
		o.Status.OriginAccessControlID = c.ID
	}
}
