// Package cloudfrontdistribution manages Amazon CloudFront distributions for the
// CloudFrontDistribution kind: origins by domain name, by ALB reference or by S3Bucket
// reference, default and ordered cache behaviours with AWS managed cache and origin request
// policies (named, resolved to their ids once per provider), aliases with an ACM certificate,
// price class, web ACL, logging and tags. CloudFront versions a distribution's configuration
// with an ETag: every change names it (If-Match), and a change that lost a race with another
// writer (PreconditionFailed) is retried on a fresh observation. A change is InProgress for
// minutes while CloudFront deploys it; the distribution is Ready once Deployed. Deletion
// disables the distribution, waits until that is deployed, and only then deletes it, never
// blocking.
//
// An S3 origin is read through one origin access control (OAC) per object (S3, requests always
// signed with SigV4), made before the distribution and found by its name and description
// (OACs carry no tags), and deleted right after the distribution. Once the distribution
// exists, the policy of each bucket it serves gets the statement AWS documents for OAC (read
// the bucket's objects, only for this distribution's ARN; Sid InfraOperatorCloudFront and the
// distribution's id), read, changed and written back so that the bucket's other statements
// stay, and restored when it goes missing. The statement is removed from a bucket before the
// origin leaves the distribution's configuration, and from every bucket right before the
// distribution is deleted. The buckets are expected in the provider's region.
package cloudfrontdistribution

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Tunables are the CloudFrontDistribution kind's timings; a zero field takes its default.
// Tests shorten them.
type Tunables struct {
	// DeployRecheck is the longest wait before a distribution that CloudFront is deploying
	// (InProgress, minutes on AWS) is looked at again, while it is created or changed, and the
	// wait while it is disabled before its deletion (default 15s).
	DeployRecheck time.Duration
}

// withDefaults returns t with its zero fields set to their defaults.
func (t Tunables) withDefaults() Tunables {
	if t.DeployRecheck <= 0 {
		t.DeployRecheck = 15 * time.Second
	}
	return t
}

// Kind declares the CloudFrontDistribution kind to the engine, with the timings t.
func Kind(t Tunables) managed.Kind[*v1alpha1.CloudFrontDistribution, State] {
	t = t.withDefaults()
	return managed.Kind[*v1alpha1.CloudFrontDistribution, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.CloudFrontDistribution) managed.Driver[*v1alpha1.CloudFrontDistribution, State] {
			// A custom endpoint (the emulator, LocalStack) has no per-bucket host names.
			pathStyle := s.Provider.ProviderSpec().Endpoint != ""
			return &driver{
				api:      provider.Client(s, "cloudfront", func(c aws.Config) *cloudfront.Client { return cloudfront.NewFromConfig(c) }),
				policies: provider.Client(s, "cloudfront-managed-policies", func(aws.Config) *policyCatalog { return &policyCatalog{} }),
				s3: provider.Client(s, "s3", func(c aws.Config) *s3.Client {
					return s3.NewFromConfig(c, func(o *s3.Options) { o.UsePathStyle = pathStyle })
				}),
				region:        s.Config.Region,
				deployRecheck: t.DeployRecheck,
			}
		},
		References: []managed.Ref[*v1alpha1.CloudFrontDistribution]{
			managed.Each(targets.ALB, "spec.origins[%d].albRef", originSlots(func(o *v1alpha1.DistributionOrigin) managed.Slot {
				return managed.Slot{Ref: o.ALBRef, ID: &o.DomainName}
			})),
			// The distribution adds a statement to each bucket's policy.
			managed.Each(targets.S3Bucket, "spec.origins[%d].s3BucketRef", originSlots(func(o *v1alpha1.DistributionOrigin) managed.Slot {
				return managed.Slot{Ref: o.S3BucketRef, ID: &o.S3BucketName}
			})).Writing(),
			managed.One(targets.ACMCertificate, "spec.viewerCertificate.acmCertificateRef", func(d *v1alpha1.CloudFrontDistribution) (*shared.Reference, *string) {
				if d.Spec.ViewerCertificate == nil {
					return nil, nil
				}
				return d.Spec.ViewerCertificate.ACMCertificateRef, &d.Spec.ViewerCertificate.ACMCertificateARN
			}),
		},
		// A new or changed distribution is InProgress for minutes on AWS.
		ReadyIn: time.Second,
	}
}

// originSlots returns the slots of one reference field of every origin, which slot picks.
func originSlots(slot func(*v1alpha1.DistributionOrigin) managed.Slot) func(*v1alpha1.CloudFrontDistribution) []managed.Slot {
	return func(d *v1alpha1.CloudFrontDistribution) []managed.Slot {
		slots := make([]managed.Slot, len(d.Spec.Origins))
		for i := range d.Spec.Origins {
			slots[i] = slot(&d.Spec.Origins[i])
		}
		return slots
	}
}

// driver manages one provider's distributions; policies holds the ids of the AWS managed
// policies, read once per provider, s3 reads and writes the policies of the buckets the
// distributions serve, in the provider's region, and deployRecheck bounds the waits for
// CloudFront's deployments (Tunables.DeployRecheck).
type driver struct {
	api           cloudfrontAPI
	policies      *policyCatalog
	s3            bucketPolicyAPI
	region        string
	deployRecheck time.Duration
}
