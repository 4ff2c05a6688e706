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

// planNodeGroups plans the node groups as a set: it creates those of the spec that do not
// exist, changes those that differ (one update a node group at a time: scaling, labels and
// taints with UpdateNodegroupConfig, then the Kubernetes version with UpdateNodegroupVersion
// once the control plane is newer), and deletes those that carry o's ownership tags and that
// the spec no longer lists. A node group that is being created, changed or deleted is waited
// for; one in the spec that another object owns, or that failed, is a conflict.
func (p *planner) planNodeGroups() {
	cluster := aws.ToString(p.state.Cluster.Name)
	for i := range p.o.Spec.NodeGroups {
		want := &p.o.Spec.NodeGroups[i]
		field := "nodeGroups[" + want.Name + "]"
		got, ok := p.state.NodeGroups[want.Name]
		if !ok {
			p.obs.Changes.Add(field, func(ctx context.Context) error { return p.d.createNodegroup(ctx, p.o, p.state.Cluster, want, p.tags) })
			p.wait("node group "+want.Name+" does not exist yet", "")
			continue
		}
		if p.ownedByAnother("node group", "spec.nodeGroups", want.Name, got.Tags) {
			continue
		}
		switch got.Status {
		case types.NodegroupStatusCreateFailed, types.NodegroupStatusDeleteFailed:
			p.conflict(managed.Terminal(condition.ReasonEKSNodeGroupFailed, "node group %s of EKS cluster %s is %s%s; remove it from spec.nodeGroups to delete it, "+
				"then add it again", want.Name, cluster, got.Status, nodegroupIssues(got)))
			continue
		case types.NodegroupStatusActive, types.NodegroupStatusDegraded:
		default:
			p.wait("node group "+want.Name+" is "+string(got.Status), field+" ("+string(got.Status)+")")
			continue
		}
		p.conflict(nodegroupCreatedAsSpecified(cluster, want, got))
		p.planTags(field+".tags", aws.ToString(got.NodegroupArn), got.Tags)
		p.planNodegroupUpdate(field, want, got)
		if got.Status == types.NodegroupStatusDegraded {
			p.wait("node group "+want.Name+" is DEGRADED"+nodegroupIssues(got), "")
		}
	}
	planRemovals(p, "node group", "nodeGroups", specNodeGroupNames(p.o), p.state.NodeGroups, func(g types.Nodegroup) (map[string]string, bool) {
		return g.Tags, g.Status == types.NodegroupStatusDeleting
	}, func(ctx context.Context, name string) error { return p.d.deleteNodegroup(ctx, cluster, name) })
}

// planNodegroupUpdate plans one update of an ACTIVE node group: its scaling, labels and
// taints when they differ from want, or else its Kubernetes version when the control plane's
// is newer.
func (p *planner) planNodegroupUpdate(field string, want *v1alpha1.EKSNodeGroup, got types.Nodegroup) {
	cluster, name := aws.ToString(p.state.Cluster.Name), want.Name
	in, fields, values := nodegroupConfigChange(field, want, got)
	if len(fields) > 0 {
		in.ClusterName, in.NodegroupName = aws.String(cluster), aws.String(name)
		p.obs.Changes.AddFieldValues(fields, values, func(ctx context.Context) error {
			_, err := p.d.api.UpdateNodegroupConfig(ctx, in)
			return managed.Wrap(err, "update the configuration of node group %s of EKS cluster %s", name, cluster)
		})
		p.wait("node group "+name+" differs from the spec", "")
		return
	}
	running, control := aws.ToString(got.Version), aws.ToString(p.state.Cluster.Version)
	if minor(running) >= minor(control) {
		return
	}
	p.obs.Changes.AddValue(field+".version", running, control, func(ctx context.Context) error {
		// Without a version EKS only moves the nodes to the newest AMI of their own version.
		_, err := p.d.api.UpdateNodegroupVersion(ctx, &eks.UpdateNodegroupVersionInput{ClusterName: aws.String(cluster), NodegroupName: aws.String(name),
			Version: aws.String(control)})
		return managed.Wrap(err, "upgrade node group %s of EKS cluster %s to Kubernetes %s", name, cluster, control)
	})
	p.wait("node group "+name+" runs Kubernetes "+running+", older than the control plane's "+control, "")
}

