// Package route53recordset manages Route 53 resource record sets for the Route53RecordSet kind:
// values with a TTL or an alias target (a load balancer, a CloudFront distribution or an API
// Gateway custom domain by reference, or any DNS name with its zone), under an optional routing
// policy. Every change is one ChangeResourceRecordSets batch that carries the record set and its
// ownership marker (package route53owner) together; the object is Ready once GetChange reports
// the last change INSYNC, and a steady sync costs one ListResourceRecordSets.
package route53recordset

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// recordAPI is the part of Route 53 the driver uses.
type recordAPI interface {
	ChangeResourceRecordSets(ctx context.Context, in *route53.ChangeResourceRecordSetsInput, opts ...func(*route53.Options)) (*route53.ChangeResourceRecordSetsOutput, error)
	ListResourceRecordSets(ctx context.Context, in *route53.ListResourceRecordSetsInput, opts ...func(*route53.Options)) (*route53.ListResourceRecordSetsOutput, error)
	GetChange(ctx context.Context, in *route53.GetChangeInput, opts ...func(*route53.Options)) (*route53.GetChangeOutput, error)
	GetHostedZone(ctx context.Context, in *route53.GetHostedZoneInput, opts ...func(*route53.Options)) (*route53.GetHostedZoneOutput, error)
	ListTagsForResource(ctx context.Context, in *route53.ListTagsForResourceInput, opts ...func(*route53.Options)) (*route53.ListTagsForResourceOutput, error)
}

var _ recordAPI = (*route53.Client)(nil)

// cloudFrontZone is the Route 53 hosted zone of every CloudFront distribution's domain name.
const cloudFrontZone = "Z2FDTNDATAQYW2"

// Kind declares the Route53RecordSet kind to the engine.
func Kind() managed.Kind[*v1alpha1.Route53RecordSet, State] {
	return managed.Kind[*v1alpha1.Route53RecordSet, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.Route53RecordSet) managed.Driver[*v1alpha1.Route53RecordSet, State] {
			return &driver{api: provider.Client(s, "route53", func(c aws.Config) *route53.Client { return route53.NewFromConfig(c) })}
		},
		Validate: validate,
		References: []managed.Ref[*v1alpha1.Route53RecordSet]{
			// A record set writes into its zone.
			managed.One(targets.Route53HostedZone, "spec.zoneRef", func(r *v1alpha1.Route53RecordSet) (*shared.Reference, *string) {
				return r.Spec.ZoneRef, &r.Spec.ZoneID
			}).Writing(),
			alias(targets.ALB, "spec.aliasTarget.albRef", albRef, dnsName),
			alias(targets.ALBHostedZone, "spec.aliasTarget.albRef", albRef, hostedZoneID),
			alias(targets.NLB, "spec.aliasTarget.nlbRef", nlbRef, dnsName),
			alias(targets.NLBHostedZone, "spec.aliasTarget.nlbRef", nlbRef, hostedZoneID),
			alias(targets.CloudFrontDistribution, "spec.aliasTarget.cloudFrontDistributionRef",
				func(a *v1alpha1.AliasTarget) *shared.Reference { return a.CloudFrontDistributionRef }, dnsName),
			alias(targets.APIGatewayDomain, "spec.aliasTarget.apiGatewayRef", apiGatewayRef, dnsName),
			alias(targets.APIGatewayDomainHostedZone, "spec.aliasTarget.apiGatewayRef", apiGatewayRef, hostedZoneID),
		},
	}
}

// alias declares one reference of the alias target: ref returns it from the alias target, and
// field the alias target's field its identifier goes to (a load balancer's reference resolves
// twice, to its DNS name and to its hosted zone).
func alias(t targets.Target, path string, ref func(*v1alpha1.AliasTarget) *shared.Reference, field func(*v1alpha1.AliasTarget) *string) managed.Ref[*v1alpha1.Route53RecordSet] {
	return managed.One(t, path, func(r *v1alpha1.Route53RecordSet) (*shared.Reference, *string) {
		a := r.Spec.AliasTarget
		if a == nil {
			return nil, nil
		}
		return ref(a), field(a)
	})
}

// albRef, nlbRef and apiGatewayRef return a reference of an alias target, dnsName and
// hostedZoneID the fields its identifiers go to.
func albRef(a *v1alpha1.AliasTarget) *shared.Reference        { return a.ALBRef }
func nlbRef(a *v1alpha1.AliasTarget) *shared.Reference        { return a.NLBRef }
func apiGatewayRef(a *v1alpha1.AliasTarget) *shared.Reference { return a.APIGatewayRef }
func dnsName(a *v1alpha1.AliasTarget) *string                 { return &a.DNSName }
func hostedZoneID(a *v1alpha1.AliasTarget) *string            { return &a.HostedZoneID }

// driver manages one provider's record sets.
type driver struct {
	api recordAPI
}
