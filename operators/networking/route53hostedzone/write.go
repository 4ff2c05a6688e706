package route53hostedzone

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the zone with the object's UID as its CallerReference (a create repeated after
// a lost answer is refused, and Observe finds the first by it), records its id, and tags it. A
// private zone is created with its first VPC; Observe plans the others.
func (d *driver) Create(ctx context.Context, z *v1alpha1.Route53HostedZone, req managed.Request) error {
	in := &route53.CreateHostedZoneInput{Name: aws.String(z.Spec.Name), CallerReference: aws.String(string(z.GetUID())),
		HostedZoneConfig: &types.HostedZoneConfig{PrivateZone: private(z)}}
	if z.Spec.Comment != "" {
		in.HostedZoneConfig.Comment = aws.String(z.Spec.Comment)
	}
	if private(z) {
		first := z.Spec.VPCIDs[0]
		if err := d.vpcs.checkForeign(ctx, z, []string{first}); err != nil {
			return err
		}
		in.VPC = d.vpc(first)
	}
	out, err := d.api.CreateHostedZone(ctx, in)
	if err != nil {
		return managed.Wrap(err, "create hosted zone %s", z.Spec.Name)
	}
	id := zoneID(aws.ToString(out.HostedZone.Id))
	managed.SetExternalName(z, id)
	z.Status.HostedZoneID = id
	return d.changeTags(ctx, id, req.Tags, nil)
}

// Delete deletes the zone. A zone that still holds record sets other than its apex SOA and NS
// is left: the operator deletes no record set it does not own (a Route53RecordSet deletes its
// own), so the object waits with HostedZoneNotEmpty, naming a few of them, and tries again
// with a wait that grows with the time the deletion has waited.
func (d *driver) Delete(ctx context.Context, z *v1alpha1.Route53HostedZone, obs managed.Observation[State]) error {
	id := obs.State.ID
	_, err := d.api.DeleteHostedZone(ctx, &route53.DeleteHostedZoneInput{Id: aws.String(id)})
	switch {
	case err == nil, awserr.IsNotFound(err):
		return nil
	case awserr.Code(err) == "HostedZoneNotEmpty":
		others, lerr := d.others(ctx, id, normal(z.Spec.Name))
		if lerr != nil {
			return errors.Join(managed.Wrap(err, "delete hosted zone %s", id), lerr)
		}
		return &managed.WaitingError{Reason: condition.ReasonHostedZoneNotEmpty, After: backoff(z),
			Message: fmt.Sprintf("hosted zone %s still holds record sets other than its SOA and NS (%s); the operator deletes no record set "+
				"it does not own: delete them, or their Route53RecordSet objects, and the zone is deleted", id, others)}
	}
	return managed.Wrap(err, "delete hosted zone %s", id)
}

// others names up to five record sets of the zone (whose apex is the normal name apex) other
// than its apex SOA and NS.
func (d *driver) others(ctx context.Context, id, apex string) (string, error) {
	out, err := d.api.ListResourceRecordSets(ctx, &route53.ListResourceRecordSetsInput{HostedZoneId: aws.String(id), MaxItems: aws.Int32(20)})
	if err != nil {
		return "", managed.Wrap(err, "list the record sets of hosted zone %s", id)
	}
	var names []string
	for _, r := range out.ResourceRecordSets {
		if (r.Type == types.RRTypeSoa || r.Type == types.RRTypeNs) && normal(aws.ToString(r.Name)) == apex {
			continue
		}
		if len(names) == 5 {
			names = append(names, "…")
			break
		}
		names = append(names, string(r.Type)+" "+strings.ReplaceAll(aws.ToString(r.Name), `\052`, "*"))
	}
	return strings.Join(names, ", "), nil
}

// backoff is how long a deletion waiting for a zone to be emptied waits before it tries again:
// a quarter of the time it has waited, between 5 seconds and 5 minutes.
func backoff(z *v1alpha1.Route53HostedZone) time.Duration {
	waited := time.Duration(0)
	if t := z.GetDeletionTimestamp(); t != nil {
		waited = time.Since(t.Time)
	}
	return min(max(waited/4, 5*time.Second), 5*time.Minute)
}

// ReleaseOwnership removes the ownership tags from the zone.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.Route53HostedZone, obs managed.Observation[State]) error {
	return d.changeTags(ctx, obs.State.ID, nil, managed.OwnershipTagKeys())
}