// nodegroupConfigChange returns the UpdateNodegroupConfig request (without the cluster and
// node group names) that gives a node group the scaling, labels and taints of want, the fields
// that differ and their values as the plan shows them (of labels, those that change).
func nodegroupConfigChange(field string, want *v1alpha1.EKSNodeGroup, got types.Nodegroup) (*eks.UpdateNodegroupConfigInput, []string, map[string]managed.Values) {
	in := &eks.UpdateNodegroupConfigInput{}
	var fields []string
	values := map[string]managed.Values{}
	s, cur := want.Scaling, got.ScalingConfig
	if cur == nil || aws.ToInt32(cur.MinSize) != s.MinSize || aws.ToInt32(cur.MaxSize) != s.MaxSize || aws.ToInt32(cur.DesiredSize) != s.DesiredSize {
		in.ScalingConfig = scalingConfig(s)
		fields = append(fields, field+".scaling")
		var current v1alpha1.EKSNodeGroupScaling
		if cur != nil {
			current = v1alpha1.EKSNodeGroupScaling{MinSize: aws.ToInt32(cur.MinSize), MaxSize: aws.ToInt32(cur.MaxSize), DesiredSize: aws.ToInt32(cur.DesiredSize)}
		}
		values[field+".scaling"] = managed.ValuesOf(current, s)
	}
	if set, remove := managed.TagChanges(want.Labels, got.Labels); len(set)+len(remove) > 0 {
		in.Labels = &types.UpdateLabelsPayload{RemoveLabels: remove}
		if len(set) > 0 {
			in.Labels.AddOrUpdateLabels = set
		}
		fields = append(fields, field+".labels")
		values[field+".labels"] = managed.TagValues(set, remove, got.Labels)
	}
	if add, remove := taintChanges(want.Taints, got.Taints); len(add)+len(remove) > 0 {
		in.Taints = &types.UpdateTaintsPayload{AddOrUpdateTaints: add, RemoveTaints: remove}
		fields = append(fields, field+".taints")
		current := make([]v1alpha1.EKSTaint, 0, len(got.Taints))
		for _, t := range got.Taints {
			current = append(current, v1alpha1.EKSTaint{Key: aws.ToString(t.Key), Value: aws.ToString(t.Value), Effect: string(t.Effect)})
		}
		values[field+".taints"] = managed.ValuesOf(current, append([]v1alpha1.EKSTaint{}, want.Taints...))
	}
	return in, fields, values
}

// scalingConfig returns the spec's scaling as EKS takes it.
func scalingConfig(s v1alpha1.EKSNodeGroupScaling) *types.NodegroupScalingConfig {
	return &types.NodegroupScalingConfig{MinSize: aws.Int32(s.MinSize), MaxSize: aws.Int32(s.MaxSize), DesiredSize: aws.Int32(s.DesiredSize)}
}

// taintChanges returns the taints to add or update and those to remove to turn got into
// want, a taint being identified by its key and effect.
func taintChanges(want []v1alpha1.EKSTaint, got []types.Taint) (add, remove []types.Taint) {
	key := func(k string, e types.TaintEffect) string { return k + ":" + string(e) }
	current := map[string]string{}
	for _, t := range got {
		current[key(aws.ToString(t.Key), t.Effect)] = aws.ToString(t.Value)
	}
	wanted := map[string]bool{}
	for _, t := range want {
		k := key(t.Key, types.TaintEffect(t.Effect))
		wanted[k] = true
		if v, ok := current[k]; !ok || v != t.Value {
			add = append(add, types.Taint{Key: aws.String(t.Key), Value: aws.String(t.Value), Effect: types.TaintEffect(t.Effect)})
		}
	}
	for _, t := range got {
		if !wanted[key(aws.ToString(t.Key), t.Effect)] {
			remove = append(remove, types.Taint{Key: t.Key, Effect: t.Effect})
		}
	}
	return add, remove
}

