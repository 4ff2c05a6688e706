package cloudfrontdistribution

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// deployed is the status of a distribution whose last change has reached every edge location.
const deployed = "Deployed"

// State is what CloudFront said about a distribution.
type State struct {
	// Distribution is GetDistribution's answer: the configuration and the deployment status.
	Distribution *types.Distribution
	// ETag is the configuration's version, which every change names in If-Match.
	ETag string
}

// Observe reads the distribution (GetDistribution: configuration, status and ETag) and its
// tags, fills the status, plans one UpdateDistribution carrying the whole configuration with
// the spec applied when any field differs, and the tag changes. The distribution is Ready once
// Deployed; while CloudFront deploys it (InProgress, minutes on AWS) it is looked at again after
// the wait recheck returns. A distribution is found by its recorded id only: its create is
// idempotent on the CallerReference (the object's UID), so a create whose answer was lost and
// that is made again answers the same distribution.
func (d *driver) Observe(ctx context.Context, o *v1alpha1.CloudFrontDistribution, req managed.Request) (managed.Observation[State], error) {
	id := managed.ExternalName(o)
	if id == "" {
		return managed.Observation[State]{}, nil
	}
	out, err := d.api.GetDistribution(ctx, &cloudfront.GetDistributionInput{Id: aws.String(id)})
	if awserr.IsNotFound(err) {
		return managed.Observation[State]{}, nil
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
	obs := managed.Observation[State]{Exists: true, State: &State{Distribution: dist, ETag: etag}, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	ids, err := d.policies.ids(ctx, d.api)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	cfg, fields, err := desired(o, dist.DistributionConfig, ids)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if len(fields) > 0 {
		obs.Changes.AddFields(fields, func(ctx context.Context) error { return d.update(ctx, id, etag, cfg) })
	}
	d.planTags(&obs.Changes, arn, req.Tags, tags)
	obs.Ready = aws.ToString(dist.Status) == deployed
	if !obs.Ready {
		obs.Message = "status is " + aws.ToString(dist.Status) + ": CloudFront is deploying the distribution to its edge locations"
		obs.ReadyIn = recheck(dist)
	}
	return obs, nil
}

// recheck returns how soon a distribution CloudFront is deploying is looked at again: after half
// as long as it has been deploying since its last change, so that a quick deployment is seen
// within half its time again, at least a second and at most DeployRecheck.
func recheck(dist *types.Distribution) time.Duration {
	age := time.Duration(0)
	if dist.LastModifiedTime != nil {
		age = time.Since(*dist.LastModifiedTime)
	}
	return min(max(age/2, time.Second), DeployRecheck)
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
