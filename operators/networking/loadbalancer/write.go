package loadbalancer

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the load balancer with its ownership tags and records its ARN. ELBv2 has no
// idempotency token: a second create of the same name and settings returns the same load
// balancer, and Observe claims one found by name. Target groups and listeners follow in the
// changes the next Observe plans.
func (d *driver[O]) Create(ctx context.Context, o O, req managed.Request) error {
	v := d.view(o)
	in := &elb.CreateLoadBalancerInput{
		Name:          aws.String(v.name),
		Type:          v.typ,
		Scheme:        types.LoadBalancerSchemeEnum(cmp.Or(v.spec.Scheme, string(types.LoadBalancerSchemeEnumInternetFacing))),
		IpAddressType: types.IpAddressType(ipAddressType(v)),
		Subnets:       v.spec.SubnetIDs,
		Tags:          tagList(req.Tags),
	}
	if wantsGroups(v) {
		in.SecurityGroups = *v.groups
	}
	out, err := d.api.CreateLoadBalancer(ctx, in)
	if err != nil {
		return fmt.Errorf("create load balancer %s: %w", v.name, err)
	}
	if len(out.LoadBalancers) == 0 {
		return fmt.Errorf("create load balancer %s: AWS returned no load balancer", v.name)
	}
	managed.SetExternalName(o, aws.ToString(out.LoadBalancers[0].LoadBalancerArn))
	return nil
}

// tagCalls changes the tags of resource arn: AddTags, then RemoveTags.
func (d *driver[O]) tagCalls(arn string) func(ctx context.Context, set map[string]string, remove []string) error {
	return managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.api.AddTags(ctx, &elb.AddTagsInput{ResourceArns: []string{arn}, Tags: tagList(set)})
		return managed.Wrap(err, "tag %s", arn)
	}, func(ctx context.Context, remove []string) error {
		_, err := d.api.RemoveTags(ctx, &elb.RemoveTagsInput{ResourceArns: []string{arn}, TagKeys: remove})
		return managed.Wrap(err, "remove %d tags of %s", len(remove), arn)
	})
}

// Delete removes the statements that let its target groups invoke Lambda functions, deletes
// the listeners (and their rules), then the target groups (no longer in use), then the load
// balancer. A load balancer with deletion protection is refused before anything is deleted,
// unless the spec (changed after the deletion began) turns the protection off.
func (d *driver[O]) Delete(ctx context.Context, o O, obs managed.Observation[State]) error {
	v, st := d.view(o), obs.State
	if st.Attributes[deletionProtection] == "true" {
		if v.spec.Attributes[deletionProtection] != "false" {
			return managed.Terminal(condition.ReasonInvalidSpec, "load balancer %s has deletion protection; set the attribute %s to \"false\" in the spec "+
				"to delete it, or use deletionPolicy Retain or Orphan", v.name, deletionProtection)
		}
		in := &elb.ModifyLoadBalancerAttributesInput{LoadBalancerArn: st.LB.LoadBalancerArn,
			Attributes: []types.LoadBalancerAttribute{{Key: aws.String(deletionProtection), Value: aws.String("false")}}}
		if _, err := d.api.ModifyLoadBalancerAttributes(ctx, in); err != nil {
			return fmt.Errorf("turn off the deletion protection of load balancer %s: %w", v.name, err)
		}
	}
	if err := d.revokeInvokeGrants(ctx, v); err != nil {
		return err
	}
	for _, port := range slices.Sorted(maps.Keys(st.Listeners)) {
		l := st.Listeners[port]
		if _, err := d.api.DeleteListener(ctx, &elb.DeleteListenerInput{ListenerArn: l.ListenerArn}); err != nil && !awserr.IsNotFound(err) {
			return fmt.Errorf("delete the listener on port %d of load balancer %s: %w", port, v.name, err)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(st.Groups)) {
		if err := d.deleteGroup(ctx, st.Groups[name]); err != nil {
			return err
		}
	}
	arn := st.LB.LoadBalancerArn
	if _, err := d.api.DeleteLoadBalancer(ctx, &elb.DeleteLoadBalancerInput{LoadBalancerArn: arn}); err != nil && !awserr.IsNotFound(err) {
		return fmt.Errorf("delete load balancer %s: %w", v.name, err)
	}
	return nil
}

// deletionProtection is the attribute that makes AWS refuse to delete a load balancer.
const deletionProtection = "deletion_protection.enabled"

// ReleaseOwnership removes the ownership tags from the load balancer and its target groups,
// 20 resources a call, for deletionPolicy Orphan.
func (d *driver[O]) ReleaseOwnership(ctx context.Context, _ O, obs managed.Observation[State]) error {
	for batch := range slices.Chunk(obs.State.arns(), maxTagARNs) {
		if _, err := d.api.RemoveTags(ctx, &elb.RemoveTagsInput{ResourceArns: batch, TagKeys: managed.OwnershipTagKeys()}); err != nil {
			return fmt.Errorf("remove the ownership tags of %d load balancer resources: %w", len(batch), err)
		}
	}
	return nil
}

// tagList returns tags as ELBv2 takes them.
func tagList(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}
