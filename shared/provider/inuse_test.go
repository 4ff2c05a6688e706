package provider

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDescribeUsers(t *testing.T) {
	many := make([]User, 12)
	for i := range many {
		many[i] = User{Kind: "VPC", Namespace: "team-a", Name: string(rune('a' + i))}
	}
	cases := map[string]struct {
		reason string
		ns     string
		users  []User
		want   string
	}{
		"OwnNamespace": {
			reason: "Objects of the provider's own namespace are named.",
			ns:     "team-a",
			users:  []User{{Kind: "VPC", Namespace: "team-a", Name: "b"}, {Kind: "Subnet", Namespace: "team-a", Name: "a"}},
			want:   "Subnet team-a/a, VPC team-a/b",
		},
		"OtherNamespaces": {
			reason: "Objects of other namespaces the provider allows are counted per namespace, not named.",
			ns:     "team-a",
			users: []User{{Kind: "VPC", Namespace: "team-a", Name: "v"}, {Kind: "VPC", Namespace: "team-c", Name: "secret-project"},
				{Kind: "VPC", Namespace: "team-b", Name: "x"}, {Kind: "Subnet", Namespace: "team-c", Name: "y"}},
			want: "VPC team-a/v, 1 in namespace team-b, 2 in namespace team-c",
		},
		"ClusterProvider": {
			reason: "A ClusterAWSProvider has no namespace of its own: every object is counted.",
			users:  []User{{Kind: "VPC", Namespace: "team-a", Name: "v"}, {Kind: "VPC", Namespace: "team-a", Name: "w"}},
			want:   "2 in namespace team-a",
		},
		"Many": {
			reason: "At most ten objects are named.",
			ns:     "team-a",
			users:  many,
			want:   strings.Join([]string{"VPC team-a/a", "VPC team-a/b", "VPC team-a/c", "VPC team-a/d", "VPC team-a/e", "VPC team-a/f", "VPC team-a/g", "VPC team-a/h", "VPC team-a/i", "VPC team-a/j", "and 2 more"}, ", "),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, describeUsers(tc.ns, tc.users)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
