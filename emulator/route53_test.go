package emulator_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"
	"github.com/aws/smithy-go"

	"github.com/runner-codes/infra-operator/emulator"
)

// The forms of Route 53's hosted zone and change ids and of its name servers.
var (
	hostedZoneID = regexp.MustCompile(`^/hostedzone/Z[A-Z0-9]{20}$`)
	changeID     = regexp.MustCompile(`^/change/C[A-Z0-9]{20}$`)
	nameServer   = regexp.MustCompile(`^ns-\d{1,4}\.awsdns-\d{2}\.(com|net|org|co\.uk)$`)
)

// route53Env is an emulator with a frozen clock, its Route 53 client and an EC2 client of
// eu-west-1.
type route53Env struct {
	e   *emulator.Server
	r53 *route53.Client
	ec2 *ec2.Client
}

// route53Client starts an emulator for a Route 53 test.
func route53Client(t *testing.T) route53Env {
	t.Helper()
	e, url := start(t, emulator.Options{})
	frozenOnSecond(e)
	cfg := sdkConfig(t, url, "AKIDR53", 1)
	eu := cfg.Copy()
	eu.Region = "eu-west-1"
	return route53Env{e: e, r53: route53.NewFromConfig(cfg), ec2: ec2.NewFromConfig(eu)}
}

// zone creates a public hosted zone and returns its id.
func (env route53Env) zone(t *testing.T, name string) *string {
	t.Helper()
	out, err := env.r53.CreateHostedZone(context.Background(), &route53.CreateHostedZoneInput{Name: aws.String(name), CallerReference: aws.String(name + "-ref")})
	if err != nil {
		t.Fatal(err)
	}
	return out.HostedZone.Id
}

// vpc creates a VPC in eu-west-1 and returns it as Route 53 names it.
func (env route53Env) vpc(t *testing.T) *types.VPC {
	t.Helper()
	out, err := env.ec2.CreateVpc(context.Background(), &ec2.CreateVpcInput{CidrBlock: aws.String("10.1.0.0/16")})
	if err != nil {
		t.Fatal(err)
	}
	return &types.VPC{VPCId: out.Vpc.VpcId, VPCRegion: types.VPCRegionEuWest1}
}

// change applies a batch of changes to a zone.
func (env route53Env) change(zone *string, changes ...types.Change) (*route53.ChangeResourceRecordSetsOutput, error) {
	return env.r53.ChangeResourceRecordSets(context.Background(), &route53.ChangeResourceRecordSetsInput{HostedZoneId: zone,
		ChangeBatch: &types.ChangeBatch{Changes: changes, Comment: aws.String("batch")}})
}

// records lists every record set of a zone as "name type" strings.
func (env route53Env) records(t *testing.T, zone *string) []string {
	t.Helper()
	out, err := env.r53.ListResourceRecordSets(context.Background(), &route53.ListResourceRecordSetsInput{HostedZoneId: zone})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range out.ResourceRecordSets {
		got = append(got, aws.ToString(r.Name)+" "+string(r.Type)+setSuffix(r.SetIdentifier))
	}
	return got
}

// setSuffix returns " /<id>" for a record set with a set identifier, and nothing otherwise.
func setSuffix(id *string) string {
	if id == nil {
		return ""
	}
	return " /" + *id
}

// plain returns a change of a record set of values with a TTL of 300.
func plain(action types.ChangeAction, name string, typ types.RRType, values ...string) types.Change {
	rs := &types.ResourceRecordSet{Name: aws.String(name), Type: typ, TTL: aws.Int64(300)}
	for _, v := range values {
		rs.ResourceRecords = append(rs.ResourceRecords, types.ResourceRecord{Value: aws.String(v)})
	}
	return types.Change{Action: action, ResourceRecordSet: rs}
}

// wantMessage fails the test unless err carries the AWS error code and its message contains text.
func wantMessage(t *testing.T, what string, err error, code, text string) {
	t.Helper()
	wantCode(t, what, err, code)
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) && !strings.Contains(apiErr.ErrorMessage(), text) {
		t.Fatalf("%s: message %q, want it to contain %q", what, apiErr.ErrorMessage(), text)
	}
}

