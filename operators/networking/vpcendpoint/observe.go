package vpcendpoint

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// State is what AWS said about a VPC endpoint.
type State struct {
	// Endpoint is DescribeVpcEndpoints' answer.
	Endpoint types.VpcEndpoint
}

// Observe finds the endpoint (see ec2util.Source.Find: by its recorded id, else by its
// ownership tags), fills the status, and plans one ModifyVpcEndpoint for the route tables,
// subnets and security groups (as sets), private DNS and policy that differ from the spec, and
// the tag calls. A deleted endpoint does not exist; a deleting or pending one is busy; a failed
// or rejected one is terminal.
func (d *driver) Observe(ctx context.Context, e *v1alpha1.VPCEndpoint, req managed.Request) (managed.Observation[State], error) {
	ep, found, err := d.endpoints.Find(ctx, e)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if !found || is(ep, types.StateDeleted) {
		return managed.Observation[State]{}, nil
	}
	fillStatus(e, ep)
	id, tags := aws.ToString(ep.VpcEndpointId), ec2util.Tags(ep.Tags)
	obs := managed.Observation[State]{Exists: true, State: &State{Endpoint: ep}, Tags: tags}
	switch {
	case req.Deleting:
		return obs, nil
	case is(ep, types.StateDeleting):
		obs.Busy, obs.Message, obs.Uncompared = true, "VPC endpoint "+id+" is deleting", []string{"state (deleting)"}
		return obs, nil
	case is(ep, types.StateFailed), is(ep, types.StateRejected):
		reason := ""
		if ep.LastError != nil {
			reason = ": " + aws.ToString(ep.LastError.Code) + ": " + aws.ToString(ep.LastError.Message)
		}
		return managed.Observation[State]{}, managed.Terminal(condition.ReasonInvalidSpec, "VPC endpoint %s is %s%s; delete the object and create it again",
			id, ep.State, reason)
	case !is(ep, types.StateAvailable):
		obs.Busy, obs.Message, obs.Uncompared = true, "VPC endpoint "+id+" is "+string(ep.State), []string{"state (" + string(ep.State) + ")"}
		return obs, nil
	}
	obs.Ready = true
	obs.Conflict = createdAsSpecified(e, ep)
	d.plan(&obs.Changes, e, ep)
	ec2util.PlanTags(&obs.Changes, d.api, id, req.Tags, tags)
	return obs, nil
}

// plan adds to p one ModifyVpcEndpoint for every difference from the spec, each field shown
// with AWS's value and the spec's.
func (d *driver) plan(p *managed.Plan, e *v1alpha1.VPCEndpoint, ep types.VpcEndpoint) {
	id := aws.ToString(ep.VpcEndpointId)
	in := &ec2.ModifyVpcEndpointInput{VpcEndpointId: aws.String(id)}
	var fields []string
	values := map[string]managed.Values{}
	differ := func(field string, have, want []string, add, remove *[]string) {
		if managed.SameSet(have, want) {
			return
		}
		fields = append(fields, field)
		values[field] = managed.ValuesOf(sorted(have), sorted(want))
		*add, *remove = missing(want, have), missing(have, want)
	}
	if gateway(e) {
		differ("routeTables", ep.RouteTableIds, e.Spec.RouteTableIDs, &in.AddRouteTableIds, &in.RemoveRouteTableIds)
	} else {
		differ("subnets", ep.SubnetIds, e.Spec.SubnetIDs, &in.AddSubnetIds, &in.RemoveSubnetIds)
		if len(e.Spec.SecurityGroupIDs) > 0 {
			differ("securityGroups", groupIDs(ep), e.Spec.SecurityGroupIDs, &in.AddSecurityGroupIds, &in.RemoveSecurityGroupIds)
		}
		if want := privateDNS(e); aws.ToBool(ep.PrivateDnsEnabled) != want {
			fields = append(fields, "privateDNSEnabled")
			values["privateDNSEnabled"] = managed.ValuesOf(aws.ToBool(ep.PrivateDnsEnabled), want)
			in.PrivateDnsEnabled = aws.Bool(want)
		}
	}
	if have := aws.ToString(ep.PolicyDocument); !samePolicy(have, e.Spec.PolicyDocument) {
		fields = append(fields, "policyDocument")
		values["policyDocument"] = managed.ValuesOf(have, e.Spec.PolicyDocument)
		if e.Spec.PolicyDocument == "" {
			in.ResetPolicy = aws.Bool(true)
		} else {
			in.PolicyDocument = aws.String(e.Spec.PolicyDocument)
		}
	}
	p.AddFieldValues(fields, values, func(ctx context.Context) error {
		_, err := d.api.ModifyVpcEndpoint(ctx, in)
		return managed.Wrap(err, "modify VPC endpoint %s", id)
	})
}

