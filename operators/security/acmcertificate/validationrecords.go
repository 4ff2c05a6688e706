package acmcertificate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	acmtypes "github.com/aws/aws-sdk-go-v2/service/acm/types"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// fieldValidationRecords is how a plan names the validation records written into the zone.
const fieldValidationRecords = "validationRecords"

// validationTTL is the TTL of the validation records the operator writes, the one ACM's
// console gives them.
const validationTTL = 300

// pendingRecords returns the DNS validation records ACM asks for that validate no name yet, one
// per record name (a wildcard name and its base share one), in the order ACM lists them.
func pendingRecords(cert *acmtypes.CertificateDetail) []acmtypes.ResourceRecord {
	var out []acmtypes.ResourceRecord
	for _, v := range cert.DomainValidationOptions {
		r := v.ResourceRecord
		if r == nil || v.ValidationMethod != acmtypes.ValidationMethodDns || v.ValidationStatus == acmtypes.DomainStatusSuccess {
			continue
		}
		if !slices.ContainsFunc(out, func(o acmtypes.ResourceRecord) bool { return sameName(aws.ToString(o.Name), aws.ToString(r.Name)) }) {
			out = append(out, *r)
		}
	}
	return out
}

// planValidationRecords plans writing, into the hosted zone the spec names, the validation
// records of a certificate pending validation that the zone lacks, in one change batch: one
// GetHostedZone and one ListResourceRecordSets per record (and ListTagsForResource for a zone
// named by id) while the certificate is pending, none once it is issued. A record already there
// with ACM's value is left as it is (shareRecords: the certificate shares the records another
// certificate of the namespace wrote, and leaves others to whoever made them); one there with
// another value is never overwritten: the object gets a terminal RecordSetNotOwned condition, before any write. A
// zone named by id must be one an object of the namespace made (managed.CheckForeignWrite).
func (d *driver) planValidationRecords(ctx context.Context, obs *managed.Observation[State], c *v1alpha1.ACMCertificate, cert *acmtypes.CertificateDetail) error {
	zoneID := c.Spec.HostedZoneID
	if zoneID == "" {
		return nil
	}
	others, err := d.namespaceCertificates(ctx, c)
	if err != nil {
		return err
	}
	shareRecords(c, cert, others)
	records := pendingRecords(cert)
	if cert.Status != acmtypes.CertificateStatusPendingValidation || len(records) == 0 {
		return nil
	}
	zone, err := d.dns.GetHostedZone(ctx, &route53.GetHostedZoneInput{Id: aws.String(zoneID)})
	if awserr.Code(err) == "NoSuchHostedZone" {
		obs.Conflict = managed.Terminal(condition.ReasonHostedZoneUnusable, "hosted zone %s does not exist; name a public hosted zone that holds %s", zoneID, aws.ToString(cert.DomainName))
		return nil
	}
	if err != nil {
		return fmt.Errorf("get hosted zone %s: %w", zoneID, err)
	}
	if cfg := zone.HostedZone.Config; cfg != nil && cfg.PrivateZone {
		obs.Conflict = managed.Terminal(condition.ReasonHostedZoneUnusable, "hosted zone %s is private; ACM validates through public DNS: name a public hosted zone", zoneID)
		return nil
	}
	if c.Spec.HostedZoneRef == nil {
		if err := d.mayWrite(ctx, c, zoneID); err != nil {
			return err
		}
	}
	zoneName := aws.ToString(zone.HostedZone.Name)
	var missing []acmtypes.ResourceRecord
	for _, r := range records {
		name, value := aws.ToString(r.Name), aws.ToString(r.Value)
		if !inZone(name, zoneName) {
			obs.Conflict = managed.Terminal(condition.ReasonHostedZoneUnusable, "hosted zone %s (%s) does not hold the validation record %s; "+
				"name the zone of the certificate's domain", zoneID, zoneName, name)
			return nil
		}
		values, err := d.cnameValues(ctx, zoneID, name)
		if err != nil {
			return err
		}
		switch {
		case values == nil:
			missing = append(missing, r)
		case slices.ContainsFunc(values, func(v string) bool { return sameName(v, value) }):
		default:
			obs.Conflict = managed.Terminal(condition.ReasonRecordSetNotOwned, "hosted zone %s has a CNAME record %s with another value than ACM's (%s); "+
				"the operator does not overwrite a record it did not write: remove or correct it", zoneID, name, value)
			return nil
		}
	}
	if len(missing) == 0 {
		return nil
	}
	names := make([]string, 0, len(missing))
	changes := make([]types.Change, 0, len(missing))
	for _, r := range missing {
		names = append(names, aws.ToString(r.Name))
		changes = append(changes, types.Change{Action: types.ChangeActionCreate, ResourceRecordSet: &types.ResourceRecordSet{
			Name: r.Name, Type: types.RRTypeCname, TTL: aws.Int64(validationTTL), ResourceRecords: []types.ResourceRecord{{Value: r.Value}}}})
	}
	obs.Changes.AddValue(fieldValidationRecords, c.Status.ValidationRecords, append(slices.Clone(c.Status.ValidationRecords), names...), func(ctx context.Context) error {
		_, err := d.dns.ChangeResourceRecordSets(ctx, &route53.ChangeResourceRecordSetsInput{HostedZoneId: aws.String(zoneID), ChangeBatch: &types.ChangeBatch{
			Comment: aws.String(fmt.Sprintf("ACM validation records of certificate %s (ACMCertificate %s/%s)", aws.ToString(cert.CertificateArn), c.Namespace, c.Name)),
			Changes: changes}})
		if err != nil {
			return managed.Wrap(err, "write the validation records %s into hosted zone %s", strings.Join(names, ", "), zoneID)
		}
		c.Status.ValidationRecords = append(c.Status.ValidationRecords, names...)
		return nil
	})
	return nil
}

