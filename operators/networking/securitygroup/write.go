package securitygroup

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the group, named spec.groupName or else after the object, with its ownership
// tags and records its id. AWS gives it the default egress rule; the observation the engine
// makes right after, in the same pass, plans the rules of the spec.
func (d *driver) Create(ctx context.Context, g *v1alpha1.SecurityGroup, req managed.Request) error {
	out, err := d.api.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{
		GroupName:         aws.String(groupName(g)),
		Description:       aws.String(g.Spec.Description),
		VpcId:             aws.String(g.Spec.VPCID),
		TagSpecifications: ec2util.TagSpecifications(types.ResourceTypeSecurityGroup, req.Tags),
	})
	if err != nil {
		return fmt.Errorf("create security group %s in VPC %s: %w", groupName(g), g.Spec.VPCID, err)
	}
	managed.SetExternalName(g, aws.ToString(out.GroupId))
	return nil
}

// planRules plans, when the group's ingress (or egress) rules differ from the spec's, one
// change that revokes the rules AWS has and the spec does not, then authorises the rules the
// spec has and AWS does not. Revoking first lets a rule whose description changed be replaced
// (AWS refuses a second rule that differs only in its description).
func (d *driver) planRules(plan *managed.Plan, id string, egress bool, want, have ruleSet) {
	extra, missing := have.minus(want), want.minus(have)
	if len(extra)+len(missing) == 0 {
		return
	}
	gid, what := aws.String(id), "ingress"
	if egress {
		what = "egress"
	}
	plan.Add(what+"Rules", func(ctx context.Context) error {
		var err error
		switch {
		case len(extra) == 0:
		case egress:
			_, err = d.api.RevokeSecurityGroupEgress(ctx, &ec2.RevokeSecurityGroupEgressInput{GroupId: gid, IpPermissions: ipPermissions(extra)})
		default:
			_, err = d.api.RevokeSecurityGroupIngress(ctx, &ec2.RevokeSecurityGroupIngressInput{GroupId: gid, IpPermissions: ipPermissions(extra)})
		}
		if err != nil && awserr.Code(err) != "InvalidPermission.NotFound" {
			return fmt.Errorf("revoke %d %s rules of security group %s: %w", len(extra), what, id, err)
		}
		switch {
		case len(missing) == 0:
			return nil
		case egress:
			_, err = d.api.AuthorizeSecurityGroupEgress(ctx, &ec2.AuthorizeSecurityGroupEgressInput{GroupId: gid, IpPermissions: ipPermissions(missing)})
		default:
			_, err = d.api.AuthorizeSecurityGroupIngress(ctx, &ec2.AuthorizeSecurityGroupIngressInput{GroupId: gid, IpPermissions: ipPermissions(missing)})
		}
		return managed.Wrap(err, "authorize %d %s rules of security group %s", len(missing), what, id)
	})
}

// Delete deletes the group. While another group's rule refers to it (or a network interface
// uses it) AWS answers DependencyViolation, which the engine reports and retries with
// backoff.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.SecurityGroup, obs managed.Observation[State]) error {
	id := aws.ToString(obs.State.Group.GroupId)
	_, err := d.api.DeleteSecurityGroup(ctx, &ec2.DeleteSecurityGroupInput{GroupId: aws.String(id)})
	return ec2util.Deleted(err, "security group", id)
}

// ReleaseOwnership removes the ownership tags, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.SecurityGroup, obs managed.Observation[State]) error {
	return ec2util.ReleaseOwnership(ctx, d.api, aws.ToString(obs.State.Group.GroupId))
}
