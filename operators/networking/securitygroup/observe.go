package securitygroup

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a security group.
type State struct {
	// Group is DescribeSecurityGroups' answer, rules included.
	Group types.SecurityGroup
}

// wanted is the rule sets a spec asks for, and the source references not resolved yet.
type wanted struct {
	ingress, egress ruleSet
	pending         []string
}

// want expands g's rules for the group id. Absent egress rules ask for AWS's default.
func want(g *v1alpha1.SecurityGroup, id string) wanted {
	var w wanted
	var pendingIn, pendingOut []string
	w.ingress, pendingIn = desiredRules(g.Spec.IngressRules, g.Name, id)
	w.egress, pendingOut = defaultEgress, nil
	if g.Spec.EgressRules != nil {
		w.egress, pendingOut = desiredRules(g.Spec.EgressRules, g.Name, id)
	}
	w.pending = append(pendingIn, pendingOut...)
	return w
}

// Observe reads the group with its rules (from the provider's listing at periodic syncs,
// directly otherwise), fills the status and compares the rules, as sets of atomic rules, and
// the tags with the spec. A group without a recorded id is looked up by its ownership tag. The
// group is Ready as soon as it exists.
func (d *driver) Observe(ctx context.Context, g *v1alpha1.SecurityGroup) (managed.Observation[State], error) {
	sg, found, err := d.groups.Find(ctx, d.listing, g)
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	id := aws.ToString(sg.GroupId)
	g.Status.GroupID, g.Status.VPCID = id, aws.ToString(sg.VpcId)
	obs := managed.Observation[State]{Exists: true, Ready: true, State: &State{Group: sg}, Tags: ec2util.Tags(sg.Tags), Conflict: createdAsSpecified(g, sg)}
	w := want(g, id)
	if len(w.pending) > 0 {
		// Only after a crash that lost the group's id: the next reconcile resolves the
		// references, or waits for them, knowing the group exists.
		obs.Busy, obs.Message = true, "waiting for the security groups "+strings.Join(w.pending, ", ")+" to exist in AWS"
		return obs, nil
	}
	var diff managed.Diff
	diff.Check("ingressRules", !equal(w.ingress, observedRules(sg.IpPermissions)))
	diff.Check("egressRules", !equal(w.egress, observedRules(sg.IpPermissionsEgress)))
	set, remove := managed.TagChanges(managed.DesiredTags(g, d.defaultTags), ec2util.Tags(sg.Tags))
	diff.Check("tags", len(set)+len(remove) > 0)
	obs.UpToDate, obs.Diff = len(diff) == 0, diff.String()
	return obs, nil
}

// equal reports whether two rule sets hold the same rules.
func equal(a, b ruleSet) bool {
	return len(a.minus(b)) == 0 && len(b.minus(a)) == 0
}

// createdAsSpecified refuses a group whose name, description or VPC is not the spec's (an
// adopted group, or a spec that names another VPC than the one the group was made in).
func createdAsSpecified(g *v1alpha1.SecurityGroup, sg types.SecurityGroup) error {
	id := aws.ToString(sg.GroupId)
	switch {
	case aws.ToString(sg.GroupName) != g.Spec.GroupName:
		return managed.Terminal(managed.ReasonInvalidSpec, "security group %s is named %q, not the spec's %q; a group's name cannot change",
			id, aws.ToString(sg.GroupName), g.Spec.GroupName)
	case aws.ToString(sg.Description) != g.Spec.Description:
		return managed.Terminal(managed.ReasonInvalidSpec, "security group %s has the description %q, not the spec's %q; a group's description cannot change",
			id, aws.ToString(sg.Description), g.Spec.Description)
	case g.Spec.VPCID != "" && aws.ToString(sg.VpcId) != g.Spec.VPCID:
		return managed.Terminal(managed.ReasonInvalidSpec, "security group %s is in VPC %s, not the spec's %s; a group cannot move",
			id, aws.ToString(sg.VpcId), g.Spec.VPCID)
	}
	return nil
}