// TestRoute53HostedZone covers a public zone's life: its apex records and delegation set, the
// CallerReference rule, reads, comment updates, listing by name, changes that go INSYNC on the
// clock, and deletion refused while it holds records of its own.
func TestRoute53HostedZone(t *testing.T) {
	ctx := context.Background()
	env := route53Client(t)
	created, err := env.r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("Example.COM"), CallerReference: aws.String("r1"),
		HostedZoneConfig: &types.HostedZoneConfig{Comment: aws.String("site")}})
	if err != nil {
		t.Fatal(err)
	}
	id := created.HostedZone.Id
	if !hostedZoneID.MatchString(aws.ToString(id)) || aws.ToString(created.HostedZone.Name) != "example.com." ||
		aws.ToString(created.HostedZone.Config.Comment) != "site" || created.HostedZone.Config.PrivateZone {
		t.Fatalf("created zone %+v", created.HostedZone)
	}
	if ns := created.DelegationSet.NameServers; len(ns) != 4 || !nameServer.MatchString(ns[0]) || !strings.HasSuffix(ns[3], ".co.uk") {
		t.Fatalf("delegation set %v", ns)
	}
	if !changeID.MatchString(aws.ToString(created.ChangeInfo.Id)) || created.ChangeInfo.Status != types.ChangeStatusPending ||
		!strings.HasSuffix(aws.ToString(created.Location), "/2013-04-01/hostedzone/"+strings.TrimPrefix(aws.ToString(id), "/hostedzone/")) {
		t.Fatalf("change %+v, location %q", created.ChangeInfo, aws.ToString(created.Location))
	}
	change, err := env.r53.GetChange(ctx, &route53.GetChangeInput{Id: created.ChangeInfo.Id})
	if err != nil || change.ChangeInfo.Status != types.ChangeStatusPending {
		t.Fatalf("change before the transition: %+v, %v", change, err)
	}
	env.e.Clock.Advance(2 * time.Second)
	if change, err = env.r53.GetChange(ctx, &route53.GetChangeInput{Id: created.ChangeInfo.Id}); err != nil || change.ChangeInfo.Status != types.ChangeStatusInsync {
		t.Fatalf("change after the transition: %+v, %v", change, err)
	}
	_, err = env.r53.GetChange(ctx, &route53.GetChangeInput{Id: aws.String("CNOTACHANGE")})
	wantMessage(t, "GetChange of an unknown id", err, "NoSuchChange", "CNOTACHANGE")

	_, err = env.r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("other.com"), CallerReference: aws.String("r1")})
	wantMessage(t, "CreateHostedZone with a used CallerReference", err, "HostedZoneAlreadyExists", "caller reference")
	_, err = env.r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("bad..com"), CallerReference: aws.String("r2")})
	wantCode(t, "CreateHostedZone of a bad name", err, "InvalidDomainName")

	got, err := env.r53.GetHostedZone(ctx, &route53.GetHostedZoneInput{Id: id})
	if err != nil || aws.ToInt64(got.HostedZone.ResourceRecordSetCount) != 2 || len(got.DelegationSet.NameServers) != 4 || len(got.VPCs) != 0 {
		t.Fatalf("GetHostedZone: %+v, %v", got, err)
	}
	if rs := env.records(t, id); strings.Join(rs, ",") != "example.com. NS,example.com. SOA" {
		t.Fatalf("apex records %v", rs)
	}
	_, err = env.r53.GetHostedZone(ctx, &route53.GetHostedZoneInput{Id: aws.String("ZNOTAZONE")})
	wantMessage(t, "GetHostedZone of an unknown id", err, "NoSuchHostedZone", "No hosted zone found with ID: ZNOTAZONE")

	updated, err := env.r53.UpdateHostedZoneComment(ctx, &route53.UpdateHostedZoneCommentInput{Id: id, Comment: aws.String("renamed")})
	if err != nil || aws.ToString(updated.HostedZone.Config.Comment) != "renamed" {
		t.Fatalf("UpdateHostedZoneComment: %+v, %v", updated, err)
	}

	for _, n := range []string{"b.example.com", "a.example.org", "example.net"} {
		env.zone(t, n)
	}
	list, err := env.r53.ListHostedZonesByName(ctx, &route53.ListHostedZonesByNameInput{MaxItems: aws.Int32(2)})
	if err != nil || len(list.HostedZones) != 2 || aws.ToString(list.HostedZones[0].Name) != "example.com." ||
		aws.ToString(list.HostedZones[1].Name) != "b.example.com." || !list.IsTruncated || aws.ToString(list.NextDNSName) != "example.net." {
		t.Fatalf("first page by name: %+v, %v", list, err)
	}
	list, err = env.r53.ListHostedZonesByName(ctx, &route53.ListHostedZonesByNameInput{DNSName: list.NextDNSName, HostedZoneId: list.NextHostedZoneId})
	if err != nil || len(list.HostedZones) != 2 || aws.ToString(list.HostedZones[1].Name) != "a.example.org." || list.IsTruncated {
		t.Fatalf("second page by name: %+v, %v", list, err)
	}
	_, err = env.r53.ListHostedZonesByName(ctx, &route53.ListHostedZonesByNameInput{HostedZoneId: id})
	wantCode(t, "ListHostedZonesByName with an id and no name", err, "InvalidInput")

	if _, err := env.change(id, plain(types.ChangeActionCreate, "www.example.com", types.RRTypeA, "192.0.2.1")); err != nil {
		t.Fatal(err)
	}
	_, err = env.r53.DeleteHostedZone(ctx, &route53.DeleteHostedZoneInput{Id: id})
	wantMessage(t, "DeleteHostedZone of a zone with records", err, "HostedZoneNotEmpty", "non-required resource record sets")
	if _, err := env.change(id, plain(types.ChangeActionDelete, "www.example.com.", types.RRTypeA, "192.0.2.1")); err != nil {
		t.Fatal(err)
	}
	deleted, err := env.r53.DeleteHostedZone(ctx, &route53.DeleteHostedZoneInput{Id: id})
	if err != nil || deleted.ChangeInfo.Status != types.ChangeStatusPending {
		t.Fatalf("DeleteHostedZone: %+v, %v", deleted, err)
	}
	_, err = env.r53.GetHostedZone(ctx, &route53.GetHostedZoneInput{Id: id})
	wantCode(t, "GetHostedZone after deletion", err, "NoSuchHostedZone")
	_, err = env.r53.DeleteHostedZone(ctx, &route53.DeleteHostedZoneInput{Id: id})
	wantCode(t, "DeleteHostedZone twice", err, "NoSuchHostedZone")
}

