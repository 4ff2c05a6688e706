package securitygroup

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a security group.
type State struct {
	// Group is DescribeSecurityGroups' answer, rules included.
	Group types.SecurityGroup
}

// desired expands g's rules for the group id, and returns the source references not resolved
// yet. Absent egress rules ask for AWS's default.
func desired(g *v1alpha1.SecurityGroup, id string) (ingress, egress ruleSet, pending []string) {
	ingress, pending = desiredRules(g.Spec.IngressRules, g.Name, id)
	egress = defaultEgress
	if g.Spec.EgressRules != nil {
		var pendingOut []string
		egress, pendingOut = desiredRules(g.Spec.EgressRules, g.Name, id)
		pending = append(pending, pendingOut...)
	}
	return ingress, egress, pending
}

// Observe finds the group with its rules (see ec2util.Source.Find), fills the status and plans
// the changes of the rules, compared as sets of atomic rules, and of the tags. The group is
// Ready as soon as it exists.
func (d *driver) Observe(ctx context.Context, g *v1alpha1.SecurityGroup, req managed.Request) (managed.Observation[State], error) {
	sg, found, err := d.groups.Find(ctx, g)
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	id, tags := aws.ToString(sg.GroupId), ec2util.Tags(sg.Tags)
	g.Status.GroupID, g.Status.VPCID = id, aws.ToString(sg.VpcId)
	obs := managed.Observation[State]{Exists: true, Ready: true, State: &State{Group: sg}, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	obs.Conflict = createdAsSpecified(g, sg)
	ingress, egress, pending := desired(g, id)
	if len(pending) > 0 {
		// Only after a crash that lost the group's id: the next reconcile resolves the
		// references, or waits for them, knowing the group exists. Until then the rules
		// cannot be compared: they count as not applied, and the engine waits.
		obs.Busy, obs.Message = true, "waiting for the security groups "+strings.Join(pending, ", ")+" to exist in AWS"
		obs.Uncompared = []string{"sourceSecurityGroupRefs"}
		return obs, nil
	}
	d.planRules(&obs.Changes, id, false, ingress, observedRules(sg.IpPermissions))
	d.planRules(&obs.Changes, id, true, egress, observedRules(sg.IpPermissionsEgress))
	ec2util.PlanTags(&obs.Changes, d.api, id, req.Tags, tags)
	return obs, nil
}

// createdAsSpecified refuses a group whose name, description or VPC is not the spec's (an
// adopted group, or a spec that names another VPC than the one the group was made in).
func createdAsSpecified(g *v1alpha1.SecurityGroup, sg types.SecurityGroup) error {
	id := aws.ToString(sg.GroupId)
	switch {
	case aws.ToString(sg.GroupName) != groupName(g):
		return managed.Terminal(condition.ReasonInvalidSpec, "security group %s is named %q, not the spec's %q; a group's name cannot change",
			id, aws.ToString(sg.GroupName), groupName(g))
	case aws.ToString(sg.Description) != g.Spec.Description:
		return managed.Terminal(condition.ReasonInvalidSpec, "security group %s has the description %q, not the spec's %q; a group's description cannot change",
			id, aws.ToString(sg.Description), g.Spec.Description)
	case g.Spec.VPCID != "" && aws.ToString(sg.VpcId) != g.Spec.VPCID:
		return managed.Terminal(condition.ReasonInvalidSpec, "security group %s is in VPC %s, not the spec's %s; a group cannot move",
			id, aws.ToString(sg.VpcId), g.Spec.VPCID)
	}
	return nil
}
