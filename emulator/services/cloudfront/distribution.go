package cloudfront

import (
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Distribution statuses.
const (
	statusInProgress = "InProgress"
	statusDeployed   = "Deployed"
)

// distribution is one CloudFront distribution.
type distribution struct {
	id, arn, domain string
	etag            string
	config          *types.DistributionConfig // with AWS's defaults applied
	modified        time.Time
	deployedAt      time.Time // when the last change has reached the edge locations
}

// currentETag returns the distribution's current ETag.
func (d *distribution) currentETag() string { return d.etag }

// status returns InProgress until the last change is deployed, then Deployed.
func (d *distribution) status(now time.Time) string {
	return core.Ready(now, d.deployedAt, statusInProgress, statusDeployed)
}

// view returns the distribution as GetDistribution answers it.
func (d *distribution) view(now time.Time) *types.Distribution {
	return &types.Distribution{Id: aws.String(d.id), ARN: aws.String(d.arn), DomainName: aws.String(d.domain),
		Status: aws.String(d.status(now)), LastModifiedTime: aws.Time(d.modified), InProgressInvalidationBatches: aws.Int32(0),
		DistributionConfig:     clone(d.config),
		ActiveTrustedSigners:   &types.ActiveTrustedSigners{Enabled: aws.Bool(false), Quantity: aws.Int32(0)},
		ActiveTrustedKeyGroups: &types.ActiveTrustedKeyGroups{Enabled: aws.Bool(false), Quantity: aws.Int32(0)}}
}

// summary returns the distribution as ListDistributions answers it.
func (d *distribution) summary(now time.Time) types.DistributionSummary {
	c := clone(d.config)
	return types.DistributionSummary{Id: aws.String(d.id), ARN: aws.String(d.arn), ETag: aws.String(d.etag), DomainName: aws.String(d.domain),
		Status: aws.String(d.status(now)), LastModifiedTime: aws.Time(d.modified), Aliases: c.Aliases, Origins: c.Origins,
		OriginGroups: c.OriginGroups, DefaultCacheBehavior: c.DefaultCacheBehavior, CacheBehaviors: c.CacheBehaviors,
		CustomErrorResponses: c.CustomErrorResponses, Comment: c.Comment, PriceClass: c.PriceClass, Enabled: c.Enabled,
		ViewerCertificate: c.ViewerCertificate, Restrictions: c.Restrictions, WebACLId: c.WebACLId, HttpVersion: c.HttpVersion,
		IsIPV6Enabled: c.IsIPV6Enabled, Staging: c.Staging}
}

// change makes cfg the distribution's configuration at the call's time: a new ETag, and
// InProgress for the call's transition time.
func (d *distribution) change(call *core.Call, cfg *types.DistributionConfig) {
	d.config, d.etag, d.modified, d.deployedAt = cfg, newETag(), call.Now, call.Now.Add(call.Transition)
}

// claimAliases checks that no other distribution, of any account, holds one of the aliases of
// cfg (CNAMEAlreadyExists), and then records them as arn's, releasing those arn held before. The
// caller holds the backend's mutex.
func (b *Backend) claimAliases(arn string, cfg *types.DistributionConfig) error {
	for _, alias := range cfg.Aliases.Items {
		if holder, ok := b.aliases[strings.ToLower(alias)]; ok && holder != arn {
			return conflict("CNAMEAlreadyExists", "One or more of the CNAMEs you provided are already associated with a different resource: %s.", alias)
		}
	}
	b.releaseAliases(arn)
	for _, alias := range cfg.Aliases.Items {
		b.aliases[strings.ToLower(alias)] = arn
	}
	return nil
}

// releaseAliases forgets the aliases distribution arn holds. The caller holds the backend's mutex.
func (b *Backend) releaseAliases(arn string) {
	for alias, holder := range b.aliases {
		if holder == arn {
			delete(b.aliases, alias)
		}
	}
}

// distribution returns a distribution of the account. The caller holds the backend's mutex.
func (a *account) distribution(id *string) (*distribution, error) {
	d, ok := a.distributions[aws.ToString(id)]
	if !ok {
		return nil, noSuchDistribution()
	}
	return d, nil
}

// location is the URL of a new distribution, which CreateDistribution answers in Location.
func location(id string) *string {
	return aws.String("https://cloudfront.amazonaws.com/2020-05-31/distribution/" + id)
}

// create makes a distribution of cfg with tags, or answers the one that CallerReference already
// made with the same configuration.
func (b *Backend) create(call *core.Call, in *types.DistributionConfig, tags map[string]string) (*distribution, error) {
	if in == nil {
		return nil, invalidArgument("The parameter DistributionConfig is required.")
	}
	cfg := withDefaults(in)
	return core.Locked(b.state, call, func(a *account) (*distribution, error) {
		for _, d := range a.distributions {
			if aws.ToString(d.config.CallerReference) != aws.ToString(cfg.CallerReference) {
				continue
			}
			if sameConfig(d.config, cfg) {
				return d, nil
			}
			return nil, conflict("DistributionAlreadyExists",
				"The caller reference that you are using to create a distribution is associated with another distribution. Already exists: %s", d.id)
		}
		if err := b.validate(call, a, cfg); err != nil {
			return nil, err
		}
		id := newID()
		d := &distribution{id: id, arn: distributionARN(call.Account, id), domain: newDomainName()}
		if err := a.tags.Merge(tags, d.arn); err != nil {
			return nil, err
		}
		if err := b.claimAliases(d.arn, cfg); err != nil {
			a.tags.Delete(d.arn)
			return nil, err
		}
		d.change(call, cfg)
		a.distributions[id] = d
		return d, nil
	})
}

// createDistribution creates a distribution, or answers the one its CallerReference made.
func (b *Backend) createDistribution(call *core.Call, in *cloudfront.CreateDistributionInput) (*cloudfront.CreateDistributionOutput, error) {
	d, err := b.create(call, in.DistributionConfig, nil)
	if err != nil {
		return nil, err
	}
	return &cloudfront.CreateDistributionOutput{Distribution: d.view(call.Now), ETag: aws.String(d.etag), Location: location(d.id)}, nil
}

// createDistributionWithTags creates a distribution with tags.
func (b *Backend) createDistributionWithTags(call *core.Call, in *cloudfront.CreateDistributionWithTagsInput) (*cloudfront.CreateDistributionWithTagsOutput, error) {
	w := in.DistributionConfigWithTags
	if w == nil {
		return nil, invalidArgument("The parameter DistributionConfigWithTags is required.")
	}
	tags, err := requestTags(w.Tags)
	if err != nil {
		return nil, err
	}
	d, err := b.create(call, w.DistributionConfig, tags)
	if err != nil {
		return nil, err
	}
	return &cloudfront.CreateDistributionWithTagsOutput{Distribution: d.view(call.Now), ETag: aws.String(d.etag), Location: location(d.id)}, nil
}

// getDistribution returns a distribution and its ETag.
func (b *Backend) getDistribution(call *core.Call, in *cloudfront.GetDistributionInput) (*cloudfront.GetDistributionOutput, error) {
	return withFound(b, call, in.Id, (*account).distribution, func(_ *account, d *distribution) (*cloudfront.GetDistributionOutput, error) {
		return &cloudfront.GetDistributionOutput{Distribution: d.view(call.Now), ETag: aws.String(d.etag)}, nil
	})
}

// getDistributionConfig returns a distribution's configuration and its ETag.
func (b *Backend) getDistributionConfig(call *core.Call, in *cloudfront.GetDistributionConfigInput) (*cloudfront.GetDistributionConfigOutput, error) {
	return withFound(b, call, in.Id, (*account).distribution, func(_ *account, d *distribution) (*cloudfront.GetDistributionConfigOutput, error) {
		return &cloudfront.GetDistributionConfigOutput{DistributionConfig: clone(d.config), ETag: aws.String(d.etag)}, nil
	})
}
