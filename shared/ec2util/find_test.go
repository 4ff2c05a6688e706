package ec2util

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// fakeResource is an EC2 resource as a fake Describe sees it.
type fakeResource struct {
	id, owner string
	gone      bool
}

// fakeDescriber describes resources from a fixed set, by ids or by the ownership filter, as
// EC2 does, and counts its calls.
func fakeDescriber(resources []fakeResource, calls *int) Describer[fakeResource] {
	return Describer[fakeResource]{
		What: "VPC",
		Describe: func(_ context.Context, ids []string, filters []types.Filter, _ string) ([]fakeResource, string, error) {
			*calls++
			var out []fakeResource
			for _, r := range resources {
				switch {
				case ids != nil && slices.Contains(ids, r.id):
					out = append(out, r)
				case ids == nil && len(filters) == 1 && aws.ToString(filters[0].Name) == "tag:"+shared.TagOwnerUID && slices.Contains(filters[0].Values, r.owner):
					out = append(out, r)
				}
			}
			return out, "", nil
		},
		ID: func(r fakeResource) string { return r.id },
	}
}

// TestFind checks how Find chooses an object's resource among those that carry its ownership
// tag, and which others it reports as duplicates.
func TestFind(t *testing.T) {
	type want struct {
		ID, Recorded, Duplicates string
		Found                    bool
		Calls                    int
	}
	cases := map[string]struct {
		reason    string
		recorded  string
		listed    []string
		resources []fakeResource
		choose    bool
		gone      bool
		want      want
	}{
		"NoneYet": {
			reason:    "An object with nothing in AWS finds nothing and records nothing.",
			resources: []fakeResource{{id: "vpc-9", owner: "other"}},
			want:      want{Calls: 1},
		},
		"FoundByTag": {
			reason:    "An object without a recorded id finds its resource by its ownership tag and records its id.",
			resources: []fakeResource{{id: "vpc-1", owner: "uid"}, {id: "vpc-9", owner: "other"}},
			want:      want{ID: "vpc-1", Recorded: "vpc-1", Found: true, Calls: 1},
		},
		"SeveralUnrecorded": {
			reason:    "Among several unrecorded resources with its tag, the lowest id is picked and recorded, the others reported.",
			resources: []fakeResource{{id: "vpc-c", owner: "uid"}, {id: "vpc-a", owner: "uid"}, {id: "vpc-b", owner: "uid"}},
			want:      want{ID: "vpc-a", Recorded: "vpc-a", Duplicates: "vpc-b, vpc-c", Found: true, Calls: 1},
		},
		"SeveralRecorded": {
			reason:    "The recorded resource is kept even when a lower id carries the tag too, which is reported.",
			recorded:  "vpc-b",
			resources: []fakeResource{{id: "vpc-b", owner: "uid"}, {id: "vpc-a", owner: "uid"}},
			want:      want{ID: "vpc-b", Recorded: "vpc-b", Duplicates: "vpc-a", Found: true, Calls: 1},
		},
		"RecordedUntagged": {
			reason:    "A recorded resource without the tag (adopted by its id) is read by its id.",
			recorded:  "vpc-x",
			resources: []fakeResource{{id: "vpc-x"}},
			want:      want{ID: "vpc-x", Recorded: "vpc-x", Found: true, Calls: 2},
		},
		"RecordedGone": {
			reason:    "A recorded resource that no longer exists is not found; an unrecorded one with the tag is reported, not adopted.",
			recorded:  "vpc-x",
			resources: []fakeResource{{id: "vpc-d", owner: "uid"}},
			want:      want{Recorded: "vpc-x", Duplicates: "vpc-d", Calls: 2},
		},
		"Listed": {
			reason:    "A resource served by the listing is not read again, and no duplicate is looked for.",
			recorded:  "vpc-a",
			listed:    []string{"vpc-a"},
			resources: []fakeResource{{id: "vpc-a", owner: "uid"}, {id: "vpc-b", owner: "uid"}},
			want:      want{ID: "vpc-a", Recorded: "vpc-a", Found: true, Calls: 0},
		},
		"ChooseWithoutGone": {
			reason:    "A kind that chooses by itself keeps several resources by design and is not warned about.",
			resources: []fakeResource{{id: "vpc-a", owner: "uid", gone: true}, {id: "vpc-b", owner: "uid"}},
			choose:    true,
			want:      want{ID: "vpc-b", Recorded: "vpc-b", Found: true, Calls: 1},
		},
		"ChooseWithGone": {
			reason:    "With Gone set, the resources that are gone are not duplicates, the live ones are.",
			resources: []fakeResource{{id: "vpc-a", owner: "uid", gone: true}, {id: "vpc-b", owner: "uid"}, {id: "vpc-c", owner: "uid"}},
			choose:    true,
			gone:      true,
			want:      want{ID: "vpc-c", Recorded: "vpc-c", Duplicates: "vpc-b", Found: true, Calls: 1},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			calls := 0
			d := fakeDescriber(tc.resources, &calls)
			if tc.choose {
				// The last live resource, as a kind that prefers the newest would.
				d.Choose = func(rs []fakeResource) fakeResource {
					for i := len(rs) - 1; i >= 0; i-- {
						if !rs[i].gone {
							return rs[i]
						}
					}
					return rs[0]
				}
			}
			if tc.gone {
				d.Gone = func(r fakeResource) bool { return r.gone }
			}
			listing := &managed.Listing[fakeResource]{TTL: time.Hour, List: func(context.Context) (map[string]fakeResource, error) {
				out := map[string]fakeResource{}
				for _, r := range tc.resources {
					if slices.Contains(tc.listed, r.id) {
						out[r.id] = r
					}
				}
				return out, nil
			}}
			o := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Name: "net", UID: k8stypes.UID("uid")}}
			if tc.recorded != "" {
				managed.SetExternalName(o, tc.recorded)
			}
			item, found, others, err := d.find(context.Background(), listing, o)
			if err != nil {
				t.Fatal(err)
			}
			got := want{ID: item.id, Recorded: managed.ExternalName(o), Duplicates: strings.Join(others, ", "), Found: found, Calls: calls}
			if got != tc.want {
				t.Errorf("%s\ngot  %+v\nwant %+v", tc.reason, got, tc.want)
			}
		})
	}
}

