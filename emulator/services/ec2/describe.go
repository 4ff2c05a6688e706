package ec2

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// kind is one type of EC2 resource as its ids and errors name it.
type kind struct {
	prefix    string // id prefix, without the dash
	noun      string // what the not-found message calls an id: "subnet ID"
	notFound  string // error code for ids that do not exist
	malformed string // error code for ids that are not of this type
}

var (
	vpcKind      = kind{"vpc", "vpc ID", "InvalidVpcID.NotFound", "InvalidVpcID.Malformed"}
	subnetKind   = kind{"subnet", "subnet ID", "InvalidSubnetID.NotFound", "InvalidSubnetID.Malformed"}
	igwKind      = kind{"igw", "internet gateway ID", "InvalidInternetGatewayID.NotFound", "InvalidInternetGatewayID.Malformed"}
	eipKind      = kind{"eipalloc", "allocation ID", "InvalidAllocationID.NotFound", "InvalidAllocationID.Malformed"}
	natKind      = kind{"nat", "NAT gateway ID", "NatGatewayNotFound", "InvalidNatGatewayID.Malformed"}
	sgKind       = kind{"sg", "security group", "InvalidGroup.NotFound", "InvalidGroupId.Malformed"}
	ruleKind     = kind{"sgr", "security group rule ID", "InvalidSecurityGroupRuleId.NotFound", "InvalidSecurityGroupRuleId.Malformed"}
	rtbKind      = kind{"rtb", "route table ID", "InvalidRouteTableID.NotFound", "InvalidRouteTableId.Malformed"}
	assocKind    = kind{"rtbassoc", "association ID", "InvalidAssociationID.NotFound", "InvalidAssociationID.Malformed"}
	instanceKind = kind{"i", "instance ID", "InvalidInstanceID.NotFound", "InvalidInstanceID.Malformed"}
	amiKind      = kind{"ami", "image id", "InvalidAMIID.NotFound", "InvalidAMIID.Malformed"}
)

// kinds are the resource types whose ids CreateTags and DeleteTags accept, by id prefix.
var kinds = []kind{vpcKind, subnetKind, igwKind, eipKind, natKind, sgKind, ruleKind, rtbKind, instanceKind, vpceKind, pcxKind}

// missing returns the error EC2 gives when ids do not exist; it names all of them, as AWS does.
func (k kind) missing(ids ...string) *core.APIError {
	if len(ids) == 1 {
		return core.Errorf(k.notFound, "The %s '%s' does not exist", k.noun, ids[0])
	}
	return core.Errorf(k.notFound, "The %ss '%s' do not exist", k.noun, strings.Join(ids, ", "))
}

// check returns the malformed-id error when id is not an id of this kind.
func (k kind) check(id string) error {
	rest, ok := strings.CutPrefix(id, k.prefix+"-")
	if !ok || len(rest) < 8 || strings.Trim(rest, "0123456789abcdef") != "" {
		return core.Errorf(k.malformed, "Invalid id: \"%s\"", id)
	}
	return nil
}

// get returns the resource id names, or k's malformed or not-found error; a resource that
// eventual consistency still hides from the call is not found.
func get[T any](call *core.Call, m map[string]T, k kind, id string) (T, error) {
	var zero T
	if err := k.check(id); err != nil {
		return zero, err
	}
	r, ok := m[id]
	if !ok || hidden(call, r) {
		return zero, k.missing(id)
	}
	return r, nil
}

// hidden reports whether eventual consistency still hides a resource from the call: one created
// under the ReadAfterCreateDelay fault, before its time.
func hidden(call *core.Call, resource any) bool {
	r, ok := resource.(interface{ Visible(*core.Call) bool })
	return ok && !r.Visible(call)
}

// view is what a Describe operation shows of one resource: its SDK description, its tags and
// the values of its filter fields.
type view[D any] struct {
	item   D
	tags   []types.Tag
	fields fields
}

// fields are a resource's values by filter name; a field may have several values (a route
// table's associated subnets), and a filter matches when any of them does.
type fields map[string][]string

// paging is a Describe request's MaxResults and NextToken, and the bounds the operation puts on
// MaxResults; an operation that does not paginate leaves it zero.
type paging struct {
	maxResults *int32
	token      *string
	lo, hi     int32
}

// describe answers a Describe operation: the resources ids names (every one must exist, else
// one error names all the missing ones) or all of them, in id order, that pass the filters, one
// page at a time. Resources that eventual consistency still hides from the call do not exist yet.
func describe[T, D any](call *core.Call, m map[string]T, k kind, ids []string, filters []types.Filter, pg paging, show func(id string, r T) view[D]) ([]D, *string, error) {
	for _, id := range ids {
		if err := k.check(id); err != nil {
			return nil, nil, err
		}
	}
	visible := map[string]T{}
	for id, r := range m {
		if !hidden(call, r) {
			visible[id] = r
		}
	}
	keys, absent := core.Select(visible, ids)
	if len(absent) > 0 {
		return nil, nil, k.missing(absent...)
	}
	out := []D{}
	for _, id := range keys {
		v := show(id, m[id])
		ok, err := matchFilters(filters, v.tags, v.fields)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			out = append(out, v.item)
		}
	}
	if pg.hi == 0 {
		return out, nil, nil
	}
	return page(out, pg)
}