// nodegroupCreatedAsSpecified refuses a node group whose settings EKS sets only at creation
// (role, subnets, instance types, AMI type, capacity type, disk size) are not want's: one made
// outside the operator under a name the spec lists. Settings want leaves unset are not
// compared.
func nodegroupCreatedAsSpecified(cluster string, want *v1alpha1.EKSNodeGroup, got types.Nodegroup) error {
	differs := func(field string, aws, spec any) error {
		return managed.Terminal(condition.ReasonInvalidSpec, "node group %s of EKS cluster %s has %s %v in AWS, not the spec's %v; %s is set when a node group "+
			"is created: give the node group a new name to replace it", want.Name, cluster, field, aws, spec, field)
	}
	switch {
	case aws.ToString(got.NodeRole) != want.NodeRoleARN:
		return differs("nodeRoleARN", aws.ToString(got.NodeRole), want.NodeRoleARN)
	case len(want.SubnetIDs) > 0 && !managed.SameSet(want.SubnetIDs, got.Subnets):
		return differs("subnetIDs", got.Subnets, want.SubnetIDs)
	case len(want.InstanceTypes) > 0 && !managed.SameSet(want.InstanceTypes, got.InstanceTypes):
		return differs("instanceTypes", got.InstanceTypes, want.InstanceTypes)
	case want.AMIType != "" && string(got.AmiType) != want.AMIType:
		return differs("amiType", got.AmiType, want.AMIType)
	case want.CapacityType != "" && string(got.CapacityType) != want.CapacityType:
		return differs("capacityType", got.CapacityType, want.CapacityType)
	case want.DiskSize > 0 && got.DiskSize != nil && *got.DiskSize != want.DiskSize:
		return differs("diskSize", *got.DiskSize, want.DiskSize)
	}
	return nil
}

// createNodegroup creates node group want in cluster c with the tags and an idempotency
// token; its subnets are the cluster's unless want names some.
func (d *driver) createNodegroup(ctx context.Context, o *v1alpha1.EKSCluster, c *types.Cluster, want *v1alpha1.EKSNodeGroup, tags map[string]string) error {
	cluster := aws.ToString(c.Name)
	subnets := want.SubnetIDs
	if len(subnets) == 0 && c.ResourcesVpcConfig != nil {
		subnets = c.ResourcesVpcConfig.SubnetIds
	}
	in := &eks.CreateNodegroupInput{
		ClusterName:        aws.String(cluster),
		NodegroupName:      aws.String(want.Name),
		NodeRole:           aws.String(want.NodeRoleARN),
		Subnets:            subnets,
		InstanceTypes:      want.InstanceTypes,
		AmiType:            types.AMITypes(want.AMIType),
		CapacityType:       types.CapacityTypes(want.CapacityType),
		ScalingConfig:      scalingConfig(want.Scaling),
		Labels:             want.Labels,
		Tags:               tags,
		ClientRequestToken: aws.String(token(o, "nodegroup", want.Name)),
	}
	if want.DiskSize > 0 {
		in.DiskSize = aws.Int32(want.DiskSize)
	}
	// Against no taints, every taint of the spec is one to add.
	in.Taints, _ = taintChanges(want.Taints, nil)
	if _, err := d.api.CreateNodegroup(ctx, in); err != nil {
		return fmt.Errorf("create node group %s of EKS cluster %s: %w", want.Name, cluster, err)
	}
	return nil
}

// deleteNodegroup starts deleting a node group; one already gone is success.
func (d *driver) deleteNodegroup(ctx context.Context, cluster, name string) error {
	_, err := d.api.DeleteNodegroup(ctx, &eks.DeleteNodegroupInput{ClusterName: aws.String(cluster), NodegroupName: aws.String(name)})
	return managed.Wrap(gone(err), "delete node group %s of EKS cluster %s", name, cluster)
}
