package route53owner

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"
	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	long := Owner{Namespace: "team", Name: strings.Repeat("n", 250), UID: "0b9c-uid"}
	type want struct {
		owner Owner
		ok    bool
	}
	cases := map[string]struct {
		reason string
		value  string
		want   want
	}{
		"Marker": {
			reason: "A marker's value names its owner.",
			value:  Value(Owner{Namespace: "shop", Name: "www", UID: "1234"}),
			want:   want{owner: Owner{Namespace: "shop", Name: "www", UID: "1234"}, ok: true},
		},
		"LongMarker": {
			reason: "A value over 255 characters is split into strings and read back whole.",
			value:  Value(long),
			want:   want{owner: long, ok: true},
		},
		"OtherHeritage": {
			reason: "Another tool's TXT record (external-dns's) is not a marker.",
			value:  `"heritage=external-dns,external-dns/owner=default"`,
		},
		"NoUID": {
			reason: "A marker without a uid decides nothing.",
			value:  `"heritage=infra-operator,owner=a/b"`,
		},
		"Text": {
			reason: "Any other TXT value is not a marker.",
			value:  `"v=spf1 -all"`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			owner, ok := Parse(tc.value)
			if diff := cmp.Diff(tc.want, want{owner: owner, ok: ok}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nParse(%q): -want, +got:\n%s", tc.reason, tc.value, diff)
			}
		})
	}
	if parts := strings.Count(Value(long), `" "`); parts != 1 {
		t.Errorf("a value of %d characters is %d strings, want 2", len(Value(long)), parts+1)
	}
}

func TestRecordSet(t *testing.T) {
	o := Owner{Namespace: "shop", Name: "api", UID: "u-1"}
	cases := map[string]struct {
		reason string
		record *types.ResourceRecordSet
		want   *types.ResourceRecordSet
	}{
		"Simple": {
			reason: "A simple record set's marker is a TXT record set of its own name.",
			record: &types.ResourceRecordSet{Name: aws.String("www.example.com."), Type: types.RRTypeCname},
			want: &types.ResourceRecordSet{Name: aws.String("_infra-operator-cname.www.example.com."), Type: types.RRTypeTxt, TTL: aws.Int64(300),
				ResourceRecords: []types.ResourceRecord{{Value: aws.String(`"heritage=infra-operator,owner=shop/api,uid=u-1"`)}}},
		},
		"Wildcard": {
			reason: "A wildcard keeps its * label below the marker's.",
			record: &types.ResourceRecordSet{Name: aws.String("*.example.com."), Type: types.RRTypeA},
			want: &types.ResourceRecordSet{Name: aws.String("_infra-operator-a.*.example.com."), Type: types.RRTypeTxt, TTL: aws.Int64(300),
				ResourceRecords: []types.ResourceRecord{{Value: aws.String(`"heritage=infra-operator,owner=shop/api,uid=u-1"`)}}},
		},
		"Failover": {
			reason: "A routing policy's marker has the set identifier, weighted 0.",
			record: &types.ResourceRecordSet{Name: aws.String("db.example.com."), Type: types.RRTypeA, SetIdentifier: aws.String("primary"),
				Failover: types.ResourceRecordSetFailoverPrimary},
			want: &types.ResourceRecordSet{Name: aws.String("_infra-operator-a.db.example.com."), Type: types.RRTypeTxt, TTL: aws.Int64(300),
				SetIdentifier: aws.String("primary"), Weight: aws.Int64(0),
				ResourceRecords: []types.ResourceRecord{{Value: aws.String(`"heritage=infra-operator,owner=shop/api,uid=u-1"`)}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := RecordSet(tc.record, o)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(types.ResourceRecordSet{}, types.ResourceRecord{})); diff != "" {
				t.Errorf("%s\nRecordSet: -want, +got:\n%s", tc.reason, diff)
			}
			if owner, ok := Of(got); !ok || owner != o {
				t.Errorf("Of(RecordSet) = %+v, %t", owner, ok)
			}
		})
	}
}