// TestDuplicatesMessage checks that the warning names every duplicate, the resource the object
// manages, and what to do.
func TestDuplicatesMessage(t *testing.T) {
	cases := map[string]struct {
		id    string
		found bool
		want  string
	}{
		"Managed": {id: "vpc-a", found: true, want: "duplicate VPCs carry this object's ownership tag aws-infra-operator.runner.codes/owner-uid: vpc-b, vpc-c " +
			"(left by a create call whose answer was lost); this object manages VPC vpc-a only, and the operator neither updates nor deletes the others: " +
			"delete them in AWS, or remove their tag to keep them"},
		"RecordedGone": {id: "vpc-x", want: "duplicate VPCs carry this object's ownership tag aws-infra-operator.runner.codes/owner-uid: vpc-b, vpc-c " +
			"(left by a create call whose answer was lost); this object's VPC vpc-x no longer exists, and the operator neither updates nor deletes the others: " +
			"delete them in AWS, or remove their tag to keep them"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := duplicatesMessage("VPC", tc.id, tc.found, []string{"vpc-b", "vpc-c"}); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestListingLeavesOutDuplicates checks that the listing leaves out the resources of an owner
// that has duplicates, so that its object reads them directly and is warned, and serves the
// others, across pages.
func TestListingLeavesOutDuplicates(t *testing.T) {
	vpc := func(id, owner string, state types.VpcState) types.Vpc {
		return types.Vpc{VpcId: aws.String(id), State: state, Tags: []types.Tag{{Key: aws.String(shared.TagOwnerUID), Value: aws.String(owner)}}}
	}
	pages := [][]types.Vpc{
		{vpc("vpc-a1", "a", types.VpcStateAvailable), vpc("vpc-b1", "b", types.VpcStateAvailable), vpc("vpc-c1", "c", types.VpcStateAvailable)},
		{vpc("vpc-b2", "b", types.VpcStateAvailable), vpc("vpc-c2", "c", types.VpcStatePending)},
	}
	cases := map[string]struct {
		reason string
		choose bool
		gone   bool
		want   []string
	}{
		"Duplicates": {
			reason: "Owners b and c have two VPCs each: only a's is listed.",
			want:   []string{"vpc-a1"},
		},
		"GoneNotCounted": {
			reason: "With Gone (here: pending), c's second VPC does not count, so c's are listed.",
			gone:   true,
			want:   []string{"vpc-a1", "vpc-c1", "vpc-c2"},
		},
		"SeveralByDesign": {
			reason: "A kind that chooses among several resources by itself has every resource listed.",
			choose: true,
			want:   []string{"vpc-a1", "vpc-b1", "vpc-b2", "vpc-c1", "vpc-c2"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := Describer[types.Vpc]{
				What: "VPC",
				Describe: func(_ context.Context, _ []string, _ []types.Filter, next string) ([]types.Vpc, string, error) {
					if next == "" {
						return pages[0], "page-2", nil
					}
					return pages[1], "", nil
				},
				ID: func(v types.Vpc) string { return aws.ToString(v.VpcId) },
			}
			if tc.choose {
				d.Choose = func(vs []types.Vpc) types.Vpc { return vs[0] }
			}
			if tc.gone {
				d.Gone = func(v types.Vpc) bool { return v.State == types.VpcStatePending }
			}
			var got []string
			for _, id := range []string{"vpc-a1", "vpc-b1", "vpc-b2", "vpc-c1", "vpc-c2"} {
				if _, ok, err := d.Listing().Get(context.Background(), id); err != nil {
					t.Fatal(err)
				} else if ok {
					got = append(got, id)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("%s\nlisted %v, want %v", tc.reason, got, tc.want)
			}
		})
	}
}
