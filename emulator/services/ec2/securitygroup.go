package ec2

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// securityGroup is one VPC security group; its rules are kept apart, one per atomic rule.
type securityGroup struct {
	core.Readable              // hidden from reads for a while after creation, under the ReadAfterCreateDelay fault
	id, name, description, vpc string
	isDefault                  bool
}

// noDefaultVPC is EC2's answer to naming a group by name, or creating one without a VPC, which
// only works in a default VPC, once the region's default VPC has been deleted.
var noDefaultVPC = core.Errorf("VPCIdNotSpecified", "No default VPC for this user. GroupName is only supported for EC2-Classic and default VPC.")

// addDefaultGroup gives a new VPC its default security group: all traffic in from the group
// itself, all IPv4 traffic out.
func (r *region) addDefaultGroup(vpcID string) {
	g := &securityGroup{id: newID("sg"), name: "default", description: "default VPC security group", vpc: vpcID, isDefault: true}
	r.groups[g.id] = g
	r.addRule(&sgRule{id: newID("sgr"), group: g.id, protocol: "-1", from: -1, to: -1, refGroup: g.id})
	r.addRule(&sgRule{id: newID("sgr"), group: g.id, egress: true, protocol: "-1", from: -1, to: -1, cidr4: "0.0.0.0/0"})
}

// dropGroup forgets a group, its rules and their tags.
func (r *region) dropGroup(id string) {
	forget(r, r.rules, func(rule *sgRule) bool { return rule.group == id })
	delete(r.groups, id)
	r.tags.Delete(id)
}

// group returns the group a request names by id, or by name alone in the default VPC.
func (r *region) group(call *core.Call, id, name *string) (*securityGroup, error) {
	if id == nil && name != nil {
		return r.defaultVpcGroup(call, aws.ToString(name))
	}
	return get(call, r.groups, sgKind, aws.ToString(id))
}

// defaultVpcGroup returns the group of the default VPC that has the name, if eventual consistency
// does not hide it from the call: EC2 resolves group names in the default VPC only.
func (r *region) defaultVpcGroup(call *core.Call, name string) (*securityGroup, error) {
	v := r.defaultVpc()
	if v == nil {
		return nil, noDefaultVPC
	}
	for _, g := range r.groups {
		if g.vpc == v.id && g.name == name && !hidden(call, g) {
			return g, nil
		}
	}
	return nil, core.Errorf("InvalidGroup.NotFound", "The security group '%s' does not exist in default VPC '%s'", name, v.id)
}

// groupIDs returns the ids of groups a request names by id and by name, the names resolved in the
// default VPC.
func (r *region) groupIDs(call *core.Call, ids, names []string) ([]string, error) {
	out := slices.Clone(ids)
	for _, name := range names {
		g, err := r.defaultVpcGroup(call, name)
		if err != nil {
			return nil, err
		}
		out = append(out, g.id)
	}
	return out, nil
}

func (r *region) describeGroup(g *securityGroup, call *core.Call) types.SecurityGroup {
	in, out := r.rulesOf(g.id)
	return types.SecurityGroup{GroupId: aws.String(g.id), GroupName: aws.String(g.name), Description: aws.String(g.description),
		VpcId: aws.String(g.vpc), OwnerId: aws.String(call.Account), SecurityGroupArn: aws.String(call.Scope().ARN("ec2", "security-group/"+g.id)),
		IpPermissions: permissions(in, call.Account), IpPermissionsEgress: permissions(out, call.Account), Tags: r.tagList(g.id)}
}

// checkGroupText validates a group name or description as AWS does.
func checkGroupText(param, v string) error {
	if v == "" {
		return core.Errorf("MissingParameter", "The request must contain the parameter %s", param)
	}
	if len(v) > 255 {
		return core.Errorf("InvalidParameterValue", "Value (%s) for parameter %s is invalid. Length exceeds maximum of 255", v, param)
	}
	return nil
}

