package ec2

import (
	"maps"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are EC2's limits on tags, with its errors: "TagLimitExceeded" for more than 50 tags
// on a resource, "InvalidParameterValue" for a bad key or value (Amazon EC2 API reference, Error
// codes; Tag your Amazon EC2 resources, Tag restrictions).
var tagRules = core.AWSTagRules(core.Errorf("TagLimitExceeded", "The maximum number of tags for a resource is 50"),
	core.InvalidTag("InvalidParameterValue", "%s"))

// specTags returns the tags TagSpecifications give a resource of type rt; the region's tag
// store checks them when the resource gets them.
func specTags(specs []types.TagSpecification, rt types.ResourceType) (map[string]string, error) {
	out := map[string]string{}
	for _, s := range specs {
		if s.ResourceType != rt {
			return nil, core.Errorf("InvalidParameterValue", "'%s' is not a valid taggable resource type for this operation.", s.ResourceType)
		}
		tags, _ := core.TagMap(s.Tags, core.TagPair[types.Tag])
		maps.Copy(out, tags)
	}
	return out, nil
}

// exists reports whether the caller has a resource with id, of any type tags may be put on, that
// eventual consistency does not hide from the call.
func (r *region) exists(call *core.Call, id string) error {
	k, ok := kindOf(id)
	if !ok {
		return core.Errorf("InvalidID", "The ID '%s' is not valid", id)
	}
	if err := k.check(id); err != nil {
		return err
	}
	if res := r.resource(k, id); res == nil || hidden(call, res) {
		return k.missing(id)
	}
	return nil
}

// kindOf returns the kind of resource, among those tags may be put on, whose id prefix id has.
func kindOf(id string) (kind, bool) {
	for _, k := range kinds {
		if strings.HasPrefix(id, k.prefix+"-") {
			return k, true
		}
	}
	return kind{}, false
}

// resource returns the resource of kind k with id, or nil.
func (r *region) resource(k kind, id string) any {
	return map[kind]any{vpcKind: lookup(r.vpcs, id), subnetKind: lookup(r.subnets, id), igwKind: lookup(r.igws, id), eipKind: lookup(r.eips, id),
		natKind: lookup(r.nats, id), sgKind: lookup(r.groups, id), ruleKind: lookup(r.rules, id), rtbKind: lookup(r.tables, id),
		instanceKind: lookup(r.instances, id), vpceKind: lookup(r.endpoints, id), pcxKind: lookup(r.peeringsHere(), id)}[k]
}

// lookup returns the resource of m with id, or an untyped nil.
func lookup[T any](m map[string]T, id string) any {
	if v, ok := m[id]; ok {
		return v
	}
	return nil
}

// tagging serves CreateTags and DeleteTags on the resources of the caller's region, by id: those
// of any type tags may be put on that eventual consistency does not hide from the call.
func (b *Backend) tagging() core.Tagging[string, types.Tag] {
	return core.Tagging[string, types.Tag]{Lock: b.state, Find: func(call *core.Call, id string) (core.TagTarget, error) {
		r := b.state.Of(call)
		return core.TagTarget{Tags: r.tags, ID: id}, r.exists(call, id)
	}}
}

// createTags adds or replaces tags on every resource, or on none when one would break EC2's
// rules.
func (b *Backend) createTags(call *core.Call, in *ec2.CreateTagsInput) (*ec2.CreateTagsOutput, error) {
	tags, _ := core.TagMap(in.Tags, core.TagPair[types.Tag])
	return &ec2.CreateTagsOutput{}, b.tagging().AddAll(call, in.Resources, tags)
}

// deleteTags removes tags: a tag given without a value is removed whatever its value; with a
// value, only when the value matches.
func (b *Backend) deleteTags(call *core.Call, in *ec2.DeleteTagsInput) (*ec2.DeleteTagsOutput, error) {
	return &ec2.DeleteTagsOutput{}, b.tagging().Each(call, in.Resources, func(t core.TagTarget) error {
		for _, tag := range in.Tags {
			t.Tags.RemoveValued(t.ID, aws.ToString(tag.Key), tag.Value)
		}
		return nil
	})
}

// forget deletes from resources, the region's resources of one kind by id, those that gone
// reports gone, and forgets their tags.
func forget[T any](r *region, resources map[string]T, gone func(T) bool) {
	for id, v := range resources {
		if gone(v) {
			delete(resources, id)
			r.tags.Delete(id)
		}
	}
}

// resourceTypes are the names DescribeTags gives the kinds of resources tags may be put on (the
// resource-type filter's values, as TagSpecification lists them).
var resourceTypes = map[kind]types.ResourceType{
	vpcKind: types.ResourceTypeVpc, subnetKind: types.ResourceTypeSubnet, igwKind: types.ResourceTypeInternetGateway,
	eipKind: types.ResourceTypeElasticIp, natKind: types.ResourceTypeNatgateway, sgKind: types.ResourceTypeSecurityGroup,
	ruleKind: types.ResourceTypeSecurityGroupRule, rtbKind: types.ResourceTypeRouteTable, instanceKind: types.ResourceTypeInstance,
	vpceKind: types.ResourceTypeVpcEndpoint, pcxKind: types.ResourceTypeVpcPeeringConnection,
}

// tagFilters are the filters DescribeTags documents besides tag:<key>.
var tagFilters = map[string]bool{"key": true, "value": true, "resource-id": true, "resource-type": true}

// describeTags lists the tags of the caller's resources, one description per tag, by resource
// id and then key, that pass the filters (key, value, resource-id, resource-type, and
// tag:<key>, which keeps every tag of a resource that has the tag), one page of 5 to 1000 at a
// time. Resources that eventual consistency still hides from the call have no tags yet.
func (b *Backend) describeTags(call *core.Call, in *ec2.DescribeTagsInput) (*ec2.DescribeTagsOutput, error) {
	for _, f := range in.Filters {
		if name := aws.ToString(f.Name); !strings.HasPrefix(name, "tag:") && !tagFilters[name] {
			return nil, core.Errorf("InvalidParameterValue", "The filter '%s' is invalid", name)
		}
	}
	return core.Locked(b.state, call, func(r *region) (*ec2.DescribeTagsOutput, error) {
		out := []types.TagDescription{}
		for _, id := range r.tags.IDs() {
			k, ok := kindOf(id)
			if !ok || r.exists(call, id) != nil {
				continue
			}
			rt, tags := resourceTypes[k], r.tagList(id)
			for _, t := range tags {
				keep, err := matchFilters(in.Filters, tags, fields{"key": text(t.Key), "value": text(t.Value), "resource-id": {id}, "resource-type": {string(rt)}})
				if err != nil {
					return nil, err
				}
				if keep {
					out = append(out, types.TagDescription{Key: t.Key, Value: t.Value, ResourceId: aws.String(id), ResourceType: rt})
				}
			}
		}
		tags, next, err := page(out, paging{in.MaxResults, in.NextToken, 5, 1000})
		return &ec2.DescribeTagsOutput{Tags: tags, NextToken: next}, err
	})
}
