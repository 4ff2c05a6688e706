package differential

import (
	"context"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// dns is one side's Route 53 and EC2 clients, how it lets changes go INSYNC, and what the steps
// follow: the public zone, the private zone, its VPCs and the last change.
type dns struct {
	r53        *route53.Client
	ec2        *ec2.Client
	settle     func()
	zone, priv *string
	vpcA, vpcB *types.VPC
	lastChange *string
}

// r53ZoneID is the form of AWS's hosted zone ids as Route 53 answers them.
var r53ZoneID = regexp.MustCompile(`^/hostedzone/Z[A-Z0-9]{8,32}$`)

// record returns a change of a record set of one value with a TTL of 300.
func record(action types.ChangeAction, name string, typ types.RRType, value string) types.Change {
	return types.Change{Action: action, ResourceRecordSet: &types.ResourceRecordSet{Name: aws.String(name), Type: typ, TTL: aws.Int64(300),
		ResourceRecords: []types.ResourceRecord{{Value: aws.String(value)}}}}
}

// dnsSteps is the Route 53 sequence both sides run: a public zone with its apex records, record
// changes with AWS's validation errors, listing, tags, a private zone's VPC associations and
// the deletions.
func dnsSteps() []step[*dns] {
	ctx := context.Background()
	changes := func(zone func(d *dns) *string, cs ...types.Change) func(d *dns) outcome {
		return func(d *dns) outcome {
			out, err := d.r53.ChangeResourceRecordSets(ctx, &route53.ChangeResourceRecordSetsInput{HostedZoneId: zone(d), ChangeBatch: &types.ChangeBatch{Changes: cs}})
			if err != nil {
				return observe(err, nil)
			}
			d.lastChange = out.ChangeInfo.Id
			return observe(nil, map[string]string{"status": string(out.ChangeInfo.Status)})
		}
	}
	public := func(d *dns) *string { return d.zone }
	listed := func(d *dns) outcome {
		out, err := d.r53.ListResourceRecordSets(ctx, &route53.ListResourceRecordSetsInput{HostedZoneId: d.zone})
		if err != nil {
			return observe(err, nil)
		}
		var got []string
		for _, r := range out.ResourceRecordSets {
			got = append(got, aws.ToString(r.Name)+"/"+string(r.Type))
		}
		return observe(nil, map[string]string{"records": strings.Join(got, ",")})
	}
	alias := types.Change{Action: types.ChangeActionCreate, ResourceRecordSet: &types.ResourceRecordSet{Name: aws.String("lb.example.com"), Type: types.RRTypeA,
		TTL: aws.Int64(60), AliasTarget: &types.AliasTarget{DNSName: aws.String("lb-1.eu-west-1.elb.amazonaws.com"), HostedZoneId: aws.String("Z32O12XQLNTSW2")}}}
	weighted := record(types.ChangeActionCreate, "w.example.com", types.RRTypeA, "192.0.2.8")
	weighted.ResourceRecordSet.SetIdentifier, weighted.ResourceRecordSet.Weight = aws.String("blue"), aws.Int64(10)
	return []step[*dns]{
		{"CreateHostedZone", func(d *dns) outcome {
			out, err := d.r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("example.com"), CallerReference: aws.String("diff-1"),
				HostedZoneConfig: &types.HostedZoneConfig{Comment: aws.String("site")}})
			if err != nil {
				return observe(err, nil)
			}
			d.zone = out.HostedZone.Id
			return observe(nil, map[string]string{"id": strconv.FormatBool(r53ZoneID.MatchString(aws.ToString(out.HostedZone.Id))), "name": aws.ToString(out.HostedZone.Name),
				"nameServers": strconv.Itoa(len(out.DelegationSet.NameServers)), "status": string(out.ChangeInfo.Status), "private": strconv.FormatBool(out.HostedZone.Config.PrivateZone)})
		}},
		{"CreateSameReference", func(d *dns) outcome {
			_, err := d.r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("example.com"), CallerReference: aws.String("diff-1")})
			return observe(err, nil)
		}},
		{"GetHostedZone", func(d *dns) outcome {
			out, err := d.r53.GetHostedZone(ctx, &route53.GetHostedZoneInput{Id: d.zone})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"count": strconv.FormatInt(aws.ToInt64(out.HostedZone.ResourceRecordSetCount), 10),
				"comment": aws.ToString(out.HostedZone.Config.Comment), "nameServers": strconv.Itoa(len(out.DelegationSet.NameServers))})
		}},
		{"GetMissingHostedZone", func(d *dns) outcome {
			_, err := d.r53.GetHostedZone(ctx, &route53.GetHostedZoneInput{Id: aws.String("Z0000000000000000000X")})
			return observe(err, nil)
		}},
		{"UpdateComment", func(d *dns) outcome {
			out, err := d.r53.UpdateHostedZoneComment(ctx, &route53.UpdateHostedZoneCommentInput{Id: d.zone, Comment: aws.String("renamed")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"comment": aws.ToString(out.HostedZone.Config.Comment)})
		}},
		{"ApexRecords", listed},
		{"CreateRecords", changes(public, record(types.ChangeActionCreate, "WWW.example.com", types.RRTypeA, "192.0.2.1"),
			record(types.ChangeActionCreate, "example.com", types.RRTypeMx, "10 mail.example.com"))},
		{"GetChange", func(d *dns) outcome {
			d.settle()
			out, err := d.r53.GetChange(ctx, &route53.GetChangeInput{Id: d.lastChange})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": string(out.ChangeInfo.Status)})
		}},
		{"GetMissingChange", func(d *dns) outcome {
			_, err := d.r53.GetChange(ctx, &route53.GetChangeInput{Id: aws.String("C0000000000000000000X")})
			return observe(err, nil)
		}},
		{"CreateExisting", changes(public, record(types.ChangeActionCreate, "www.example.com", types.RRTypeA, "192.0.2.9"))},
		{"DeleteMissing", changes(public, record(types.ChangeActionDelete, "api.example.com", types.RRTypeA, "192.0.2.9"))},
		{"DeleteOtherValues", changes(public, record(types.ChangeActionDelete, "www.example.com", types.RRTypeA, "192.0.2.9"))},
		{"CNAMEAtApex", changes(public, record(types.ChangeActionCreate, "example.com", types.RRTypeCname, "other.example.net"))},
		{"OutsideZone", changes(public, record(types.ChangeActionCreate, "www.example.org", types.RRTypeA, "192.0.2.1"))},
		{"AliasWithTTL", changes(public, alias)},
		{"Upsert", changes(public, record(types.ChangeActionUpsert, "www.example.com", types.RRTypeA, "192.0.2.2"),
			record(types.ChangeActionUpsert, "api.example.com", types.RRTypeTxt, `"hello"`), weighted)},
		{"ListRecords", listed},
		{"ListRecordsFrom", func(d *dns) outcome {
			out, err := d.r53.ListResourceRecordSets(ctx, &route53.ListResourceRecordSetsInput{HostedZoneId: d.zone, StartRecordName: aws.String("example.com"),
				StartRecordType: types.RRTypeSoa, MaxItems: aws.Int32(2)})
			if err != nil || len(out.ResourceRecordSets) == 0 {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"first": aws.ToString(out.ResourceRecordSets[0].Name) + "/" + string(out.ResourceRecordSets[0].Type),
				"truncated": strconv.FormatBool(out.IsTruncated), "next": aws.ToString(out.NextRecordName) + "/" + string(out.NextRecordType)})
		}},
		{"DeleteNotEmpty", func(d *dns) outcome {
			_, err := d.r53.DeleteHostedZone(ctx, &route53.DeleteHostedZoneInput{Id: d.zone})
			return observe(err, nil)
		}},
		{"Tags", func(d *dns) outcome {
			id := aws.String(strings.TrimPrefix(aws.ToString(d.zone), "/hostedzone/"))
			if _, err := d.r53.ChangeTagsForResource(ctx, &route53.ChangeTagsForResourceInput{ResourceId: id, ResourceType: types.TagResourceTypeHostedzone,
				AddTags: []types.Tag{{Key: aws.String("team"), Value: aws.String("web")}, {Key: aws.String("env"), Value: aws.String("dev")}}, RemoveTagKeys: []string{"none"}}); err != nil {
				return observe(err, nil)
			}
			out, err := d.r53.ListTagsForResource(ctx, &route53.ListTagsForResourceInput{ResourceId: id, ResourceType: types.TagResourceTypeHostedzone})
			if err != nil {
				return observe(err, nil)
			}
			var got []string
			for _, tag := range out.ResourceTagSet.Tags {
				got = append(got, aws.ToString(tag.Key)+"="+aws.ToString(tag.Value))
			}
			// AWS documents no order of a resource's tags.
			sort.Strings(got)
			return observe(nil, map[string]string{"tags": strings.Join(got, ",")})
		}},
		{"TagsOfMissingZone", func(d *dns) outcome {
			_, err := d.r53.ListTagsForResource(ctx, &route53.ListTagsForResourceInput{ResourceId: aws.String("Z0000000000000000000X"), ResourceType: types.TagResourceTypeHostedzone})
			return observe(err, nil)
		}},
		{"CreatePrivateZone", func(d *dns) outcome {
			for _, v := range []**types.VPC{&d.vpcA, &d.vpcB} {
				vpc, err := d.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.2.0.0/16")})
				if err != nil {
					return observe(err, nil)
				}
				*v = &types.VPC{VPCId: vpc.Vpc.VpcId, VPCRegion: types.VPCRegionUsEast1}
			}
			out, err := d.r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("internal.example"), CallerReference: aws.String("diff-2"), VPC: d.vpcA,
				HostedZoneConfig: &types.HostedZoneConfig{PrivateZone: true}})
			if err != nil {
				return observe(err, nil)
			}
			d.priv = out.HostedZone.Id
			return observe(nil, map[string]string{"private": strconv.FormatBool(out.HostedZone.Config.PrivateZone), "delegation": strconv.FormatBool(out.DelegationSet != nil)})
		}},
		{"CreatePrivateByVPCOnly", func(d *dns) outcome {
			out, err := d.r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("vpc.internal.example"), CallerReference: aws.String("diff-3"), VPC: d.vpcB})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"private": strconv.FormatBool(out.HostedZone.Config.PrivateZone)})
		}},
		{"DisassociateLastVPC", func(d *dns) outcome {
			_, err := d.r53.DisassociateVPCFromHostedZone(ctx, &route53.DisassociateVPCFromHostedZoneInput{HostedZoneId: d.priv, VPC: d.vpcA})
			return observe(err, nil)
		}},
		{"AssociateVPC", func(d *dns) outcome {
			_, err := d.r53.AssociateVPCWithHostedZone(ctx, &route53.AssociateVPCWithHostedZoneInput{HostedZoneId: d.priv, VPC: d.vpcB})
			return observe(err, nil)
		}},
		{"GetPrivateZone", func(d *dns) outcome {
			out, err := d.r53.GetHostedZone(ctx, &route53.GetHostedZoneInput{Id: d.priv})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"vpcs": strconv.Itoa(len(out.VPCs))})
		}},
		{"DisassociateVPC", func(d *dns) outcome {
			_, err := d.r53.DisassociateVPCFromHostedZone(ctx, &route53.DisassociateVPCFromHostedZoneInput{HostedZoneId: d.priv, VPC: d.vpcA})
			return observe(err, nil)
		}},
		{"AssociateWithPublicZone", func(d *dns) outcome {
			_, err := d.r53.AssociateVPCWithHostedZone(ctx, &route53.AssociateVPCWithHostedZoneInput{HostedZoneId: d.zone, VPC: d.vpcA})
			return observe(err, nil)
		}},
		{"ListByName", func(d *dns) outcome {
			out, err := d.r53.ListHostedZonesByName(ctx, &route53.ListHostedZonesByNameInput{})
			if err != nil {
				return observe(err, nil)
			}
			var names []string
			for _, z := range out.HostedZones {
				names = append(names, aws.ToString(z.Name))
			}
			return observe(nil, map[string]string{"names": strings.Join(names, ","), "truncated": strconv.FormatBool(out.IsTruncated)})
		}},
		{"EmptyAndDelete", func(d *dns) outcome {
			out := changes(public, record(types.ChangeActionDelete, "www.example.com", types.RRTypeA, "192.0.2.2"),
				record(types.ChangeActionDelete, "example.com", types.RRTypeMx, "10 mail.example.com"),
				record(types.ChangeActionDelete, "api.example.com", types.RRTypeTxt, `"hello"`),
				types.Change{Action: types.ChangeActionDelete, ResourceRecordSet: weighted.ResourceRecordSet})(d)
			if out.Result != "ok" {
				return out
			}
			_, err := d.r53.DeleteHostedZone(ctx, &route53.DeleteHostedZoneInput{Id: d.zone})
			return observe(err, nil)
		}},
	}
}

