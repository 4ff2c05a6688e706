package route53recordset

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/route53owner"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// changeWait is how soon a PENDING change is asked about again: the emulator's changes are
// INSYNC after 2 s, AWS's within 60 s.
const changeWait = 2 * time.Second

// State is what AWS said about a record set and its marker.
type State struct {
	// ZoneID is the zone's id.
	ZoneID string
	// Record is the record set, nil when it is missing.
	Record *types.ResourceRecordSet
	// Marker is its ownership marker, nil when it is missing.
	Marker *types.ResourceRecordSet
}

// Observe finds the record set and its marker (one ListResourceRecordSets from the record
// set's name and type), decides whose it is, fills the status and, for one of the object's
// own, plans one UPSERT of the record set with its marker for every difference from the spec.
// A record set with no marker, or another object's, is a conflict: never written. While the
// last change is PENDING, GetChange is asked until it is INSYNC.
func (d *driver) Observe(ctx context.Context, r *v1alpha1.Route53RecordSet, req managed.Request) (managed.Observation[State], error) {
	zoneID, full, err := d.locate(ctx, r, req.Deleting)
	if err != nil || zoneID == "" {
		return managed.Observation[State]{}, err
	}
	set := r.Spec.SetIdentifier
	typ := types.RRType(r.Spec.Type)
	if _, _, t, s, ok := parseExternalName(managed.ExternalName(r)); ok && req.Deleting {
		typ, set = types.RRType(t), s
	}
	record, marker, err := d.find(ctx, zoneID, full, typ, set)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if record == nil && marker == nil {
		return managed.Observation[State]{}, nil
	}
	owner, marked := route53owner.Of(marker)
	// An object that only observes writes nothing, so it may observe a record set of anyone's.
	owned := marked && owner.UID == string(r.GetUID()) || shared.ObserveOnly(r) && !req.Deleting
	state := &State{ZoneID: zoneID, Record: record, Marker: marker}
	if req.Deleting {
		// What is not the object's is not the object's to delete.
		return managed.Observation[State]{Exists: owned, State: state}, nil
	}
	if !owned {
		return managed.Observation[State]{Exists: true, State: state, Conflict: notOwned(full, typ, set, owner, marked, marker != nil)}, nil
	}
	managed.SetExternalName(r, externalName(zoneID, full, string(typ), set))
	obs := managed.Observation[State]{Exists: true, State: state}
	want := desired(r, full)
	if record == nil {
		obs.Changes.Add("recordSet", d.upsert(r, zoneID, want))
		return obs, nil
	}
	if fields, values := differences(record, want); len(fields) > 0 {
		obs.Changes.AddFieldValues(fields, values, d.upsert(r, zoneID, want))
	}
	if err := d.changeStatus(ctx, r); err != nil {
		return managed.Observation[State]{}, err
	}
	obs.Ready = r.Status.ChangeStatus != string(types.ChangeStatusPending)
	if !obs.Ready {
		obs.Message, obs.ReadyIn = fmt.Sprintf("change %s is PENDING: Route 53 has not applied it on all its servers yet", r.Status.ChangeID), changeWait
	}
	return obs, nil
}

// locate returns the zone and the full name of the record set, and fills them into the
// status: from the spec (the zone's name read once, then kept in the status), or, while the
// object is deleted, from the identifier recorded on it. zoneID is "" when nothing can be
// found (an object deleted before it recorded anything).
func (d *driver) locate(ctx context.Context, r *v1alpha1.Route53RecordSet, deleting bool) (zoneID, full string, err error) {
	if deleting {
		zoneID, full, _, _, ok := parseExternalName(managed.ExternalName(r))
		if !ok {
			zoneID, full = r.Status.HostedZoneID, r.Status.FQDN
		}
		return zoneID, full, nil
	}
	zoneID = r.Spec.ZoneID
	if r.Status.HostedZoneID != zoneID || r.Status.ZoneName == "" {
		out, err := d.api.GetHostedZone(ctx, &route53.GetHostedZoneInput{Id: aws.String(zoneID)})
		if err != nil {
			return "", "", managed.Wrap(err, "get hosted zone %s", zoneID)
		}
		r.Status.HostedZoneID, r.Status.ZoneName = zoneID, normal(aws.ToString(out.HostedZone.Name))
	}
	if full, err = fqdn(r.Spec.Name, r.Status.ZoneName); err != nil {
		return "", "", err
	}
	r.Status.FQDN = full
	return zoneID, full, nil
}

// pageSize is how many record sets Observe lists from the record set's name and type: the
// record set, the others of its name, and its marker, which comes after them.
const pageSize = 8