// mayWrite checks that the namespace of c may write into the hosted zone zoneID, named by id:
// an object of the namespace made it, or the administrator allows foreign writes.
func (d *driver) mayWrite(ctx context.Context, c *v1alpha1.ACMCertificate, zoneID string) error {
	out, err := d.dns.ListTagsForResource(ctx, &route53.ListTagsForResourceInput{ResourceType: types.TagResourceTypeHostedzone, ResourceId: aws.String(zoneID)})
	if err != nil {
		return fmt.Errorf("list the tags of hosted zone %s: %w", zoneID, err)
	}
	tags := map[string]string{}
	if out.ResourceTagSet != nil {
		for _, t := range out.ResourceTagSet.Tags {
			tags[aws.ToString(t.Key)] = aws.ToString(t.Value)
		}
	}
	return managed.CheckForeignWrite(ctx, c, "hosted zone", zoneID, tags)
}

// cnameValues returns the values of the CNAME record set at name in the zone, nil when there is
// none: one ListResourceRecordSets that starts at the name.
func (d *driver) cnameValues(ctx context.Context, zoneID, name string) ([]string, error) {
	out, err := d.dns.ListResourceRecordSets(ctx, &route53.ListResourceRecordSetsInput{HostedZoneId: aws.String(zoneID),
		StartRecordName: aws.String(name), StartRecordType: types.RRTypeCname, MaxItems: aws.Int32(1)})
	if err != nil {
		return nil, fmt.Errorf("read record %s of hosted zone %s: %w", name, zoneID, err)
	}
	if len(out.ResourceRecordSets) == 0 {
		return nil, nil
	}
	rs := out.ResourceRecordSets[0]
	if rs.Type != types.RRTypeCname || !sameName(aws.ToString(rs.Name), name) {
		return nil, nil
	}
	values := make([]string, 0, len(rs.ResourceRecords))
	for _, v := range rs.ResourceRecords {
		values = append(values, aws.ToString(v.Value))
	}
	return values, nil
}