// TestRoute53PrivateZone covers private zones: a VPC the emulated EC2 holds, association and
// disassociation with AWS's refusals, and a public zone that takes no VPC.
func TestRoute53PrivateZone(t *testing.T) {
	ctx := context.Background()
	env := route53Client(t)
	first, second := env.vpc(t), env.vpc(t)
	_, err := env.r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("internal.example"), CallerReference: aws.String("p0"),
		VPC: &types.VPC{VPCId: aws.String("vpc-0123456789abcdef0"), VPCRegion: types.VPCRegionEuWest1}})
	wantCode(t, "CreateHostedZone with an unknown VPC", err, "InvalidVPCId")
	_, err = env.r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("internal.example"), CallerReference: aws.String("p0"),
		VPC: &types.VPC{VPCId: first.VPCId, VPCRegion: types.VPCRegionUsEast1}})
	wantCode(t, "CreateHostedZone with a VPC of another region", err, "InvalidVPCId")
	_, err = env.r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("internal.example"), CallerReference: aws.String("p0"),
		HostedZoneConfig: &types.HostedZoneConfig{PrivateZone: true}})
	wantCode(t, "CreateHostedZone of a private zone without a VPC", err, "InvalidInput")

	created, err := env.r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("internal.example"), CallerReference: aws.String("p1"), VPC: first})
	if err != nil {
		t.Fatal(err)
	}
	if !created.HostedZone.Config.PrivateZone || created.DelegationSet != nil || aws.ToString(created.VPC.VPCId) != aws.ToString(first.VPCId) {
		t.Fatalf("private zone %+v, delegation set %+v", created.HostedZone, created.DelegationSet)
	}
	id := created.HostedZone.Id
	_, err = env.r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("internal.example"), CallerReference: aws.String("p2"), VPC: first})
	wantCode(t, "a second private zone of the name in one VPC", err, "ConflictingDomainExists")

	_, err = env.r53.DisassociateVPCFromHostedZone(ctx, &route53.DisassociateVPCFromHostedZoneInput{HostedZoneId: id, VPC: first})
	wantCode(t, "DisassociateVPCFromHostedZone of the last VPC", err, "LastVPCAssociation")
	assoc, err := env.r53.AssociateVPCWithHostedZone(ctx, &route53.AssociateVPCWithHostedZoneInput{HostedZoneId: id, VPC: second, Comment: aws.String("second")})
	if err != nil || aws.ToString(assoc.ChangeInfo.Comment) != "second" {
		t.Fatalf("AssociateVPCWithHostedZone: %+v, %v", assoc, err)
	}
	_, err = env.r53.AssociateVPCWithHostedZone(ctx, &route53.AssociateVPCWithHostedZoneInput{HostedZoneId: id, VPC: second})
	wantCode(t, "AssociateVPCWithHostedZone twice", err, "ConflictingDomainExists")
	got, err := env.r53.GetHostedZone(ctx, &route53.GetHostedZoneInput{Id: id})
	if err != nil || len(got.VPCs) != 2 || got.DelegationSet != nil {
		t.Fatalf("GetHostedZone of the private zone: %+v, %v", got, err)
	}
	if _, err := env.r53.DisassociateVPCFromHostedZone(ctx, &route53.DisassociateVPCFromHostedZoneInput{HostedZoneId: id, VPC: first}); err != nil {
		t.Fatal(err)
	}
	_, err = env.r53.DisassociateVPCFromHostedZone(ctx, &route53.DisassociateVPCFromHostedZoneInput{HostedZoneId: id, VPC: first})
	wantCode(t, "DisassociateVPCFromHostedZone of a VPC not associated", err, "VPCAssociationNotFound")

	public := env.zone(t, "public.example")
	_, err = env.r53.AssociateVPCWithHostedZone(ctx, &route53.AssociateVPCWithHostedZoneInput{HostedZoneId: public, VPC: first})
	wantCode(t, "AssociateVPCWithHostedZone with a public zone", err, "PublicZoneVPCAssociation")
	_, err = env.r53.AssociateVPCWithHostedZone(ctx, &route53.AssociateVPCWithHostedZoneInput{HostedZoneId: aws.String("ZNOTAZONE"), VPC: first})
	wantCode(t, "AssociateVPCWithHostedZone with an unknown zone", err, "NoSuchHostedZone")
}