// find returns the record set of the name, type and set identifier, and its marker, nil for
// one that does not exist: one list from the record set on, and a direct look for either that
// a truncated page did not reach.
func (d *driver) find(ctx context.Context, zoneID, full string, typ types.RRType, set string) (record, marker *types.ResourceRecordSet, err error) {
	markerName := route53owner.Name(full, string(typ))
	page, truncated, err := d.list(ctx, zoneID, full, typ, set, pageSize)
	if err != nil {
		return nil, nil, err
	}
	record, marker = pick(page, full, typ, set), pick(page, markerName, types.RRTypeTxt, set)
	if truncated && record == nil {
		if page, _, err = d.list(ctx, zoneID, full, typ, set, 1); err != nil {
			return nil, nil, err
		}
		record = pick(page, full, typ, set)
	}
	if truncated && marker == nil {
		if page, _, err = d.list(ctx, zoneID, markerName, types.RRTypeTxt, set, 1); err != nil {
			return nil, nil, err
		}
		marker = pick(page, markerName, types.RRTypeTxt, set)
	}
	return record, marker, nil
}

// list lists up to n record sets of the zone from name, type and set identifier on.
func (d *driver) list(ctx context.Context, zoneID, name string, typ types.RRType, set string, n int32) ([]types.ResourceRecordSet, bool, error) {
	in := &route53.ListResourceRecordSetsInput{HostedZoneId: aws.String(zoneID), StartRecordName: aws.String(name), StartRecordType: typ, MaxItems: aws.Int32(n)}
	if set != "" {
		in.StartRecordIdentifier = aws.String(set)
	}
	out, err := d.api.ListResourceRecordSets(ctx, in)
	if awserr.IsNotFound(err) {
		// The zone is gone, and its record sets with it.
		return nil, false, nil
	}
	if err != nil {
		return nil, false, managed.Wrap(err, "list the record sets of hosted zone %s from %s %s", zoneID, name, typ)
	}
	return out.ResourceRecordSets, out.IsTruncated, nil
}

// pick returns the record set of page with the name, type and set identifier, or nil.
func pick(page []types.ResourceRecordSet, name string, typ types.RRType, set string) *types.ResourceRecordSet {
	for i, rs := range page {
		if normal(aws.ToString(rs.Name)) == normal(name) && rs.Type == typ && aws.ToString(rs.SetIdentifier) == set {
			return &page[i]
		}
	}
	return nil
}

// changeStatus asks Route 53 about the object's last change while it is PENDING, and records
// the answer. A change Route 53 no longer knows (it keeps them for a while) is INSYNC.
func (d *driver) changeStatus(ctx context.Context, r *v1alpha1.Route53RecordSet) error {
	if r.Status.ChangeID == "" || r.Status.ChangeStatus == string(types.ChangeStatusInsync) {
		return nil
	}
	out, err := d.api.GetChange(ctx, &route53.GetChangeInput{Id: aws.String(r.Status.ChangeID)})
	switch {
	case awserr.IsNotFound(err):
		r.Status.ChangeStatus = string(types.ChangeStatusInsync)
		return nil
	case err != nil:
		return managed.Wrap(err, "get change %s", r.Status.ChangeID)
	}
	r.Status.ChangeStatus = string(out.ChangeInfo.Status)
	return nil
}

// notOwned is the conflict of a record set the object does not own: unmarked (made outside the
// operator, or by hand), or marked for another object.
func notOwned(full string, typ types.RRType, set string, owner route53owner.Owner, marked, markerFound bool) error {
	what := fmt.Sprintf("record set %s %s", typ, full)
	if set != "" {
		what += " (set identifier " + set + ")"
	}
	switch {
	case marked:
		return managed.Terminal(condition.ReasonRecordSetNotOwned, "%s belongs to Route53RecordSet %s (uid %s); the operator never overwrites "+
			"another object's record set: choose another name, type or set identifier; nothing was written", what, owner, owner.UID)
	case markerFound:
		return managed.Terminal(condition.ReasonRecordSetNotOwned, "%s carries an ownership marker %s that is not infra-operator's; "+
			"nothing was written", what, route53owner.Name(full, string(typ)))
	}
	return managed.Terminal(condition.ReasonRecordSetNotOwned, "%s exists in the zone without this object's ownership marker (TXT %s): "+
		"it was made outside the operator, which never overwrites it; delete it in Route 53 to let this object create its own, or choose "+
		"another name, type or set identifier; nothing was written", what, route53owner.Name(full, string(typ)))
}
