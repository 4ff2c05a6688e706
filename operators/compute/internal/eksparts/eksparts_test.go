package eksparts

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// clusterAPI answers DescribeCluster with a cluster carrying tags, or with err.
type clusterAPI struct {
	tags map[string]string
	err  error
}

// DescribeCluster answers with the cluster's tags or the error.
func (c clusterAPI) DescribeCluster(context.Context, *eks.DescribeClusterInput, ...func(*eks.Options)) (*eks.DescribeClusterOutput, error) {
	if c.err != nil {
		return nil, c.err
	}
	return &eks.DescribeClusterOutput{Cluster: &types.Cluster{Tags: c.tags}}, nil
}

// TestCheckAdopted checks when a resource found in a cluster named by name is refused, left
// alone or let through.
func TestCheckAdopted(t *testing.T) {
	o := &v1alpha1.EKSAccessEntry{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "e", UID: "uid-1"}}
	mine := map[string]string{shared.TagOwnerUID: "uid-1", shared.TagOwnerNamespace: "team-a"}
	foreign := clusterAPI{tags: map[string]string{shared.TagOwnerNamespace: "team-b"}}
	type want struct {
		leave  bool
		reason string
	}
	cases := map[string]struct {
		reason   string
		api      clusterAPI
		byRef    bool
		observe  bool
		tags     map[string]string
		deleting bool
		want     want
	}{
		"ByRef":       {reason: "A clusterRef names the namespace's own cluster: nothing to check.", api: foreign, byRef: true},
		"Made":        {reason: "A resource the object made was checked when it was created.", api: foreign, tags: mine},
		"ObserveOnly": {reason: "An object that only observes writes nothing.", api: foreign, observe: true},
		"OwnCluster":  {reason: "A cluster of the namespace may be written into.", api: clusterAPI{tags: map[string]string{shared.TagOwnerNamespace: "team-a"}}},
		"Foreign":     {reason: "Adopting a resource of another namespace's cluster is refused.", api: foreign, want: want{reason: condition.ReasonForeignWriteNotAllowed}},
		"ForeignDeleting": {reason: "While deleting, such a resource is left alone, never deleted.", api: foreign, deleting: true,
			want: want{leave: true}},
		"ReadFails": {reason: "A failed read is an error, even while deleting.", api: clusterAPI{err: errors.New("throttled")}, deleting: true,
			want: want{reason: "error"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			obj := o.DeepCopy()
			if tc.observe {
				obj.Spec.ManagementPolicy = shared.ManagementPolicyObserveOnly
			}
			leave, err := CheckAdopted(context.Background(), tc.api, obj, "c", tc.byRef, tc.tags, tc.deleting)
			got := want{leave: leave}
			if terminal, ok := managed.AsTerminal(err); ok {
				got.reason = terminal.Reason
			} else if err != nil {
				got.reason = "error"
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nCheckAdopted: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