// page returns one page of a Describe answer, checking MaxResults against the operation's
// bounds as EC2 does.
func page[D any](items []D, pg paging) ([]D, *string, error) {
	size := len(items)
	if pg.maxResults != nil {
		n := aws.ToInt32(pg.maxResults)
		if n < pg.lo || n > pg.hi {
			return nil, nil, core.Errorf("InvalidParameterValue", "Value ( %d ) for parameter maxResults is invalid. Parameter must be between %d and %d.", n, pg.lo, pg.hi)
		}
		size = int(n)
	}
	token := aws.ToString(pg.token)
	out, next, ok := core.Page(items, token, max(size, 1))
	if !ok {
		return nil, nil, core.Errorf("InvalidPaginationToken", "Invalid pagination token: %s", token)
	}
	if next == "" {
		return out, nil, nil
	}
	return out, aws.String(next), nil
}

// matchFilters applies EC2 filters to a resource: fields by filter name, and the tag:<key>,
// tag-key and tag-value filters. An unknown filter name is an error, as on AWS.
func matchFilters(filters []types.Filter, tags []types.Tag, f fields) (bool, error) {
	for _, filter := range filters {
		name := aws.ToString(filter.Name)
		var values []string
		switch {
		case strings.HasPrefix(name, "tag:"):
			for _, t := range tags {
				if aws.ToString(t.Key) == name[4:] {
					values = append(values, aws.ToString(t.Value))
				}
			}
		case name == "tag-key":
			for _, t := range tags {
				values = append(values, aws.ToString(t.Key))
			}
		case name == "tag-value":
			for _, t := range tags {
				values = append(values, aws.ToString(t.Value))
			}
		default:
			v, ok := f[name]
			if !ok {
				return false, core.Errorf("InvalidParameterValue", "The filter '%s' is invalid", name)
			}
			values = v
		}
		if !core.AnyMatch(filter.Values, values, wildcard) {
			return false, nil
		}
	}
	return true, nil
}

// wildcard reports whether a filter value, with * and ? wildcards (which path.Match also
// understands), matches a resource value.
func wildcard(pattern, value string) bool {
	ok, _ := path.Match(pattern, value)
	return ok
}

// text returns the value of a string filter field, or none when it is unset.
func text(s *string) []string {
	if s == nil {
		return nil
	}
	return []string{*s}
}

// boolText is a boolean filter field.
func boolText(b bool) []string { return []string{fmt.Sprint(b)} }

// dependencyViolation is EC2's refusal to delete a resource something still depends on.
func dependencyViolation(what, id string) *core.APIError {
	return core.Errorf("DependencyViolation", "The %s '%s' has dependencies and cannot be deleted.", what, id)
}

// required returns MissingParameter when a required parameter is absent.
// withFound runs f, holding the backend's lock, on the caller's region and what find finds
// there, and returns f's answer or find's error.
func withFound[T, O any](b *Backend, call *core.Call, find func(r *region) (T, error), f func(r *region, found T) (O, error)) (O, error) {
	return core.Locked(b.state, call, func(r *region) (O, error) {
		found, err := find(r)
		if err != nil {
			var none O
			return none, err
		}
		return f(r, found)
	})
}

// withGot runs f, holding the backend's lock, on the caller's region and the resource of kind k
// with id among those of the region that of picks (get), and returns f's answer or get's error.
func withGot[T, O any](b *Backend, call *core.Call, of func(r *region) map[string]T, k kind, id *string, f func(r *region, res T) (O, error)) (O, error) {
	return withFound(b, call, func(r *region) (T, error) { return get(call, of(r), k, aws.ToString(id)) }, f)
}

// enumParam returns the value v a request gives parameter param, the first of allowed (the
// default) when v is empty, or InvalidParameterValue for a value not among allowed.
func enumParam[T ~string](v T, param string, allowed ...T) (T, error) {
	switch {
	case v == "":
		return allowed[0], nil
	case slices.Contains(allowed, v):
		return v, nil
	}
	return "", core.Errorf("InvalidParameterValue", "Value (%s) for parameter %s is invalid.", v, param)
}

// required returns the MissingParameter error EC2 answers a request that leaves out parameter
// name.
func required(name string, v *string) error {
	if aws.ToString(v) == "" {
		return core.Errorf("MissingParameter", "The request must contain the parameter %s", name)
	}
	return nil
}
