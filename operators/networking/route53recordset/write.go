package route53recordset

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/route53owner"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the record set and its marker in one batch (CREATE both: a record set made
// meanwhile by someone else fails the whole batch), records its identifier and the change.
func (d *driver) Create(ctx context.Context, r *v1alpha1.Route53RecordSet, _ managed.Request) error {
	zoneID, full := r.Spec.ZoneID, r.Status.FQDN
	if err := d.checkForeign(ctx, r, zoneID); err != nil {
		return err
	}
	want := desired(r, full)
	batch := []types.Change{{Action: types.ChangeActionCreate, ResourceRecordSet: want},
		{Action: types.ChangeActionCreate, ResourceRecordSet: route53owner.RecordSet(want, ownerOf(r))}}
	if err := d.change(ctx, r, zoneID, "create", batch); err != nil {
		return err
	}
	managed.SetExternalName(r, externalName(zoneID, full, r.Spec.Type, r.Spec.SetIdentifier))
	return nil
}

// upsert returns the change that makes the record set the spec's: one batch that UPSERTs it
// with its marker.
func (d *driver) upsert(r *v1alpha1.Route53RecordSet, zoneID string, want *types.ResourceRecordSet) func(context.Context) error {
	return func(ctx context.Context) error {
		if err := d.checkForeign(ctx, r, zoneID); err != nil {
			return err
		}
		return d.change(ctx, r, zoneID, "update", []types.Change{{Action: types.ChangeActionUpsert, ResourceRecordSet: want},
			{Action: types.ChangeActionUpsert, ResourceRecordSet: route53owner.RecordSet(want, ownerOf(r))}})
	}
}

// Delete deletes the record set and its marker in one batch, with their exact current values
// (Route 53 deletes only a record set whose values match).
func (d *driver) Delete(ctx context.Context, r *v1alpha1.Route53RecordSet, obs managed.Observation[State]) error {
	var batch []types.Change
	for _, rs := range []*types.ResourceRecordSet{obs.State.Record, obs.State.Marker} {
		if rs != nil {
			batch = append(batch, types.Change{Action: types.ChangeActionDelete, ResourceRecordSet: rs})
		}
	}
	return d.change(ctx, r, obs.State.ZoneID, "delete", batch)
}

// ReleaseOwnership deletes the marker only, for deletionPolicy Orphan: the record set stays,
// owned by nobody, for another object or a person to take.
func (d *driver) ReleaseOwnership(ctx context.Context, r *v1alpha1.Route53RecordSet, obs managed.Observation[State]) error {
	if obs.State.Marker == nil {
		return nil
	}
	return d.change(ctx, r, obs.State.ZoneID, "release", []types.Change{{Action: types.ChangeActionDelete, ResourceRecordSet: obs.State.Marker}})
}

// change submits one batch to the zone and records its change as the object's last, PENDING.
func (d *driver) change(ctx context.Context, r *v1alpha1.Route53RecordSet, zoneID, what string, batch []types.Change) error {
	out, err := d.api.ChangeResourceRecordSets(ctx, &route53.ChangeResourceRecordSetsInput{HostedZoneId: aws.String(zoneID),
		ChangeBatch: &types.ChangeBatch{Changes: batch, Comment: aws.String("infra-operator: " + what + " " + r.Namespace + "/" + r.Name)}})
	if err != nil {
		return managed.Wrap(err, "%s record set %s %s in hosted zone %s", what, r.Spec.Type, r.Status.FQDN, zoneID)
	}
	r.Status.ChangeID, r.Status.ChangeStatus = aws.ToString(out.ChangeInfo.Id), string(out.ChangeInfo.Status)
	return nil
}

// checkForeign refuses, before anything is written, a zone named by id (not by reference) that
// no object of the namespace made (managed.CheckForeignWrite on the zone's tags, operator flag
// --foreign-write-namespaces): a record set writes into the zone.
func (d *driver) checkForeign(ctx context.Context, r *v1alpha1.Route53RecordSet, zoneID string) error {
	if r.Spec.ZoneRef != nil {
		return nil
	}
	out, err := d.api.ListTagsForResource(ctx, &route53.ListTagsForResourceInput{ResourceId: aws.String(zoneID), ResourceType: types.TagResourceTypeHostedzone})
	if err != nil {
		return managed.Wrap(err, "read the tags of hosted zone %s", zoneID)
	}
	tags := map[string]string{}
	if out.ResourceTagSet != nil {
		tags = managed.TagMap(out.ResourceTagSet.Tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
	}
	return managed.CheckForeignWrite(ctx, r, "hosted zone", zoneID, tags)
}

// ownerOf returns the owner a marker of r names.
func ownerOf(r *v1alpha1.Route53RecordSet) route53owner.Owner {
	return route53owner.Owner{Namespace: r.Namespace, Name: r.Name, UID: string(r.UID)}
}
