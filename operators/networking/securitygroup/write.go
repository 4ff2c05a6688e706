package securitygroup

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the group with its ownership tags and records its id. AWS gives it the
// default egress rule; the next reconcile brings the rules to the spec.
func (d *driver) Create(ctx context.Context, g *v1alpha1.SecurityGroup) error {
	out, err := d.api.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{
		GroupName:         aws.String(g.Spec.GroupName),
		Description:       aws.String(g.Spec.Description),
		VpcId:             aws.String(g.Spec.VPCID),
		TagSpecifications: ec2util.TagSpecifications(types.ResourceTypeSecurityGroup, managed.DesiredTags(g, d.defaultTags)),
	})
	if err != nil {
		return fmt.Errorf("create security group %s in VPC %s: %w", g.Spec.GroupName, g.Spec.VPCID, err)
	}
	managed.SetExternalName(g, aws.ToString(out.GroupId))
	return nil
}

// Update revokes the rules AWS has and the spec does not, then authorises the rules the spec
// has and AWS does not, ingress and egress, and sets the tags. Revoking first lets a rule whose
// description changed be replaced (AWS refuses a second rule that differs only in its
// description).
func (d *driver) Update(ctx context.Context, g *v1alpha1.SecurityGroup, obs managed.Observation[State]) error {
	sg := obs.State.Group
	id := aws.ToString(sg.GroupId)
	w := want(g, id)
	in, out := observedRules(sg.IpPermissions), observedRules(sg.IpPermissionsEgress)
	if extra := in.minus(w.ingress); len(extra) > 0 {
		if _, err := d.api.RevokeSecurityGroupIngress(ctx, &ec2.RevokeSecurityGroupIngressInput{GroupId: aws.String(id), IpPermissions: ipPermissions(extra)}); err != nil && awserr.Code(err) != "InvalidPermission.NotFound" {
			return fmt.Errorf("revoke %d ingress rules of security group %s: %w", len(extra), id, err)
		}
	}
	if missing := w.ingress.minus(in); len(missing) > 0 {
		if _, err := d.api.AuthorizeSecurityGroupIngress(ctx, &ec2.AuthorizeSecurityGroupIngressInput{GroupId: aws.String(id), IpPermissions: ipPermissions(missing)}); err != nil {
			return fmt.Errorf("authorize %d ingress rules of security group %s: %w", len(missing), id, err)
		}
	}
	if extra := out.minus(w.egress); len(extra) > 0 {
		if _, err := d.api.RevokeSecurityGroupEgress(ctx, &ec2.RevokeSecurityGroupEgressInput{GroupId: aws.String(id), IpPermissions: ipPermissions(extra)}); err != nil && awserr.Code(err) != "InvalidPermission.NotFound" {
			return fmt.Errorf("revoke %d egress rules of security group %s: %w", len(extra), id, err)
		}
	}
	if missing := w.egress.minus(out); len(missing) > 0 {
		if _, err := d.api.AuthorizeSecurityGroupEgress(ctx, &ec2.AuthorizeSecurityGroupEgressInput{GroupId: aws.String(id), IpPermissions: ipPermissions(missing)}); err != nil {
			return fmt.Errorf("authorize %d egress rules of security group %s: %w", len(missing), id, err)
		}
	}
	return ec2util.UpdateTags(ctx, d.api, id, managed.DesiredTags(g, d.defaultTags), ec2util.Tags(sg.Tags))
}

// Delete deletes the group. While another group's rule refers to it (or a network interface
// uses it) AWS answers DependencyViolation, which the reconciler reports and retries with
// backoff.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.SecurityGroup, obs managed.Observation[State]) error {
	id := aws.ToString(obs.State.Group.GroupId)
	if _, err := d.api.DeleteSecurityGroup(ctx, &ec2.DeleteSecurityGroupInput{GroupId: aws.String(id)}); err != nil && !awserr.IsNotFound(err) {
		return fmt.Errorf("delete security group %s: %w", id, err)
	}
	return nil
}

// ReleaseOwnership removes the ownership tags, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.SecurityGroup, obs managed.Observation[State]) error {
	return ec2util.ReleaseOwnership(ctx, d.api, aws.ToString(obs.State.Group.GroupId))
}
