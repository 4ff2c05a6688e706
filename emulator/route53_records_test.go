package emulator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"
)

// TestRoute53RecordChanges covers CREATE, UPSERT and DELETE with AWS's InvalidChangeBatch texts,
// the atomicity of a batch, names normalised, and a batch's change going INSYNC on the clock.
func TestRoute53RecordChanges(t *testing.T) {
	ctx := context.Background()
	env := route53Client(t)
	id := env.zone(t, "example.com")
	out, err := env.change(id, plain(types.ChangeActionCreate, "WWW.Example.com", types.RRTypeA, "192.0.2.1", "192.0.2.2"),
		plain(types.ChangeActionCreate, "*.example.com", types.RRTypeTxt, `"v=spf1 -all"`))
	if err != nil {
		t.Fatal(err)
	}
	if out.ChangeInfo.Status != types.ChangeStatusPending || aws.ToString(out.ChangeInfo.Comment) != "batch" {
		t.Fatalf("change %+v", out.ChangeInfo)
	}
	env.e.Clock.Advance(2 * time.Second)
	if got, err := env.r53.GetChange(ctx, &route53.GetChangeInput{Id: out.ChangeInfo.Id}); err != nil || got.ChangeInfo.Status != types.ChangeStatusInsync {
		t.Fatalf("GetChange: %+v, %v", got, err)
	}
	if rs := strings.Join(env.records(t, id), ","); rs != `example.com. NS,example.com. SOA,\052.example.com. TXT,www.example.com. A` {
		t.Fatalf("records %s", rs)
	}

	_, err = env.change(id, plain(types.ChangeActionCreate, "www.example.com.", types.RRTypeA, "192.0.2.9"))
	wantMessage(t, "CREATE of an existing record set", err, "InvalidChangeBatch", "Tried to create resource record set [name='www.example.com.', type='A'] but it already exists")
	_, err = env.change(id, plain(types.ChangeActionDelete, "api.example.com.", types.RRTypeA, "192.0.2.9"))
	wantMessage(t, "DELETE of a missing record set", err, "InvalidChangeBatch", "Tried to delete resource record set [name='api.example.com.', type='A'] but it was not found")
	_, err = env.change(id, plain(types.ChangeActionDelete, "www.example.com.", types.RRTypeA, "192.0.2.1"))
	wantMessage(t, "DELETE with other values", err, "InvalidChangeBatch", "but the values provided do not match the current values")

	// A failing change leaves the whole batch undone.
	_, err = env.change(id, plain(types.ChangeActionCreate, "api.example.com", types.RRTypeA, "192.0.2.3"),
		plain(types.ChangeActionCreate, "www.example.com", types.RRTypeA, "192.0.2.9"))
	wantCode(t, "a batch with a failing change", err, "InvalidChangeBatch")
	if rs := env.records(t, id); len(rs) != 4 {
		t.Fatalf("records after a failed batch: %v", rs)
	}
	// DELETE and CREATE of one record set in a batch replace it; UPSERT creates or replaces.
	if _, err := env.change(id, plain(types.ChangeActionDelete, "www.example.com", types.RRTypeA, "192.0.2.2", "192.0.2.1"),
		plain(types.ChangeActionCreate, "www.example.com", types.RRTypeA, "192.0.2.5"),
		plain(types.ChangeActionUpsert, "api.example.com", types.RRTypeAaaa, "2001:db8::1"),
		plain(types.ChangeActionUpsert, "api.example.com", types.RRTypeAaaa, "2001:db8::2")); err != nil {
		t.Fatal(err)
	}
	list, err := env.r53.ListResourceRecordSets(ctx, &route53.ListResourceRecordSetsInput{HostedZoneId: id, StartRecordName: aws.String("api.example.com"), MaxItems: aws.Int32(1)})
	if err != nil || len(list.ResourceRecordSets) != 1 || aws.ToString(list.ResourceRecordSets[0].ResourceRecords[0].Value) != "2001:db8::2" ||
		!list.IsTruncated || aws.ToString(list.NextRecordName) != "www.example.com." || list.NextRecordType != types.RRTypeA {
		t.Fatalf("page from api.example.com: %+v, %v", list, err)
	}
	list, err = env.r53.ListResourceRecordSets(ctx, &route53.ListResourceRecordSetsInput{HostedZoneId: id, StartRecordName: list.NextRecordName, StartRecordType: list.NextRecordType})
	if err != nil || len(list.ResourceRecordSets) != 1 || aws.ToString(list.ResourceRecordSets[0].ResourceRecords[0].Value) != "192.0.2.5" || list.IsTruncated {
		t.Fatalf("next page: %+v, %v", list, err)
	}
	_, err = env.r53.ListResourceRecordSets(ctx, &route53.ListResourceRecordSetsInput{HostedZoneId: id, StartRecordType: types.RRTypeA})
	wantCode(t, "ListResourceRecordSets with a type and no name", err, "InvalidInput")
	_, err = env.r53.ListResourceRecordSets(ctx, &route53.ListResourceRecordSetsInput{HostedZoneId: aws.String("ZNOTAZONE")})
	wantCode(t, "ListResourceRecordSets of an unknown zone", err, "NoSuchHostedZone")
	_, err = env.change(aws.String("ZNOTAZONE"), plain(types.ChangeActionCreate, "a.example.com", types.RRTypeA, "192.0.2.1"))
	wantCode(t, "ChangeResourceRecordSets of an unknown zone", err, "NoSuchHostedZone")

	soa, err := env.r53.ListResourceRecordSets(ctx, &route53.ListResourceRecordSetsInput{HostedZoneId: id, StartRecordName: aws.String("example.com"),
		StartRecordType: types.RRTypeSoa, MaxItems: aws.Int32(1)})
	if err != nil || soa.ResourceRecordSets[0].Type != types.RRTypeSoa {
		t.Fatalf("SOA page: %+v, %v", soa, err)
	}
	_, err = env.change(id, types.Change{Action: types.ChangeActionDelete, ResourceRecordSet: &soa.ResourceRecordSets[0]})
	wantMessage(t, "DELETE of the apex SOA", err, "InvalidChangeBatch", "A HostedZone must contain exactly one SOA record.")
}