// fillStatus copies what AWS said about the endpoint into the status.
func fillStatus(e *v1alpha1.VPCEndpoint, ep types.VpcEndpoint) {
	e.Status.VPCEndpointID, e.Status.State = aws.ToString(ep.VpcEndpointId), string(ep.State)
	e.Status.DNSNames = nil
	for _, entry := range ep.DnsEntries {
		e.Status.DNSNames = append(e.Status.DNSNames, aws.ToString(entry.DnsName))
	}
}

// createdAsSpecified refuses an endpoint whose VPC, service or type is not the spec's (an
// adopted endpoint, or a spec that names another VPC than the endpoint was made in).
func createdAsSpecified(e *v1alpha1.VPCEndpoint, ep types.VpcEndpoint) error {
	id := aws.ToString(ep.VpcEndpointId)
	switch {
	case e.Spec.VPCID != "" && aws.ToString(ep.VpcId) != e.Spec.VPCID:
		return managed.Terminal(condition.ReasonInvalidSpec, "VPC endpoint %s is in VPC %s, not the spec's %s; an endpoint cannot move", id, aws.ToString(ep.VpcId), e.Spec.VPCID)
	case aws.ToString(ep.ServiceName) != e.Spec.ServiceName:
		return managed.Terminal(condition.ReasonInvalidSpec, "VPC endpoint %s serves %s, not the spec's %s; create a new VPCEndpoint", id, aws.ToString(ep.ServiceName), e.Spec.ServiceName)
	case string(ep.VpcEndpointType) != e.Spec.Type:
		return managed.Terminal(condition.ReasonInvalidSpec, "VPC endpoint %s is of type %s, not the spec's %s; create a new VPCEndpoint", id, ep.VpcEndpointType, e.Spec.Type)
	}
	return nil
}

// samePolicy reports whether the endpoint's policy is the spec's: compared by meaning, and an
// unset spec policy is whatever AWS's default full-access policy is.
func samePolicy(have, want string) bool {
	return want == "" && (have == "" || policy.Equivalent(have, fullAccess)) || want != "" && policy.Equivalent(have, want)
}

// fullAccess is the policy AWS gives an endpoint created without one.
const fullAccess = `{"Version":"2008-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"*","Resource":"*"}]}`

// gateway reports whether the spec asks for a gateway endpoint.
func gateway(e *v1alpha1.VPCEndpoint) bool {
	return e.Spec.Type == string(types.VpcEndpointTypeGateway)
}

// privateDNS returns whether the spec asks for private DNS (unset is true).
func privateDNS(e *v1alpha1.VPCEndpoint) bool {
	return e.Spec.PrivateDNSEnabled == nil || *e.Spec.PrivateDNSEnabled
}

// groupIDs returns the ids of the endpoint's security groups.
func groupIDs(ep types.VpcEndpoint) []string {
	ids := make([]string, 0, len(ep.Groups))
	for _, g := range ep.Groups {
		ids = append(ids, aws.ToString(g.GroupId))
	}
	return ids
}

// missing returns the ids of a that b lacks.
func missing(a, b []string) []string {
	var out []string
	for _, id := range a {
		if !slices.Contains(b, id) {
			out = append(out, id)
		}
	}
	return out
}

// sorted returns a sorted copy of ids, [] for none.
func sorted(ids []string) []string {
	return slices.Sorted(slices.Values(append([]string{}, ids...)))
}
