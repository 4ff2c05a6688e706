package security_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	acmtypes "github.com/aws/aws-sdk-go-v2/service/acm/types"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	r53types "github.com/aws/aws-sdk-go-v2/service/route53/types"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// dnsZone creates a public hosted zone in the emulated Route 53, tagged as made by an object of
// namespace owner (untagged when owner is empty), and returns its id without the /hostedzone/
// prefix.
func (h *harness) dnsZone(t *testing.T, dns *route53.Client, name, owner string) string {
	t.Helper()
	ctx := context.Background()
	out, err := dns.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String(name), CallerReference: aws.String(name + "-" + owner)})
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimPrefix(aws.ToString(out.HostedZone.Id), "/hostedzone/")
	if owner != "" {
		if _, err := dns.ChangeTagsForResource(ctx, &route53.ChangeTagsForResourceInput{ResourceType: r53types.TagResourceTypeHostedzone, ResourceId: aws.String(id),
			AddTags: []r53types.Tag{{Key: aws.String(shared.TagOwnerNamespace), Value: aws.String(owner)}}}); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

// cnames returns the CNAME records of a zone, value by name.
func cnames(t *testing.T, dns *route53.Client, zone string) map[string]string {
	t.Helper()
	out, err := dns.ListResourceRecordSets(context.Background(), &route53.ListResourceRecordSetsInput{HostedZoneId: aws.String(zone)})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range out.ResourceRecordSets {
		if r.Type == r53types.RRTypeCname && len(r.ResourceRecords) == 1 {
			got[aws.ToString(r.Name)] = aws.ToString(r.ResourceRecords[0].Value)
		}
	}
	return got
}

// zoneCertificate returns a DNS-validated ACMCertificate of names whose validation records go
// into the hosted zone zoneID.
func zoneCertificate(ns, name, zoneID string, names ...string) *v1alpha1.ACMCertificate {
	c := &v1alpha1.ACMCertificate{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	c.Spec.ProviderRef.Name = "aws"
	c.Spec.DomainName, c.Spec.SubjectAlternativeNames, c.Spec.HostedZoneID = names[0], names[1:], zoneID
	return c
}

// TestACMCertificateValidatedThroughZone checks hostedZoneID: the validation records go into
// the zone in one change batch and the certificate becomes ISSUED (the emulated ACM validates a
// name a public emulated zone holds only once its record is there); a second certificate of the
// same name writes nothing and shares the record, which stays until the last certificate that
// uses it goes; a record of another value is never overwritten; a zone the namespace did not
// make is not written into; and the zone fields are refused where they cannot work.
func TestACMCertificateValidatedThroughZone(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	dns := route53.NewFromConfig(h.env.AWSConfig(testAccessKey, testSecretKey))
	zone := h.dnsZone(t, dns, "example.com", ns)
	h.emu.Calls.Reset()

	shop := zoneCertificate(ns, "shop", zone, "shop.example.com", "*.shop.example.com", "www.shop.example.com")
	kubetest.Create(t, h.c, shop)
	shop = kubetest.WaitReady(t, h.c, shop)
	if got := kubetest.Calls(h.emu.Calls.Snapshot(), "Route53")["ChangeResourceRecordSets"]; got != 1 {
		t.Errorf("%d ChangeResourceRecordSets to write the records, want 1 batch", got)
	}
	records := cnames(t, dns, zone)
	if len(shop.Status.ValidationRecords) != 2 || len(records) != 2 {
		t.Fatalf("status.validationRecords %v, zone's CNAMEs %v: want the two records of shop and www (the wildcard shares shop's)", shop.Status.ValidationRecords, records)
	}
	for _, v := range shop.Status.DomainValidationOptions {
		if v.ValidationStatus != "SUCCESS" || records[v.ResourceRecord.Name] != v.ResourceRecord.Value {
			t.Errorf("%s: %s, record %+v, zone has %q", v.DomainName, v.ValidationStatus, v.ResourceRecord, records[v.ResourceRecord.Name])
		}
	}
	shopRecord := shop.Status.DomainValidationOptions[0].ResourceRecord.Name

	// A second certificate of shop.example.com finds its record there: nothing written, the
	// record shared.
	again := zoneCertificate(ns, "shop-again", zone, "shop.example.com")
	kubetest.Create(t, h.c, again)
	again = kubetest.WaitFor(t, h.c, again, kubetest.Timeout, "issued, sharing the record", func(c *v1alpha1.ACMCertificate) bool {
		_, ready := readyMessage(c)
		return ready && len(c.Status.ValidationRecords) == 1 && c.Status.ValidationRecords[0] == shopRecord
	})
	if got := kubetest.Calls(h.emu.Calls.Snapshot(), "Route53")["ChangeResourceRecordSets"]; got != 1 {
		t.Errorf("%d ChangeResourceRecordSets after the second certificate, want still 1", got)
	}
	// Issued certificates cost no Route 53 call.
	h.emu.Calls.Reset()
	kubetest.ResyncUntil(t, h.c, again, "looked at again", func() bool { return kubetest.Calls(h.emu.Calls.Snapshot(), "ACM")["DescribeCertificate"] > 0 })
	if got := kubetest.Calls(h.emu.Calls.Snapshot(), "Route53"); len(got) != 0 {
		t.Errorf("Route 53 calls of a sync of an issued certificate: %v, want none", got)
	}

	// The first certificate goes: www's record with it, shop's stays for the second.
	kubetest.Delete(t, h.c, shop)
	kubetest.WaitGone(t, h.c, shop)
	if got := cnames(t, dns, zone); len(got) != 1 || got[shopRecord] == "" {
		t.Errorf("after the first certificate went the zone has %v, want only the shared record %s", got, shopRecord)
	}
	kubetest.Delete(t, h.c, again)
	kubetest.WaitGone(t, h.c, again)
	if got := cnames(t, dns, zone); len(got) != 0 {
		t.Errorf("after the last certificate went the zone has %v, want no validation record", got)
	}

	// A record of another value at the validation name is not overwritten. The record's name
	// depends only on the account and the domain: a request made directly tells it.
	direct, err := h.acm.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("taken.example.com"), ValidationMethod: acmtypes.ValidationMethodDns})
	if err != nil {
		t.Fatal(err)
	}
	taken := h.certificate(t, aws.ToString(direct.CertificateArn)).DomainValidationOptions[0].ResourceRecord.Name
	if _, err := dns.ChangeResourceRecordSets(ctx, &route53.ChangeResourceRecordSetsInput{HostedZoneId: aws.String(zone), ChangeBatch: &r53types.ChangeBatch{
		Changes: []r53types.Change{{Action: r53types.ChangeActionCreate, ResourceRecordSet: &r53types.ResourceRecordSet{Name: taken, Type: r53types.RRTypeCname,
			TTL: aws.Int64(60), ResourceRecords: []r53types.ResourceRecord{{Value: aws.String("somewhere.else.example.")}}}}}}}); err != nil {
		t.Fatal(err)
	}
	h.emu.Calls.Reset()
	conflict := zoneCertificate(ns, "taken", zone, "taken.example.com")
	kubetest.Create(t, h.c, conflict)
	got := kubetest.WaitCondition(t, h.c, conflict, condition.TypeSynced, "False", condition.ReasonRecordSetNotOwned)
	if cond := meta.FindStatusCondition(got.Status.Conditions, condition.TypeSynced); !strings.Contains(cond.Message, "does not overwrite") {
		t.Errorf("condition: %q", cond.Message)
	}
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "Route53")["ChangeResourceRecordSets"]; n != 0 || cnames(t, dns, zone)[aws.ToString(taken)] != "somewhere.else.example." {
		t.Errorf("%d ChangeResourceRecordSets; the record is now %q", n, cnames(t, dns, zone)[aws.ToString(taken)])
	}

	// A zone no object of the namespace made is not written into.
	foreign := h.dnsZone(t, dns, "example.org", "")
	hostile := zoneCertificate(ns, "hostile", foreign, "api.example.org")
	kubetest.Create(t, h.c, hostile)
	kubetest.WaitCondition(t, h.c, hostile, condition.TypeSynced, "False", condition.ReasonForeignWriteNotAllowed)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "Route53")["ChangeResourceRecordSets"]; n != 0 || len(cnames(t, dns, foreign)) != 0 {
		t.Errorf("%d ChangeResourceRecordSets, foreign zone's CNAMEs %v: want nothing written", n, cnames(t, dns, foreign))
	}

	// Refused at admission: a zone for an email-validated or imported certificate, and a
	// change of zone.
	mail := zoneCertificate(ns, "mail", zone, "mail.example.com")
	mail.Spec.ValidationMethod = "EMAIL"
	if err := h.c.Create(ctx, mail); err == nil || !strings.Contains(err.Error(), "validationMethod DNS") {
		t.Errorf("an email-validated certificate with a zone: %v", err)
	}
	kubetest.MustRefuseUpdate(t, h.c, hostile, func(c *v1alpha1.ACMCertificate) { c.Spec.HostedZoneID = zone }, "hostedZoneID cannot change")
}
