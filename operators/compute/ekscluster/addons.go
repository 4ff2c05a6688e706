package ekscluster

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// planAddons plans the add-ons as a set, as planNodeGroups does the node groups: it creates
// those of the spec that do not exist, updates those whose version or service account role
// differs from the spec's (each compared only when the spec sets it), and deletes those that
// carry o's ownership tags and that the spec no longer lists. An add-on whose last update
// failed is compared again; one whose creation or deletion failed is a conflict.
func (p *planner) planAddons() {
	cluster := aws.ToString(p.state.Cluster.Name)
	for i := range p.o.Spec.Addons {
		want := &p.o.Spec.Addons[i]
		field := "addons[" + want.Name + "]"
		got, ok := p.state.Addons[want.Name]
		if !ok {
			p.obs.Changes.Add(field, func(ctx context.Context) error { return p.d.createAddon(ctx, p.o, cluster, want, p.tags) })
			p.wait("add-on "+want.Name+" does not exist yet", "")
			continue
		}
		if p.ownedByAnother("add-on", "spec.addons", want.Name, got.Tags) {
			continue
		}
		switch got.Status {
		case types.AddonStatusCreateFailed, types.AddonStatusDeleteFailed:
			p.conflict(managed.Terminal(condition.ReasonEKSAddonFailed, "add-on %s of EKS cluster %s is %s%s; remove it from spec.addons to delete it, then add it again",
				want.Name, cluster, got.Status, addonIssues(got)))
			continue
		case types.AddonStatusActive, types.AddonStatusDegraded, types.AddonStatusUpdateFailed:
		default:
			p.wait("add-on "+want.Name+" is "+string(got.Status), field+" ("+string(got.Status)+")")
			continue
		}
		p.planTags(field+".tags", aws.ToString(got.AddonArn), got.Tags)
		p.planAddonUpdate(field, cluster, want, got)
		if got.Status != types.AddonStatusActive {
			p.wait("add-on "+want.Name+" is "+string(got.Status)+addonIssues(got), "")
		}
	}
	planRemovals(p, "add-on", "addons", specAddonNames(p.o), p.state.Addons, func(a types.Addon) (map[string]string, bool) {
		return a.Tags, a.Status == types.AddonStatusDeleting
	}, func(ctx context.Context, name string) error { return p.d.deleteAddon(ctx, cluster, name) })
}

// planAddonUpdate plans one UpdateAddon for the version and service account role of want that
// differ from the add-on's.
func (p *planner) planAddonUpdate(field, cluster string, want *v1alpha1.EKSAddon, got types.Addon) {
	in := &eks.UpdateAddonInput{ClusterName: aws.String(cluster), AddonName: aws.String(want.Name), ResolveConflicts: types.ResolveConflicts(want.ResolveConflicts)}
	var fields []string
	values := map[string]managed.Values{}
	if want.Version != "" && want.Version != aws.ToString(got.AddonVersion) {
		in.AddonVersion, fields = aws.String(want.Version), append(fields, field+".version")
		values[field+".version"] = managed.ValuesOf(aws.ToString(got.AddonVersion), want.Version)
	}
	if want.ServiceAccountRoleARN != "" && want.ServiceAccountRoleARN != aws.ToString(got.ServiceAccountRoleArn) {
		in.ServiceAccountRoleArn, fields = aws.String(want.ServiceAccountRoleARN), append(fields, field+".serviceAccountRoleARN")
		values[field+".serviceAccountRoleARN"] = managed.ValuesOf(aws.ToString(got.ServiceAccountRoleArn), want.ServiceAccountRoleARN)
	}
	if len(fields) == 0 {
		return
	}
	p.obs.Changes.AddFieldValues(fields, values, func(ctx context.Context) error {
		_, err := p.d.api.UpdateAddon(ctx, in)
		return managed.Wrap(err, "update add-on %s of EKS cluster %s", want.Name, cluster)
	})
	p.wait("add-on "+want.Name+" differs from the spec", "")
}

// createAddon creates add-on want in cluster with the tags and an idempotency token. EKS
// takes PRESERVE only when it updates an add-on: a creation is made with NONE instead.
func (d *driver) createAddon(ctx context.Context, o *v1alpha1.EKSCluster, cluster string, want *v1alpha1.EKSAddon, tags map[string]string) error {
	in := &eks.CreateAddonInput{
		ClusterName:        aws.String(cluster),
		AddonName:          aws.String(want.Name),
		ResolveConflicts:   types.ResolveConflicts(want.ResolveConflicts),
		Tags:               tags,
		ClientRequestToken: aws.String(token(o, "addon", want.Name)),
	}
	if in.ResolveConflicts == types.ResolveConflictsPreserve {
		in.ResolveConflicts = types.ResolveConflictsNone
	}
	if want.Version != "" {
		in.AddonVersion = aws.String(want.Version)
	}
	if want.ServiceAccountRoleARN != "" {
		in.ServiceAccountRoleArn = aws.String(want.ServiceAccountRoleARN)
	}
	if _, err := d.api.CreateAddon(ctx, in); err != nil {
		return fmt.Errorf("create add-on %s of EKS cluster %s: %w", want.Name, cluster, err)
	}
	return nil
}

// deleteAddon starts deleting an add-on; one already gone is success.
func (d *driver) deleteAddon(ctx context.Context, cluster, name string) error {
	_, err := d.api.DeleteAddon(ctx, &eks.DeleteAddonInput{ClusterName: aws.String(cluster), AddonName: aws.String(name)})
	return managed.Wrap(gone(err), "delete add-on %s of EKS cluster %s", name, cluster)
}
