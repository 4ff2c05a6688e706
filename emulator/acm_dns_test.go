package emulator_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	acmtypes "github.com/aws/aws-sdk-go-v2/service/acm/types"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestACMValidatesThroughRoute53 checks that a DNS-validated certificate whose names a public
// hosted zone of the emulated Route 53 holds stays PENDING_VALIDATION until the zone has each
// name's validation record (with ACM's value; a wrong value does not validate), that a name no
// zone holds is validated after the transition time as before, that a private zone validates
// nothing, and that the certificate is ISSUED once the last record is written.
func TestACMValidatesThroughRoute53(t *testing.T) {
	ctx := context.Background()
	e, url := start(t, emulator.Options{})
	frozenOnSecond(e)
	cfg := sdkConfig(t, url, "AKIDACMDNS", 1)
	certs, dns := acm.NewFromConfig(cfg), route53.NewFromConfig(cfg)
	zone, err := dns.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("example.com"), CallerReference: aws.String("acm-dns")})
	if err != nil {
		t.Fatal(err)
	}
	req, err := certs.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("shop.example.com"),
		SubjectAlternativeNames: []string{"*.shop.example.com", "api.elsewhere.test"}, ValidationMethod: acmtypes.ValidationMethodDns})
	if err != nil {
		t.Fatal(err)
	}
	statuses := func() (acmtypes.CertificateStatus, map[string]acmtypes.DomainStatus, map[string]*acmtypes.ResourceRecord) {
		d := describeCert(t, certs, req.CertificateArn)
		by, records := map[string]acmtypes.DomainStatus{}, map[string]*acmtypes.ResourceRecord{}
		for _, v := range d.DomainValidationOptions {
			by[aws.ToString(v.DomainName)], records[aws.ToString(v.DomainName)] = v.ValidationStatus, v.ResourceRecord
		}
		return d.Status, by, records
	}
	e.Clock.Advance(time.Hour)
	status, by, records := statuses()
	if status != acmtypes.CertificateStatusPendingValidation || by["shop.example.com"] != acmtypes.DomainStatusPendingValidation ||
		by["api.elsewhere.test"] != acmtypes.DomainStatusSuccess {
		t.Fatalf("an hour on without the records: %s %v, want PENDING_VALIDATION with only api.elsewhere.test validated", status, by)
	}
	record := records["shop.example.com"]
	if *record.Name != *records["*.shop.example.com"].Name {
		t.Fatalf("a wildcard and its base share one record: %v and %v", *record.Name, *records["*.shop.example.com"].Name)
	}
	write := func(value string, action types.ChangeAction) {
		t.Helper()
		_, err := dns.ChangeResourceRecordSets(ctx, &route53.ChangeResourceRecordSetsInput{HostedZoneId: zone.HostedZone.Id,
			ChangeBatch: &types.ChangeBatch{Changes: []types.Change{{Action: action, ResourceRecordSet: &types.ResourceRecordSet{
				Name: record.Name, Type: types.RRTypeCname, TTL: aws.Int64(300), ResourceRecords: []types.ResourceRecord{{Value: aws.String(value)}}}}}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	write("_wrong.acm-validations.aws.", types.ChangeActionCreate)
	e.Clock.Advance(time.Minute)
	if status, by, _ := statuses(); status != acmtypes.CertificateStatusPendingValidation || by["shop.example.com"] != acmtypes.DomainStatusPendingValidation {
		t.Fatalf("with a record of another value: %s %v, want PENDING_VALIDATION", status, by)
	}
	write(*record.Value, types.ChangeActionUpsert)
	e.Clock.Advance(time.Second)
	status, by, _ = statuses()
	if status != acmtypes.CertificateStatusIssued || by["shop.example.com"] != acmtypes.DomainStatusSuccess || by["*.shop.example.com"] != acmtypes.DomainStatusSuccess {
		t.Fatalf("with the validation record: %s %v, want ISSUED with every name validated", status, by)
	}

	// A private zone answers only inside its VPCs: a name it alone holds validates on time.
	vpc, err := ec2.NewFromConfig(cfg).CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.9.0.0/16")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dns.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("internal.test"), CallerReference: aws.String("acm-dns-private"),
		HostedZoneConfig: &types.HostedZoneConfig{PrivateZone: true}, VPC: &types.VPC{VPCId: vpc.Vpc.VpcId, VPCRegion: types.VPCRegion(cfg.Region)}}); err != nil {
		t.Fatal(err)
	}
	private, err := certs.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String("db.internal.test"), ValidationMethod: acmtypes.ValidationMethodDns})
	if err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(acmTransition)
	if got := describeCert(t, certs, private.CertificateArn).Status; got != acmtypes.CertificateStatusIssued {
		t.Fatalf("a name only a private zone holds: %s after the transition time, want ISSUED", got)
	}
}
