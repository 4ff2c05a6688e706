package cloudfront

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// updateDistribution replaces a distribution's configuration, given its current ETag: the
// CallerReference cannot change, and the distribution is InProgress again with a new ETag.
func (b *Backend) updateDistribution(call *core.Call, in *cloudfront.UpdateDistributionInput) (*cloudfront.UpdateDistributionOutput, error) {
	if in.DistributionConfig == nil {
		return nil, invalidArgument("The parameter DistributionConfig is required.")
	}
	cfg := withDefaults(in.DistributionConfig)
	return withMatched(b, call, in.Id, in.IfMatch, (*account).distribution, func(a *account, d *distribution) (*cloudfront.UpdateDistributionOutput, error) {
		if aws.ToString(cfg.CallerReference) != aws.ToString(d.config.CallerReference) {
			return nil, core.Errorf("IllegalUpdate", "The CallerReference of distribution %s cannot be updated.", d.id)
		}
		if err := b.validate(call, a, cfg); err != nil {
			return nil, err
		}
		if err := b.claimAliases(d.arn, cfg); err != nil {
			return nil, err
		}
		d.change(call, cfg)
		return &cloudfront.UpdateDistributionOutput{Distribution: d.view(call.Now), ETag: aws.String(d.etag)}, nil
	})
}

// deleteDistribution deletes a distribution, given its current ETag, once it is disabled and
// that change is deployed.
func (b *Backend) deleteDistribution(call *core.Call, in *cloudfront.DeleteDistributionInput) (*cloudfront.DeleteDistributionOutput, error) {
	return withMatched(b, call, in.Id, in.IfMatch, (*account).distribution, func(a *account, d *distribution) (*cloudfront.DeleteDistributionOutput, error) {
		if aws.ToBool(d.config.Enabled) || d.status(call.Now) != statusDeployed {
			return nil, conflict("DistributionNotDisabled", "The distribution you are trying to delete has not been disabled.")
		}
		b.releaseAliases(d.arn)
		a.tags.Delete(d.arn)
		delete(a.distributions, d.id)
		return &cloudfront.DeleteDistributionOutput{}, nil
	})
}

// listDistributions lists the account's distributions in id order, a page at a time.
func (b *Backend) listDistributions(call *core.Call, in *cloudfront.ListDistributionsInput) (*cloudfront.ListDistributionsOutput, error) {
	return core.Locked(b.state, call, func(a *account) (*cloudfront.ListDistributionsOutput, error) {
		list := listPage[types.DistributionList](byID(a.distributions), func(d *distribution) string { return d.id }, in.Marker, in.MaxItems,
			func(d *distribution) types.DistributionSummary { return d.summary(call.Now) })
		return &cloudfront.ListDistributionsOutput{DistributionList: list}, nil
	})
}
