package ekscluster

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete takes the cluster apart in the order EKS requires, one step per pass: first the node
// groups and add-ons that carry o's ownership tags, then, once they are gone, the cluster
// (with whatever add-ons others made). A cluster that is CREATING or UPDATING is waited for:
// EKS deletes neither. Node groups made outside the operator are not deleted; while they
// remain the cluster cannot be, which the object reports until they go.
func (d *driver) Delete(ctx context.Context, o *v1alpha1.EKSCluster, obs managed.Observation[State]) error {
	s := obs.State
	name := aws.ToString(s.Cluster.Name)
	if st := s.Cluster.Status; st != types.ClusterStatusActive && st != types.ClusterStatusFailed {
		return nil
	}
	parts := false
	for _, g := range slices.Sorted(maps.Keys(s.NodeGroups)) {
		ng := s.NodeGroups[g]
		if !managed.OwnedBy(o, ng.Tags) {
			continue
		}
		parts = true
		if settled := ng.Status != types.NodegroupStatusCreating && ng.Status != types.NodegroupStatusUpdating && ng.Status != types.NodegroupStatusDeleting; settled {
			if err := d.deleteNodegroup(ctx, name, g); err != nil {
				return err
			}
		}
	}
	for _, a := range slices.Sorted(maps.Keys(s.Addons)) {
		addon := s.Addons[a]
		if !managed.OwnedBy(o, addon.Tags) {
			continue
		}
		parts = true
		if settled := addon.Status != types.AddonStatusCreating && addon.Status != types.AddonStatusUpdating && addon.Status != types.AddonStatusDeleting; settled {
			if err := d.deleteAddon(ctx, name, a); err != nil {
				return err
			}
		}
	}
	if parts {
		return nil
	}
	if len(s.NodeGroups) > 0 {
		return managed.Waiting(condition.ReasonDependencyViolation, "EKS cluster %s still has node groups that this object did not create (%s), and EKS deletes "+
			"a cluster only once its node groups are gone: delete them", name, strings.Join(slices.Sorted(maps.Keys(s.NodeGroups)), ", "))
	}
	_, err := d.api.DeleteCluster(ctx, &eks.DeleteClusterInput{Name: aws.String(name)})
	return managed.Wrap(gone(err), "delete EKS cluster %s", name)
}

// ReleaseOwnership removes the ownership tags from the cluster and from the node groups and
// add-ons that carry o's, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, o *v1alpha1.EKSCluster, obs managed.Observation[State]) error {
	s := obs.State
	for _, g := range s.NodeGroups {
		if managed.OwnedBy(o, g.Tags) {
			if err := d.untag(ctx, aws.ToString(g.NodegroupArn), managed.OwnershipTagKeys()); err != nil {
				return err
			}
		}
	}
	for _, a := range s.Addons {
		if managed.OwnedBy(o, a.Tags) {
			if err := d.untag(ctx, aws.ToString(a.AddonArn), managed.OwnershipTagKeys()); err != nil {
				return err
			}
		}
	}
	return d.untag(ctx, aws.ToString(s.Cluster.Arn), managed.OwnershipTagKeys())
}

// gone returns nil for an error that says the resource does not exist (already deleted), and
// err otherwise.
func gone(err error) error {
	if awserr.IsNotFound(err) {
		return nil
	}
	return err
}