// TestRoute53Tags covers ChangeTagsForResource and ListTagsForResource on a hosted zone, and the
// refusals of unknown zones, health checks and too many tags.
func TestRoute53Tags(t *testing.T) {
	ctx := context.Background()
	env := route53Client(t)
	id := aws.String(strings.TrimPrefix(aws.ToString(env.zone(t, "tags.example")), "/hostedzone/"))
	_, err := env.r53.ChangeTagsForResource(ctx, &route53.ChangeTagsForResourceInput{ResourceId: id, ResourceType: types.TagResourceTypeHostedzone,
		AddTags: []types.Tag{{Key: aws.String("team"), Value: aws.String("web")}, {Key: aws.String("env"), Value: aws.String("dev")}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.r53.ChangeTagsForResource(ctx, &route53.ChangeTagsForResourceInput{ResourceId: id, ResourceType: types.TagResourceTypeHostedzone,
		AddTags: []types.Tag{{Key: aws.String("owner"), Value: aws.String("me")}}, RemoveTagKeys: []string{"env"}}); err != nil {
		t.Fatal(err)
	}
	out, err := env.r53.ListTagsForResource(ctx, &route53.ListTagsForResourceInput{ResourceId: id, ResourceType: types.TagResourceTypeHostedzone})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tag := range out.ResourceTagSet.Tags {
		got = append(got, aws.ToString(tag.Key)+"="+aws.ToString(tag.Value))
	}
	if strings.Join(got, ",") != "owner=me,team=web" || aws.ToString(out.ResourceTagSet.ResourceId) != aws.ToString(id) ||
		out.ResourceTagSet.ResourceType != types.TagResourceTypeHostedzone {
		t.Fatalf("tags %v of %+v", got, out.ResourceTagSet)
	}
	_, err = env.r53.ListTagsForResource(ctx, &route53.ListTagsForResourceInput{ResourceId: aws.String("ZNOTAZONE"), ResourceType: types.TagResourceTypeHostedzone})
	wantCode(t, "ListTagsForResource of an unknown zone", err, "NoSuchHostedZone")
	_, err = env.r53.ListTagsForResource(ctx, &route53.ListTagsForResourceInput{ResourceId: aws.String("abc"), ResourceType: types.TagResourceTypeHealthcheck})
	wantCode(t, "ListTagsForResource of a health check", err, "NoSuchHealthCheck")
	many := make([]types.Tag, 11)
	for i := range many {
		many[i] = types.Tag{Key: aws.String(strings.Repeat("k", i+1)), Value: aws.String("v")}
	}
	_, err = env.r53.ChangeTagsForResource(ctx, &route53.ChangeTagsForResourceInput{ResourceId: id, ResourceType: types.TagResourceTypeHostedzone, AddTags: many})
	wantCode(t, "ChangeTagsForResource with eleven tags", err, "InvalidInput")
	_, err = env.r53.ChangeTagsForResource(ctx, &route53.ChangeTagsForResourceInput{ResourceId: id, ResourceType: types.TagResourceTypeHostedzone,
		AddTags: []types.Tag{{Key: aws.String("aws:reserved"), Value: aws.String("v")}}})
	wantCode(t, "ChangeTagsForResource with a reserved key", err, "InvalidInput")
}

// TestRoute53TransitionOption checks that Options.Transitions["Route53"] of zero makes changes
// INSYNC at once.
func TestRoute53TransitionOption(t *testing.T) {
	_, url := start(t, emulator.Options{Transitions: map[string]time.Duration{"Route53": 0}})
	r53 := route53.NewFromConfig(sdkConfig(t, url, "AKIDR53", 1))
	out, err := r53.CreateHostedZone(context.Background(), &route53.CreateHostedZoneInput{Name: aws.String("now.example"), CallerReference: aws.String("now")})
	if err != nil || out.ChangeInfo.Status != types.ChangeStatusInsync {
		t.Fatalf("CreateHostedZone with an immediate transition: %+v, %v", out, err)
	}
}
