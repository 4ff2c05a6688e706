// Package route53hostedzone manages Route 53 hosted zones for the Route53HostedZone kind: a
// public zone, or a private one with its VPC associations kept as a set, its comment and its
// tags. A zone is created with the object's UID as its CallerReference and found again by it
// (ListHostedZonesByName at the zone's name) when its id was not recorded; deleting a zone that
// holds record sets the operator does not own waits, with HostedZoneNotEmpty, until they are
// gone.
package route53hostedzone

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

// zoneAPI is the part of Route 53 the driver uses.
type zoneAPI interface {
	CreateHostedZone(ctx context.Context, in *route53.CreateHostedZoneInput, opts ...func(*route53.Options)) (*route53.CreateHostedZoneOutput, error)
	GetHostedZone(ctx context.Context, in *route53.GetHostedZoneInput, opts ...func(*route53.Options)) (*route53.GetHostedZoneOutput, error)
	ListHostedZonesByName(ctx context.Context, in *route53.ListHostedZonesByNameInput, opts ...func(*route53.Options)) (*route53.ListHostedZonesByNameOutput, error)
	UpdateHostedZoneComment(ctx context.Context, in *route53.UpdateHostedZoneCommentInput, opts ...func(*route53.Options)) (*route53.UpdateHostedZoneCommentOutput, error)
	DeleteHostedZone(ctx context.Context, in *route53.DeleteHostedZoneInput, opts ...func(*route53.Options)) (*route53.DeleteHostedZoneOutput, error)
	AssociateVPCWithHostedZone(ctx context.Context, in *route53.AssociateVPCWithHostedZoneInput, opts ...func(*route53.Options)) (*route53.AssociateVPCWithHostedZoneOutput, error)
	DisassociateVPCFromHostedZone(ctx context.Context, in *route53.DisassociateVPCFromHostedZoneInput, opts ...func(*route53.Options)) (*route53.DisassociateVPCFromHostedZoneOutput, error)
	ListResourceRecordSets(ctx context.Context, in *route53.ListResourceRecordSetsInput, opts ...func(*route53.Options)) (*route53.ListResourceRecordSetsOutput, error)
	ChangeTagsForResource(ctx context.Context, in *route53.ChangeTagsForResourceInput, opts ...func(*route53.Options)) (*route53.ChangeTagsForResourceOutput, error)
	ListTagsForResource(ctx context.Context, in *route53.ListTagsForResourceInput, opts ...func(*route53.Options)) (*route53.ListTagsForResourceOutput, error)
}

var _ zoneAPI = (*route53.Client)(nil)

// Kind declares the Route53HostedZone kind to the engine.
func Kind() managed.Kind[*v1alpha1.Route53HostedZone, State] {
	return managed.Kind[*v1alpha1.Route53HostedZone, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.Route53HostedZone) managed.Driver[*v1alpha1.Route53HostedZone, State] {
			return &driver{
				api:    provider.Client(s, "route53", func(c aws.Config) *route53.Client { return route53.NewFromConfig(c) }),
				vpcs:   vpcTags{api: vpcClient(s)},
				region: s.Config.Region,
			}
		},
		References: []managed.Ref[*v1alpha1.Route53HostedZone]{
			// Associating a VPC writes the zone's names into the VPC's DNS.
			managed.List(targets.VPC, "spec.vpcRefs", "", func(z *v1alpha1.Route53HostedZone) ([]shared.Reference, *shared.Selector, *[]string) {
				return z.Spec.VPCRefs, nil, &z.Spec.VPCIDs
			}).Writing(),
		},
	}
}

// driver manages one provider's hosted zones.
type driver struct {
	api    zoneAPI
	vpcs   vpcTags
	region string
}
