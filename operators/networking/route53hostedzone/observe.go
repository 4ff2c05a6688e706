package route53hostedzone

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a hosted zone.
type State struct {
	// ID is the zone's id, without /hostedzone/.
	ID string
}

// Observe finds the zone (by its recorded id, else by the object's UID as CallerReference among
// the zones of its name), fills the status, and plans the comment, the VPC associations of a
// private zone (as a set) and the tags: GetHostedZone and ListTagsForResource a sync.
func (d *driver) Observe(ctx context.Context, z *v1alpha1.Route53HostedZone, req managed.Request) (managed.Observation[State], error) {
	id := managed.ExternalName(z)
	if id == "" {
		found, err := d.findByCallerReference(ctx, z)
		if err != nil || found == "" {
			return managed.Observation[State]{}, err
		}
		id = found
		managed.SetExternalName(z, id)
	}
	out, err := d.api.GetHostedZone(ctx, &route53.GetHostedZoneInput{Id: aws.String(id)})
	if awserr.IsNotFound(err) {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, managed.Wrap(err, "get hosted zone %s", id)
	}
	tags, err := d.tags(ctx, id)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	hz := out.HostedZone
	fillStatus(z, id, out, d.vpcIDs(out.VPCs))
	obs := managed.Observation[State]{Exists: true, Ready: true, State: &State{ID: id}, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	obs.Conflict = createdAsSpecified(z, id, hz)
	if have := comment(hz); have != z.Spec.Comment {
		obs.Changes.AddValue("comment", have, z.Spec.Comment, func(ctx context.Context) error {
			in := &route53.UpdateHostedZoneCommentInput{Id: aws.String(id)}
			if z.Spec.Comment != "" {
				in.Comment = aws.String(z.Spec.Comment)
			}
			_, err := d.api.UpdateHostedZoneComment(ctx, in)
			return managed.Wrap(err, "update the comment of hosted zone %s", id)
		})
	}
	if private(z) {
		d.planVPCs(&obs.Changes, z, id, z.Status.VPCIDs)
	}
	obs.Changes.AddTags(req.Tags, tags, func(ctx context.Context, set map[string]string, remove []string) error {
		return d.changeTags(ctx, id, set, remove)
	})
	return obs, nil
}

// findByCallerReference returns the id of the zone of the spec's name whose CallerReference is
// the object's UID, "" when there is none: a create whose answer was lost.
func (d *driver) findByCallerReference(ctx context.Context, z *v1alpha1.Route53HostedZone) (string, error) {
	name := normal(z.Spec.Name)
	in := &route53.ListHostedZonesByNameInput{DNSName: aws.String(name)}
	for {
		out, err := d.api.ListHostedZonesByName(ctx, in)
		if err != nil {
			return "", managed.Wrap(err, "list the hosted zones named %s", name)
		}
		for _, hz := range out.HostedZones {
			if normal(aws.ToString(hz.Name)) != name {
				return "", nil
			}
			if aws.ToString(hz.CallerReference) == string(z.GetUID()) {
				return zoneID(aws.ToString(hz.Id)), nil
			}
		}
		if !out.IsTruncated {
			return "", nil
		}
		in.DNSName, in.HostedZoneId = out.NextDNSName, out.NextHostedZoneId
	}
}

// fillStatus copies what AWS said about the zone into the status.
func fillStatus(z *v1alpha1.Route53HostedZone, id string, out *route53.GetHostedZoneOutput, vpcs []string) {
	z.Status.HostedZoneID, z.Status.NameServers, z.Status.VPCIDs = id, nil, vpcs
	if out.DelegationSet != nil {
		z.Status.NameServers = out.DelegationSet.NameServers
	}
}

// createdAsSpecified refuses a zone whose name or privacy is not the spec's (an adopted zone).
func createdAsSpecified(z *v1alpha1.Route53HostedZone, id string, hz *types.HostedZone) error {
	isPrivate := hz.Config != nil && hz.Config.PrivateZone
	switch {
	case normal(aws.ToString(hz.Name)) != normal(z.Spec.Name):
		return managed.Terminal(condition.ReasonInvalidSpec, "hosted zone %s is for %s, not the spec's %s; a zone cannot be renamed", id, aws.ToString(hz.Name), z.Spec.Name)
	case isPrivate != private(z):
		return managed.Terminal(condition.ReasonInvalidSpec, "hosted zone %s has private %t, not the spec's %t; create a new Route53HostedZone", id, isPrivate, private(z))
	}
	return nil
}

// comment returns the zone's comment.
func comment(hz *types.HostedZone) string {
	if hz.Config == nil {
		return ""
	}
	return aws.ToString(hz.Config.Comment)
}

// private reports whether the spec asks for a private zone.
func private(z *v1alpha1.Route53HostedZone) bool { return z.Spec.Private != nil && *z.Spec.Private }

// normal returns a domain name in lower case with its final dot.
func normal(name string) string { return strings.ToLower(strings.TrimSuffix(name, ".")) + "." }

// zoneID returns a hosted zone id without its /hostedzone/ prefix.
func zoneID(id string) string { return strings.TrimPrefix(id, "/hostedzone/") }