// deleteValidationRecords removes, once the certificate is deleted, the validation records the
// operator wrote for it (status.validationRecords) that no other ACMCertificate of the namespace
// lists, each with ACM's value as it was written; a record that holds another value now, or is
// gone, is left alone. The zone gone with its records is no error.
func (d *driver) deleteValidationRecords(ctx context.Context, c *v1alpha1.ACMCertificate, cert *acmtypes.CertificateDetail) error {
	zoneID := c.Spec.HostedZoneID
	if zoneID == "" || len(c.Status.ValidationRecords) == 0 {
		return nil
	}
	others, err := d.namespaceCertificates(ctx, c)
	if err != nil {
		return err
	}
	var changes []types.Change
	for _, name := range c.Status.ValidationRecords {
		if sharedRecord(others, c, name) {
			continue
		}
		value := recordValue(cert, name)
		values, err := d.cnameValues(ctx, zoneID, name)
		if awserr.Code(err) == "NoSuchHostedZone" {
			return nil
		}
		if err != nil {
			return err
		}
		if value == "" || !slices.ContainsFunc(values, func(v string) bool { return sameName(v, value) }) {
			continue
		}
		changes = append(changes, types.Change{Action: types.ChangeActionDelete, ResourceRecordSet: &types.ResourceRecordSet{
			Name: aws.String(name), Type: types.RRTypeCname, TTL: aws.Int64(validationTTL), ResourceRecords: []types.ResourceRecord{{Value: aws.String(value)}}}})
	}
	if len(changes) == 0 {
		return nil
	}
	_, err = d.dns.ChangeResourceRecordSets(ctx, &route53.ChangeResourceRecordSetsInput{HostedZoneId: aws.String(zoneID),
		ChangeBatch: &types.ChangeBatch{Comment: aws.String(fmt.Sprintf("ACMCertificate %s/%s deleted", c.Namespace, c.Name)), Changes: changes}})
	if awserr.Code(err) == "NoSuchHostedZone" {
		return nil
	}
	return managed.Wrap(err, "remove the validation records of the certificate from hosted zone %s", zoneID)
}

// shareRecords adds to c's status.validationRecords the validation records of cert that another
// certificate of the namespace wrote and keeps (a record depends only on the account and the
// name, so theirs is c's too): the record then stays while either needs it and goes with the
// last. It reads nothing from AWS.
func shareRecords(c *v1alpha1.ACMCertificate, cert *acmtypes.CertificateDetail, others []v1alpha1.ACMCertificate) {
	for _, v := range cert.DomainValidationOptions {
		r := v.ResourceRecord
		if r == nil {
			continue
		}
		name := aws.ToString(r.Name)
		if sharedRecord(others, c, name) && !slices.ContainsFunc(c.Status.ValidationRecords, func(n string) bool { return sameName(n, name) }) {
			c.Status.ValidationRecords = append(c.Status.ValidationRecords, name)
		}
	}
}

// namespaceCertificates returns the ACMCertificates of c's namespace, read from the cache.
func (d *driver) namespaceCertificates(ctx context.Context, c *v1alpha1.ACMCertificate) ([]v1alpha1.ACMCertificate, error) {
	var list v1alpha1.ACMCertificateList
	if err := d.kube.List(ctx, &list, client.InNamespace(c.Namespace)); err != nil {
		return nil, fmt.Errorf("list the ACMCertificates of namespace %s: %w", c.Namespace, err)
	}
	return list.Items, nil
}

// sharedRecord reports whether an ACMCertificate of items other than c, and not being deleted,
// lists the validation record name as one the operator wrote and keeps.
func sharedRecord(items []v1alpha1.ACMCertificate, c *v1alpha1.ACMCertificate, name string) bool {
	return slices.ContainsFunc(items, func(o v1alpha1.ACMCertificate) bool {
		return o.UID != c.UID && o.DeletionTimestamp == nil && slices.ContainsFunc(o.Status.ValidationRecords, func(n string) bool { return sameName(n, name) })
	})
}

// recordValue returns the value ACM gives the validation record name of the certificate, empty
// when it names no such record.
func recordValue(cert *acmtypes.CertificateDetail, name string) string {
	for _, v := range cert.DomainValidationOptions {
		if r := v.ResourceRecord; r != nil && sameName(aws.ToString(r.Name), name) {
			return aws.ToString(r.Value)
		}
	}
	return ""
}

// sameName reports whether two domain names are the same, ignoring case and a trailing dot.
func sameName(a, b string) bool {
	return strings.EqualFold(strings.TrimSuffix(a, "."), strings.TrimSuffix(b, "."))
}

// inZone reports whether the domain name is the zone's apex or below it.
func inZone(name, zone string) bool {
	name, zone = strings.ToLower(strings.TrimSuffix(name, ".")), strings.ToLower(strings.TrimSuffix(zone, "."))
	return name == zone || strings.HasSuffix(name, "."+zone)
}