// TestRoute53RecordValidation covers the rules of a record set on its own and against the zone:
// CNAME at the apex and beside other types, names outside the zone, values of the type's form,
// alias targets exclusive with TTL and records, and routing policies with set identifiers.
func TestRoute53RecordValidation(t *testing.T) {
	env := route53Client(t)
	id := env.zone(t, "example.com")
	alias := func(name, target string, zone *string) types.Change {
		return types.Change{Action: types.ChangeActionCreate, ResourceRecordSet: &types.ResourceRecordSet{Name: aws.String(name), Type: types.RRTypeA,
			AliasTarget: &types.AliasTarget{DNSName: aws.String(target), HostedZoneId: zone, EvaluateTargetHealth: true}}}
	}
	weighted := func(name, set string, weight int64) types.Change {
		c := plain(types.ChangeActionCreate, name, types.RRTypeA, "192.0.2.1")
		c.ResourceRecordSet.SetIdentifier, c.ResourceRecordSet.Weight = aws.String(set), aws.Int64(weight)
		return c
	}
	withTTL := alias("a.example.com", "b.example.com", id)
	withTTL.ResourceRecordSet.TTL = aws.Int64(60)
	noTTL := plain(types.ChangeActionCreate, "a.example.com", types.RRTypeA, "192.0.2.1")
	noTTL.ResourceRecordSet.TTL = nil
	setOnly := plain(types.ChangeActionCreate, "a.example.com", types.RRTypeA, "192.0.2.1")
	setOnly.ResourceRecordSet.SetIdentifier = aws.String("one")
	weightOnly := weighted("a.example.com", "one", 10)
	weightOnly.ResourceRecordSet.SetIdentifier = nil
	twoPolicies := weighted("a.example.com", "one", 10)
	twoPolicies.ResourceRecordSet.Region = types.ResourceRecordSetRegionEuWest1
	for _, c := range []struct {
		what, code, text string
		change           types.Change
	}{
		{"CNAME at the apex", "InvalidChangeBatch", "RRSet of type CNAME with DNS name example.com. is not permitted at apex in zone example.com.",
			plain(types.ChangeActionCreate, "example.com", types.RRTypeCname, "other.example.net")},
		{"a name outside the zone", "InvalidChangeBatch", "RRSet with DNS name www.example.org. is not permitted in zone example.com.",
			plain(types.ChangeActionCreate, "www.example.org", types.RRTypeA, "192.0.2.1")},
		{"an A record that is not IPv4", "InvalidChangeBatch", "ARRDATAIllegalIPv4Address", plain(types.ChangeActionCreate, "a.example.com", types.RRTypeA, "192.0.2")},
		{"an AAAA record that is not IPv6", "InvalidChangeBatch", "AAAARRDATAIllegalIPv6Address", plain(types.ChangeActionCreate, "a.example.com", types.RRTypeAaaa, "192.0.2.1")},
		{"a CNAME of two values", "InvalidChangeBatch", "contains more than one value", plain(types.ChangeActionCreate, "c.example.com", types.RRTypeCname, "x.example.net", "y.example.net")},
		{"an MX record of one field", "InvalidChangeBatch", "MXRRDATA", plain(types.ChangeActionCreate, "example.com", types.RRTypeMx, "mail.example.com")},
		{"an alias with a TTL", "InvalidInput", "but found more than one in Change with [Action=CREATE, Name=a.example.com., Type=A, SetIdentifier=null]", withTTL},
		{"records without a TTL", "InvalidInput", "but found none", noTTL},
		{"an alias to a missing record of the zone", "InvalidChangeBatch", "but that target was not found", alias("a.example.com", "missing.example.com", id)},
		{"a set identifier without a policy", "InvalidInput", "Expected exactly one of [Weight, Region, Failover", setOnly},
		{"a weight without a set identifier", "InvalidInput", "Missing field 'SetIdentifier'", weightOnly},
		{"two routing policies", "InvalidInput", "but found more than one", twoPolicies},
		{"a weight above 255", "InvalidInput", "weight", weighted("a.example.com", "one", 256)},
		{"an unknown type", "InvalidInput", "resourceRecordSet.type", plain(types.ChangeActionCreate, "a.example.com", types.RRType("XYZ"), "1")},
	} {
		_, err := env.change(id, c.change)
		wantMessage(t, c.what, err, c.code, c.text)
	}

	// Routing policies: weighted record sets side by side, not beside a simple one; latency and
	// failover; aliases to the zone's own records and to another zone's (an S3 website endpoint's, taken as given).
	latency := plain(types.ChangeActionCreate, "api.example.com", types.RRTypeA, "192.0.2.7")
	latency.ResourceRecordSet.SetIdentifier, latency.ResourceRecordSet.Region = aws.String("eu"), types.ResourceRecordSetRegionEuWest1
	primary := plain(types.ChangeActionCreate, "db.example.com", types.RRTypeCname, "db1.example.net")
	primary.ResourceRecordSet.SetIdentifier, primary.ResourceRecordSet.Failover = aws.String("primary"), types.ResourceRecordSetFailoverPrimary
	_, err := env.change(id, weighted("w.example.com", "blue", 90), weighted("w.example.com", "green", 10), latency, primary,
		alias("example.com", "w.example.com", id), alias("lb.example.com", "s3-website-eu-west-1.amazonaws.com", aws.String("Z1BKCTXD74EZPE")))
	if err != nil {
		t.Fatal(err)
	}
	_, err = env.change(id, plain(types.ChangeActionCreate, "w.example.com", types.RRTypeA, "192.0.2.1"))
	wantCode(t, "a simple record beside weighted ones", err, "InvalidChangeBatch")
	_, err = env.change(id, plain(types.ChangeActionCreate, "db.example.com", types.RRTypeTxt, `"x"`))
	wantMessage(t, "a TXT record beside a CNAME", err, "InvalidChangeBatch", "a conflicting RRSet of type  CNAME with the same DNS name already exists")
	_, err = env.change(id, plain(types.ChangeActionCreate, "w.example.com", types.RRTypeCname, "x.example.net"))
	wantMessage(t, "a CNAME beside A records", err, "InvalidChangeBatch", "conflicts with other records with the same DNS name")
	got := strings.Join(env.records(t, id), ",")
	want := "example.com. A,example.com. NS,example.com. SOA,api.example.com. A /eu,db.example.com. CNAME /primary,lb.example.com. A,w.example.com. A /blue,w.example.com. A /green"
	if got != want {
		t.Fatalf("records\n got %s\nwant %s", got, want)
	}
	list, err := env.r53.ListResourceRecordSets(context.Background(), &route53.ListResourceRecordSetsInput{HostedZoneId: id, StartRecordName: aws.String("lb.example.com"), StartRecordType: types.RRTypeA})
	if err != nil {
		t.Fatal(err)
	}
	lb := list.ResourceRecordSets[0]
	if lb.AliasTarget == nil || aws.ToString(lb.AliasTarget.DNSName) != "s3-website-eu-west-1.amazonaws.com." || !lb.AliasTarget.EvaluateTargetHealth ||
		aws.ToString(lb.AliasTarget.HostedZoneId) != "Z1BKCTXD74EZPE" || lb.TTL != nil || len(lb.ResourceRecords) != 0 {
		t.Fatalf("alias record set %+v", lb)
	}
	// A DELETE names a weighted record set by its set identifier and must match its weight.
	_, err = env.change(id, types.Change{Action: types.ChangeActionDelete, ResourceRecordSet: weighted("w.example.com", "blue", 50).ResourceRecordSet})
	wantCode(t, "DELETE of a weighted record with another weight", err, "InvalidChangeBatch")
	if _, err := env.change(id, types.Change{Action: types.ChangeActionDelete, ResourceRecordSet: weighted("w.example.com", "blue", 90).ResourceRecordSet}); err != nil {
		t.Fatal(err)
	}
}
