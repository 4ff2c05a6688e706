package eksaccessentry

import (
	"context"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/compute/internal/eksparts"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about an access entry.
type State struct {
	// Entry is DescribeAccessEntry's answer, its tags included.
	Entry *types.AccessEntry
}

// Observe reads the entry of the principal in the cluster with DescribeAccessEntry and claims
// it (managed.Claim: one made by an earlier attempt, tagged as this object's, or named by the
// external-name annotation), then lists its associated access policies and plans, in order, its
// tags, one UpdateAccessEntry for its groups and username, and an association or a
// disassociation for each access policy that differs from the spec's set. In a cluster named
// by name, an entry is created, or one this object did not make adopted, only when the cluster
// is the namespace's own (eksparts.CheckClusterOwned, eksparts.CheckAdopted).
func (d *driver) Observe(ctx context.Context, e *v1alpha1.EKSAccessEntry, req managed.Request) (managed.Observation[State], error) {
	name, arn := cluster(e), principal(e)
	if name == "" || arn == "" {
		// Being deleted before its references were ever resolved: nothing to find.
		return managed.Observation[State]{}, nil
	}
	out, err := d.api.DescribeAccessEntry(ctx, &eks.DescribeAccessEntryInput{ClusterName: aws.String(name), PrincipalArn: aws.String(arn)})
	if awserr.IsNotFound(err) {
		if req.Deleting || e.Spec.ClusterRef != nil {
			return managed.Observation[State]{}, nil
		}
		return managed.Observation[State]{}, eksparts.CheckClusterOwned(ctx, d.api, e, name)
	}
	if err != nil {
		return managed.Observation[State]{}, managed.Wrap(err, "describe the access entry of %s in EKS cluster %s", arn, name)
	}
	entry := out.AccessEntry
	if leave, err := eksparts.CheckAdopted(ctx, d.api, e, name, e.Spec.ClusterRef != nil, entry.Tags, req.Deleting); err != nil || leave {
		return managed.Observation[State]{}, err
	}
	if err := managed.Claim(e, "EKS access entry of", arn, entry.Tags); err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(e, name, entry)
	obs := managed.Observation[State]{Exists: true, Ready: true, State: &State{Entry: entry}, Tags: entry.Tags}
	if req.Deleting {
		return obs, nil
	}
	if have, want := aws.ToString(entry.Type), entryType(e); have != want {
		obs.Conflict = managed.Terminal(condition.ReasonInvalidSpec, "the access entry of %s in EKS cluster %s is of type %s, not the spec's %s; "+
			"an entry's type cannot change: set spec.type to %s, or delete the entry", arn, name, have, want, have)
		return obs, nil
	}
	eksparts.PlanTags(&obs.Changes, d.api, "tags", aws.ToString(entry.AccessEntryArn), req.Tags, entry.Tags)
	d.planIdentity(&obs.Changes, e, name, arn, entry)
	if entryType(e) != typeStandard {
		// EKS associates access policies with STANDARD entries only: there is nothing to list.
		e.Status.AccessPolicies = nil
		return obs, nil
	}
	have, err := d.associated(ctx, name, arn)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	e.Status.AccessPolicies = nil
	for _, n := range slices.Sorted(maps.Keys(have)) {
		e.Status.AccessPolicies = append(e.Status.AccessPolicies, aws.ToString(have[n].PolicyArn))
	}
	d.planPolicies(&obs.Changes, e, name, arn, have)
	return obs, nil
}

// typeStandard is the type of the access entries of people and applications.
const typeStandard = "STANDARD"

// fillStatus copies what the status shows of the entry of cluster from AWS's description.
func fillStatus(e *v1alpha1.EKSAccessEntry, cluster string, entry *types.AccessEntry) {
	s := &e.Status
	s.ClusterName, s.AccessEntryARN, s.PrincipalARN = cluster, aws.ToString(entry.AccessEntryArn), aws.ToString(entry.PrincipalArn)
	s.Username, s.KubernetesGroups = aws.ToString(entry.Username), entry.KubernetesGroups
}

// planIdentity plans one UpdateAccessEntry for the principal's Kubernetes groups (of a STANDARD
// entry: EKS chooses a node entry's) and username (when the spec names one), each shown with
// AWS's value and the spec's.
func (d *driver) planIdentity(plan *managed.Plan, e *v1alpha1.EKSAccessEntry, cluster, principal string, entry *types.AccessEntry) {
	in := &eks.UpdateAccessEntryInput{ClusterName: aws.String(cluster), PrincipalArn: aws.String(principal)}
	var fields []string
	values := map[string]managed.Values{}
	if want := e.Spec.KubernetesGroups; entryType(e) == typeStandard && !managed.SameSet(entry.KubernetesGroups, want) {
		fields = append(fields, "kubernetesGroups")
		values["kubernetesGroups"] = managed.ValuesOf(sorted(entry.KubernetesGroups), sorted(want))
		// An empty list, not a missing one, removes every group.
		in.KubernetesGroups = append([]string{}, want...)
	}
	if want, have := e.Spec.Username, aws.ToString(entry.Username); want != "" && want != have {
		fields = append(fields, "username")
		values["username"] = managed.ValuesOf(have, want)
		in.Username = aws.String(want)
	}
	plan.AddFieldValues(fields, values, func(ctx context.Context) error {
		_, err := d.api.UpdateAccessEntry(ctx, in)
		return managed.Wrap(err, "update the access entry of %s in EKS cluster %s", principal, cluster)
	})
}

// sorted is how a plan shows a set of names: sorted, and [] for none.
func sorted(s []string) []string {
	out := append([]string{}, s...)
	slices.Sort(out)
	return out
}
