package eks

import (
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// addon is one Amazon EKS add-on of a cluster.
type addon = member[types.Addon]

// addonStatus returns the add-on's status at now.
func addonStatus(a *addon, now time.Time) types.AddonStatus {
	return named(a.phase(now), types.AddonStatusCreating, types.AddonStatusUpdating, types.AddonStatusDeleting, types.AddonStatusActive)
}

// addon returns the cluster's add-on named name, settled at now, or nil when there is none or
// its deletion has ended, when it forgets the add-on and its tags. The caller holds the
// backend's mutex.
func (c *cluster) addon(r *region, name string, now time.Time) *addon {
	return live(c.addons, name, now, func(a *addon) { r.tags.Delete(aws.ToString(a.cfg.AddonArn)) })
}

// lookupAddon returns the add-on a request names, or the error EKS answers.
func (c *cluster) lookupAddon(r *region, name string, now time.Time) (*addon, error) {
	return present(c.addon(r, name, now), addonNotFound(c.name, name))
}

// describeAddon returns the add-on as DescribeAddon shows it at now.
func (r *region) describeAddon(a *addon, now time.Time) *types.Addon {
	out := a.cfg
	out.Status = addonStatus(a, now)
	out.Tags = r.tags.Map(aws.ToString(a.cfg.AddonArn))
	out.Health = &types.AddonHealth{Issues: []types.AddonIssue{}}
	return &out
}

// addonSettings validates the settings CreateAddon and UpdateAddon share.
func addonSettings(role *string, conflicts types.ResolveConflicts, pods []types.AddonPodIdentityAssociations) error {
	if len(pods) > 0 {
		return unsupported(map[string]bool{"podIdentityAssociations": true})
	}
	if role != nil {
		if err := checkRole(*role); err != nil {
			return err
		}
	}
	if conflicts != "" && !slices.Contains(conflicts.Values(), conflicts) {
		return invalidParameter("Invalid resolveConflicts %s: must be OVERWRITE, NONE or PRESERVE", conflicts)
	}
	return nil
}

func (b *Backend) createAddon(call *core.Call, in *eks.CreateAddonInput) (*eks.CreateAddonOutput, error) {
	name := aws.ToString(in.AddonName)
	if err := addonSettings(in.ServiceAccountRoleArn, in.ResolveConflicts, in.PodIdentityAssociations); err != nil {
		return nil, err
	}
	if in.NamespaceConfig != nil {
		return nil, unsupported(map[string]bool{"namespaceConfig": true})
	}
	return core.Locked(b.state, call, func(r *region) (*eks.CreateAddonOutput, error) {
		c, err := r.cluster("clusterName", aws.ToString(in.ClusterName), call.Now)
		if err != nil {
			return nil, err
		}
		if a := c.addon(r, name, call.Now); a != nil {
			if a.token != "" && a.token == aws.ToString(in.ClientRequestToken) {
				return &eks.CreateAddonOutput{Addon: r.describeAddon(a, call.Now)}, nil
			}
			return nil, inUse("Addon already exists.")
		}
		if c.phase(call.Now) != phaseActive {
			return nil, notActive(c.name)
		}
		kind := addonKindOf(name)
		if kind == nil {
			return nil, invalidParameter("Addon specified is not supported")
		}
		version, ok := kind.versionFor(aws.ToString(in.AddonVersion), aws.ToString(c.cfg.Version))
		if !ok {
			return nil, invalidParameter("Addon version specified is not supported")
		}
		arn := r.scope.ARN("eks", "addon/"+c.name+"/"+name+"/"+core.NewUUID())
		if err := r.tags.Merge(in.Tags, arn); err != nil {
			return nil, asInvalidParameter(err)
		}
		a := &addon{lifecycle: lifecycle{readyAt: call.Now.Add(call.Transition)}, token: aws.ToString(in.ClientRequestToken), cfg: types.Addon{
			AddonName: aws.String(name), ClusterName: aws.String(c.name), AddonArn: aws.String(arn), AddonVersion: aws.String(version),
			CreatedAt: aws.Time(call.Now), ModifiedAt: aws.Time(call.Now), ServiceAccountRoleArn: in.ServiceAccountRoleArn,
			ConfigurationValues: in.ConfigurationValues, Owner: aws.String("aws"), Publisher: aws.String("eks"),
		}}
		c.addons[name] = a
		return &eks.CreateAddonOutput{Addon: r.describeAddon(a, call.Now)}, nil
	})
}

// describeAddon answers DescribeAddon with the add-on a request names.
func (b *Backend) describeAddon(call *core.Call, in *eks.DescribeAddonInput) (*eks.DescribeAddonOutput, error) {
	return inMember(b, call, (*cluster).lookupAddon, in.ClusterName, in.AddonName, func(r *region, _ *cluster, a *addon) (*eks.DescribeAddonOutput, error) {
		return &eks.DescribeAddonOutput{Addon: r.describeAddon(a, call.Now)}, nil
	})
}

// listAddons answers ListAddons with a page of the names of the cluster's add-ons.
func (b *Backend) listAddons(call *core.Call, in *eks.ListAddonsInput) (*eks.ListAddonsOutput, error) {
	return inCluster(b, call, in.ClusterName, func(r *region, c *cluster) (*eks.ListAddonsOutput, error) {
		names, next, err := page(liveNames(c.addons, func(n string) bool { return c.addon(r, n, call.Now) != nil }), in.NextToken, in.MaxResults)
		return &eks.ListAddonsOutput{Addons: names, NextToken: next}, err
	})
}

func (b *Backend) updateAddon(call *core.Call, in *eks.UpdateAddonInput) (*eks.UpdateAddonOutput, error) {
	if err := addonSettings(in.ServiceAccountRoleArn, in.ResolveConflicts, in.PodIdentityAssociations); err != nil {
		return nil, err
	}
	return inMember(b, call, (*cluster).lookupAddon, in.ClusterName, in.AddonName, func(r *region, c *cluster, a *addon) (*eks.UpdateAddonOutput, error) {
		if u := a.repeated(in.ClientRequestToken); u != nil {
			return &eks.UpdateAddonOutput{Update: u.view()}, nil
		}
		if a.phase(call.Now) != phaseActive {
			return nil, inUse("Addon %s cannot be updated as it is currently not in Active State", aws.ToString(a.cfg.AddonName))
		}
		next := a.cfg
		var params []types.UpdateParam
		if v := aws.ToString(in.AddonVersion); v != "" {
			version, ok := addonKindOf(aws.ToString(a.cfg.AddonName)).versionFor(v, aws.ToString(c.cfg.Version))
			if !ok {
				return nil, invalidParameter("Addon version specified is not supported")
			}
			next.AddonVersion = aws.String(version)
			params = append(params, param(types.UpdateParamTypeAddonVersion, version))
		}
		if in.ServiceAccountRoleArn != nil {
			next.ServiceAccountRoleArn = in.ServiceAccountRoleArn
			params = append(params, param(types.UpdateParamTypeServiceAccountRoleArn, *in.ServiceAccountRoleArn))
		}
		if in.ResolveConflicts != "" {
			params = append(params, param(types.UpdateParamTypeResolveConflicts, string(in.ResolveConflicts)))
		}
		if in.ConfigurationValues != nil {
			next.ConfigurationValues = in.ConfigurationValues
			params = append(params, param(types.UpdateParamTypeConfigurationValues, *in.ConfigurationValues))
		}
		next.ModifiedAt = aws.Time(call.Now.Add(call.Transition))
		return &eks.UpdateAddonOutput{Update: a.start(call, types.UpdateTypeAddonUpdate, params, in.ClientRequestToken, func() { a.cfg = next })}, nil
	})
}

// deleteAddon starts the deletion of the add-on a request names: it is DELETING, then gone.
func (b *Backend) deleteAddon(call *core.Call, in *eks.DeleteAddonInput) (*eks.DeleteAddonOutput, error) {
	return inMember(b, call, (*cluster).lookupAddon, in.ClusterName, in.AddonName, func(r *region, _ *cluster, a *addon) (*eks.DeleteAddonOutput, error) {
		a.startDelete(call)
		return &eks.DeleteAddonOutput{Addon: r.describeAddon(a, call.Now)}, nil
	})
}