// TestRoute53AgainstMoto runs the Route 53 sequence on the emulator and on moto and compares
// results and error codes; the known differences are where moto departs from AWS's
// documentation, which the emulator follows.
func TestRoute53AgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	emuCfg, peerCfg := sdkConfig(t, emu.URL), sdkConfig(t, peerURL)
	emuSide := &dns{r53: route53.NewFromConfig(emuCfg), ec2: ec2.NewFromConfig(emuCfg), settle: func() { e.Clock.Advance(time.Minute) }}
	peerSide := &dns{r53: route53.NewFromConfig(peerCfg), ec2: ec2.NewFromConfig(peerCfg), settle: func() {}}
	compare(t, emuSide, peerSide, "moto "+motoVersion, dnsSteps(), map[string]string{
		"CreateHostedZone": "moto's hosted zone ids are not Z and upper-case letters and digits, and its changes are INSYNC at once; AWS's " +
			"ids have that form and a change is PENDING until it has propagated (GetChange)",
		"CreateSameReference": "moto creates a second zone with a CallerReference in use; AWS answers HostedZoneAlreadyExists",
		"CreateRecords":       "moto's changes are INSYNC at once; AWS's are PENDING first",
		"Upsert":              "moto's changes are INSYNC at once; AWS's are PENDING first",
		"GetMissingChange":    "moto answers any change id as INSYNC; AWS answers NoSuchChange for an id it did not give",
		"CreateExisting": "moto replaces a record set a CREATE names again; AWS answers InvalidChangeBatch (Tried to create resource " +
			"record set [name='www.example.com.', type='A'] but it already exists)",
		"DeleteMissing": "moto answers InvalidInput; AWS answers InvalidChangeBatch (Tried to delete resource record set " +
			"[name='api.example.com.', type='A'] but it was not found)",
		"DeleteOtherValues": "moto deletes a record set whose values differ from the DELETE's; AWS answers InvalidChangeBatch (the values " +
			"provided do not match the current values)",
		"CNAMEAtApex": "moto accepts a CNAME at the zone apex; AWS answers InvalidChangeBatch (RRSet of type CNAME ... is not permitted at apex)",
		"AliasWithTTL": "moto accepts an alias target with a TTL; AWS answers InvalidInput (Expected exactly one of [AliasTarget, all of " +
			"[TTL, and ResourceRecords], or TrafficPolicyInstanceId], but found more than one)",
		"ListRecords": "moto holds what AWS refuses (see CNAMEAtApex, AliasWithTTL) and keeps names' case (WWW.example.com.); AWS " +
			"lowercases names",
		"ListRecordsFrom": "moto's records differ (see ListRecords), so the page after the apex SOA does",
		"CreatePrivateByVPCOnly": "moto makes a zone private only when HostedZoneConfig.PrivateZone is true and ignores a VPC given " +
			"without it; AWS makes a zone created with a VPC private (CreateHostedZone, VPC)",
		"TagsOfMissingZone": "moto lists no tags for a zone that does not exist; AWS answers NoSuchHostedZone",
		"ListByName":        "moto has the second zone of CreateSameReference, which AWS refuses",
		"EmptyAndDelete":    "moto still holds the records AWS refuses (see ListRecords), so the zone is not empty there",
	})
}
