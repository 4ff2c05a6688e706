// Package cloudfrontdistribution manages Amazon CloudFront distributions for the
// CloudFrontDistribution kind: origins by domain name or by ALB reference, default and ordered
// cache behaviours with AWS managed cache and origin request policies (named, resolved to their
// ids once per provider), aliases with an ACM certificate, price class, web ACL, logging and
// tags. CloudFront versions a distribution's configuration with an ETag: every change names it
// (If-Match), and a change that lost a race with another writer (PreconditionFailed) is retried
// on a fresh observation. A change is InProgress for minutes while CloudFront deploys it; the
// distribution is Ready once Deployed. Deletion disables the distribution, waits until that is
// deployed, and only then deletes it, never blocking.
package cloudfrontdistribution

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// DeployRecheck is the longest wait before a distribution that CloudFront is deploying
// (InProgress, minutes on AWS) is looked at again, while it is created or changed, and the wait
// while it is disabled before its deletion.
var DeployRecheck = 15 * time.Second

// Kind declares the CloudFrontDistribution kind to the engine.
func Kind() managed.Kind[*v1alpha1.CloudFrontDistribution, State] {
	return managed.Kind[*v1alpha1.CloudFrontDistribution, State]{
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.CloudFrontDistribution, State] {
			return &driver{
				api:      provider.Client(s, "cloudfront", func(c aws.Config) *cloudfront.Client { return cloudfront.NewFromConfig(c) }),
				policies: provider.Client(s, "cloudfront-managed-policies", func(aws.Config) *policyCatalog { return &policyCatalog{} }),
			}
		},
		References: []managed.Ref[*v1alpha1.CloudFrontDistribution]{
			managed.Each(targets.ALB, "spec.origins[%d].albRef", func(d *v1alpha1.CloudFrontDistribution) []managed.Slot {
				slots := make([]managed.Slot, len(d.Spec.Origins))
				for i := range d.Spec.Origins {
					slots[i] = managed.Slot{Ref: d.Spec.Origins[i].ALBRef, ID: &d.Spec.Origins[i].DomainName}
				}
				return slots
			}),
			managed.One(targets.ACMCertificate, "spec.viewerCertificate.acmCertificateRef", func(d *v1alpha1.CloudFrontDistribution) (*shared.Reference, *string) {
				if d.Spec.ViewerCertificate == nil {
					return nil, nil
				}
				return d.Spec.ViewerCertificate.ACMCertificateRef, &d.Spec.ViewerCertificate.ACMCertificateARN
			}),
		},
		// A new or changed distribution is InProgress for minutes on AWS.
		FirstLook: time.Second,
	}
}

// driver manages one provider's distributions; policies holds the ids of the AWS managed
// policies, read once per provider.
type driver struct {
	api      cloudfrontAPI
	policies *policyCatalog
}