func (b *Backend) createSecurityGroup(call *core.Call, in *ec2.CreateSecurityGroupInput) (*ec2.CreateSecurityGroupOutput, error) {
	name := aws.ToString(in.GroupName)
	if err := checkGroupText("groupName", name); err != nil {
		return nil, err
	}
	if err := checkGroupText("GroupDescription", aws.ToString(in.Description)); err != nil {
		return nil, err
	}
	switch {
	case strings.HasPrefix(strings.ToLower(name), "sg-"):
		return nil, core.Errorf("InvalidParameterValue", "Group names may not be in the format sg-*.")
	case name == "default":
		return nil, core.Errorf("InvalidGroup.Reserved", "The security group 'default' is reserved")
	}
	tags, err := specTags(in.TagSpecifications, types.ResourceTypeSecurityGroup)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*ec2.CreateSecurityGroupOutput, error) {
		v := r.defaultVpc()
		if in.VpcId != nil {
			if v, err = get(call, r.vpcs, vpcKind, aws.ToString(in.VpcId)); err != nil {
				return nil, err
			}
		} else if v == nil {
			return nil, noDefaultVPC
		}
		for _, g := range r.groups {
			if g.vpc == v.id && g.name == name {
				return nil, core.Errorf("InvalidGroup.Duplicate", "The security group '%s' already exists for VPC '%s'", name, v.id)
			}
		}
		g := &securityGroup{Readable: core.ReadableAfter(call), id: newID("sg"), name: name, description: aws.ToString(in.Description), vpc: v.id}
		if err := r.tags.Merge(tags, g.id); err != nil {
			return nil, err
		}
		r.groups[g.id] = g
		r.addRule(&sgRule{id: newID("sgr"), group: g.id, egress: true, protocol: "-1", from: -1, to: -1, cidr4: "0.0.0.0/0"})
		return &ec2.CreateSecurityGroupOutput{GroupId: aws.String(g.id), SecurityGroupArn: aws.String(call.Scope().ARN("ec2", "security-group/"+g.id)),
			Tags: r.tagList(g.id)}, nil
	})
}

func (b *Backend) describeSecurityGroups(call *core.Call, in *ec2.DescribeSecurityGroupsInput) (*ec2.DescribeSecurityGroupsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.DescribeSecurityGroupsOutput, error) {
		ids, err := r.groupIDs(call, in.GroupIds, in.GroupNames)
		if err != nil {
			return nil, err
		}
		groups, next, err := describe(call, r.groups, sgKind, ids, in.Filters, paging{in.MaxResults, in.NextToken, 5, 1000}, func(id string, g *securityGroup) view[types.SecurityGroup] {
			d := r.describeGroup(g, call)
			f := fields{"group-id": {id}, "group-name": {g.name}, "vpc-id": {g.vpc}, "description": {g.description}, "owner-id": {call.Account}}
			in, out := r.rulesOf(id)
			ruleFields(f, "ip-permission.", in)
			ruleFields(f, "egress.ip-permission.", out)
			return view[types.SecurityGroup]{d, d.Tags, f}
		})
		return &ec2.DescribeSecurityGroupsOutput{SecurityGroups: groups, NextToken: next}, err
	})
}

// deleteSecurityGroup refuses for a VPC's default group (CannotDelete), and while another
// group's rule refers to the group or an instance that is not terminated is in it
// (DependencyViolation).
func (b *Backend) deleteSecurityGroup(call *core.Call, in *ec2.DeleteSecurityGroupInput) (*ec2.DeleteSecurityGroupOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.DeleteSecurityGroupOutput, error) {
		g, err := r.group(call, in.GroupId, in.GroupName)
		if err != nil {
			return nil, err
		}
		if g.isDefault {
			return nil, core.Errorf("CannotDelete", "the specified group: \"%s\" name: \"default\" cannot be deleted by a user", g.id)
		}
		for _, rule := range r.rules {
			if rule.refGroup == g.id && rule.group != g.id {
				return nil, core.Errorf("DependencyViolation", "resource %s has a dependent object", g.id)
			}
		}
		for _, i := range r.instances {
			if i.usesGroup(g.id, call.Now) {
				return nil, core.Errorf("DependencyViolation", "resource %s has a dependent object", g.id)
			}
		}
		r.dropGroup(g.id)
		return &ec2.DeleteSecurityGroupOutput{GroupId: aws.String(g.id), Return: aws.Bool(true)}, nil
	})
}
