package rdsdbcluster

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdstags"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// TestSurplus checks which instances scaling down deletes: the highest-numbered that are not
// the writer and that the object made, and only the names the operator gives.
func TestSurplus(t *testing.T) {
	c := &v1alpha1.RDSDBCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "db", UID: "uid-1"}}
	own := rdstags.List(managed.OwnerTags(c))
	instance := func(name string, tags []types.Tag) types.DBInstance {
		return types.DBInstance{DBInstanceIdentifier: aws.String(name), DBInstanceStatus: aws.String("available"), TagList: tags}
	}
	type args struct {
		writer    string
		instances []types.DBInstance
		n         int
	}
	cases := map[string]struct {
		reason string
		args   args
		want   []string
	}{
		"HighestFirst": {reason: "The highest-numbered readers go first.", args: args{writer: "db-1", n: 2,
			instances: []types.DBInstance{instance("db-1", own), instance("db-2", own), instance("db-3", own), instance("db-10", own)}},
			want: []string{"db-10", "db-3"}},
		"WriterStays": {reason: "The writer is never deleted, whatever its number.", args: args{writer: "db-3", n: 2,
			instances: []types.DBInstance{instance("db-1", own), instance("db-2", own), instance("db-3", own)}},
			want: []string{"db-2", "db-1"}},
		"NotMade": {reason: "An instance without this object's ownership tags is left.", args: args{writer: "db-1", n: 1,
			instances: []types.DBInstance{instance("db-1", own), instance("db-2", own), instance("db-3", nil)}},
			want: []string{"db-2"}},
		"OtherNames": {reason: "Instances not named <cluster>-<number> are not the operator's.", args: args{writer: "db-1", n: 1,
			instances: []types.DBInstance{instance("db-1", own), instance("db-manual", own), instance("db-02", own)}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cl := &types.DBCluster{DBClusterIdentifier: aws.String("db")}
			for _, i := range tc.args.instances {
				cl.DBClusterMembers = append(cl.DBClusterMembers, types.DBClusterMember{DBInstanceIdentifier: i.DBInstanceIdentifier,
					IsClusterWriter: aws.Bool(aws.ToString(i.DBInstanceIdentifier) == tc.args.writer)})
			}
			all := members(cl, tc.args.instances)
			var live []member
			for n := 1; n <= 10; n++ {
				if m, ok := all[n]; ok {
					live = append(live, m)
				}
			}
			if diff := cmp.Diff(tc.want, surplus(c, live, tc.args.n)); diff != "" {
				t.Errorf("%s\nsurplus(...) -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
