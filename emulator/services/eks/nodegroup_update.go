package eks

import (
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// activeNodegroup refuses an update of a node group that is not ACTIVE, as EKS does.
func activeNodegroup(g *nodegroup, now time.Time) error {
	if g.phase(now) != phaseActive {
		return inUse("Nodegroup cannot be updated as it is currently not in Active State")
	}
	return nil
}

func (b *Backend) updateNodegroupConfig(call *core.Call, in *eks.UpdateNodegroupConfigInput) (*eks.UpdateNodegroupConfigOutput, error) {
	if err := unsupported(map[string]bool{"warmPoolConfig": in.WarmPoolConfig != nil, "nodeRepairConfig": in.NodeRepairConfig != nil}); err != nil {
		return nil, err
	}
	if in.Labels == nil && in.Taints == nil && in.ScalingConfig == nil && in.UpdateConfig == nil {
		return nil, invalidParameter("No changes needed")
	}
	return inMember(b, call, (*cluster).lookupNodegroup, in.ClusterName, in.NodegroupName, func(_ *region, _ *cluster, g *nodegroup) (*eks.UpdateNodegroupConfigOutput, error) {
		if u := g.repeated(in.ClientRequestToken); u != nil {
			return &eks.UpdateNodegroupConfigOutput{Update: u.view()}, nil
		}
		if err := activeNodegroup(g, call.Now); err != nil {
			return nil, err
		}
		next, params, err := configChange(g.cfg, in)
		if err != nil {
			return nil, err
		}
		done := aws.Time(call.Now.Add(call.Transition))
		return &eks.UpdateNodegroupConfigOutput{Update: g.start(call, types.UpdateTypeConfigUpdate, params, in.ClientRequestToken, func() {
			g.cfg.Labels, g.cfg.Taints, g.cfg.ScalingConfig, g.cfg.UpdateConfig = next.Labels, next.Taints, next.ScalingConfig, next.UpdateConfig
			g.cfg.ModifiedAt = done
		})}, nil
	})
}

// configChange returns the labels, taints, scaling and update configuration of a node group
// once an UpdateNodegroupConfig request applies to cur, and the update's parameters.
func configChange(cur types.Nodegroup, in *eks.UpdateNodegroupConfigInput) (types.Nodegroup, []types.UpdateParam, error) {
	next := types.Nodegroup{Labels: cur.Labels, Taints: cur.Taints, ScalingConfig: cur.ScalingConfig, UpdateConfig: cur.UpdateConfig}
	var params []types.UpdateParam
	if l := in.Labels; l != nil {
		for _, k := range l.RemoveLabels {
			if _, ok := l.AddOrUpdateLabels[k]; ok {
				return next, nil, invalidParameter("The label %s can't be both added or updated and removed", k)
			}
		}
		if err := checkLabels(l.AddOrUpdateLabels); err != nil {
			return next, nil, err
		}
		next.Labels = maps.Clone(cur.Labels)
		maps.Copy(next.Labels, l.AddOrUpdateLabels)
		for _, k := range l.RemoveLabels {
			delete(next.Labels, k)
		}
		if len(l.AddOrUpdateLabels) > 0 {
			params = append(params, param(types.UpdateParamTypeLabelsToAdd, jsonValue(l.AddOrUpdateLabels)))
		}
		if len(l.RemoveLabels) > 0 {
			params = append(params, param(types.UpdateParamTypeLabelsToRemove, jsonValue(l.RemoveLabels)))
		}
	}
	if t := in.Taints; t != nil {
		taints, err := taintChange(cur.Taints, t)
		if err != nil {
			return next, nil, err
		}
		next.Taints = taints
		if len(t.AddOrUpdateTaints) > 0 {
			params = append(params, param(types.UpdateParamTypeTaintsToAdd, taintValues(t.AddOrUpdateTaints)))
		}
		if len(t.RemoveTaints) > 0 {
			params = append(params, param(types.UpdateParamTypeTaintsToRemove, taintValues(t.RemoveTaints)))
		}
	}
	if s := in.ScalingConfig; s != nil {
		old := cur.ScalingConfig
		next.ScalingConfig = &types.NodegroupScalingConfig{MinSize: orDefault(s.MinSize, aws.ToInt32(old.MinSize)),
			MaxSize: orDefault(s.MaxSize, aws.ToInt32(old.MaxSize)), DesiredSize: orDefault(s.DesiredSize, aws.ToInt32(old.DesiredSize))}
		if err := checkScaling(next.ScalingConfig, true); err != nil {
			return next, nil, err
		}
		for _, p := range []struct {
			typ types.UpdateParamType
			v   *int32
		}{{types.UpdateParamTypeMinSize, s.MinSize}, {types.UpdateParamTypeMaxSize, s.MaxSize}, {types.UpdateParamTypeDesiredSize, s.DesiredSize}} {
			if p.v != nil {
				params = append(params, param(p.typ, strconv.Itoa(int(*p.v))))
			}
		}
	}
	update, err := updateConfig(in.UpdateConfig, cur.UpdateConfig, aws.ToInt32(next.ScalingConfig.MaxSize))
	if err != nil {
		return next, nil, err
	}
	if update != cur.UpdateConfig {
		next.UpdateConfig = update
		if update.MaxUnavailable != nil {
			params = append(params, param(types.UpdateParamTypeMaxUnavailable, strconv.Itoa(int(*update.MaxUnavailable))))
		} else {
			params = append(params, param(types.UpdateParamTypeMaxUnavailablePercentage, strconv.Itoa(int(*update.MaxUnavailablePercentage))))
		}
	}
	return next, params, nil
}

// taintChange returns a node group's taints once a request adds, updates and removes some, a
// taint being identified by its key and effect.
func taintChange(cur []types.Taint, in *types.UpdateTaintsPayload) ([]types.Taint, error) {
	if err := checkTaints(in.AddOrUpdateTaints); err != nil {
		return nil, err
	}
	removed := map[string]bool{}
	for _, t := range in.RemoveTaints {
		removed[taintKey(t)] = true
	}
	for _, t := range in.AddOrUpdateTaints {
		if removed[taintKey(t)] {
			return nil, invalidParameter("The taint %s can't be both added or updated and removed", taintKey(t))
		}
	}
	out := slices.DeleteFunc(slices.Clone(cur), func(t types.Taint) bool {
		return removed[taintKey(t)] || slices.ContainsFunc(in.AddOrUpdateTaints, func(a types.Taint) bool { return taintKey(a) == taintKey(t) })
	})
	out = append(out, in.AddOrUpdateTaints...)
	if len(out) > maxTaints {
		return nil, invalidParameter("A node group can have at most %d taints", maxTaints)
	}
	return out, nil
}

func (b *Backend) updateNodegroupVersion(call *core.Call, in *eks.UpdateNodegroupVersionInput) (*eks.UpdateNodegroupVersionOutput, error) {
	return inMember(b, call, (*cluster).lookupNodegroup, in.ClusterName, in.NodegroupName, func(_ *region, c *cluster, g *nodegroup) (*eks.UpdateNodegroupVersionOutput, error) {
		if u := g.repeated(in.ClientRequestToken); u != nil {
			return &eks.UpdateNodegroupVersionOutput{Update: u.view()}, nil
		}
		if err := activeNodegroup(g, call.Now); err != nil {
			return nil, err
		}
		version, release, err := nodeVersion(aws.ToString(c.cfg.Version), aws.ToString(in.Version), aws.ToString(in.ReleaseVersion), aws.ToString(g.cfg.Version))
		if err != nil {
			return nil, err
		}
		params := []types.UpdateParam{param(types.UpdateParamTypeVersion, version), param(types.UpdateParamTypeReleaseVersion, release)}
		template := g.cfg.LaunchTemplate
		if lt := in.LaunchTemplate; lt != nil {
			template = &types.LaunchTemplateSpecification{Id: lt.Id, Name: lt.Name, Version: lt.Version}
			params = append(params, param(types.UpdateParamTypeLaunchTemplateVersion, aws.ToString(lt.Version)))
		}
		done := aws.Time(call.Now.Add(call.Transition))
		return &eks.UpdateNodegroupVersionOutput{Update: g.start(call, types.UpdateTypeVersionUpdate, params, in.ClientRequestToken, func() {
			g.cfg.Version, g.cfg.ReleaseVersion, g.cfg.LaunchTemplate, g.cfg.ModifiedAt = aws.String(version), aws.String(release), template, done
		})}, nil
	})
}
