package ec2

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// createVpcEndpoint creates a gateway or interface endpoint that becomes available on the clock.
// A gateway endpoint adds a route to the service's prefix list in each of its route tables
// (RouteAlreadyExists when one is there); an interface endpoint takes one subnet per zone and
// the VPC's default security group when none is given. A repeated ClientToken with the same
// VPC, service and type answers the endpoint it created.
func (b *Backend) createVpcEndpoint(call *core.Call, in *ec2.CreateVpcEndpointInput) (*ec2.CreateVpcEndpointOutput, error) {
	if err := required("VpcId", in.VpcId); err != nil {
		return nil, err
	}
	if err := required("ServiceName", in.ServiceName); err != nil {
		return nil, err
	}
	typ, err := enumParam(in.VpcEndpointType, "VpcEndpointType", types.VpcEndpointTypeGateway, types.VpcEndpointTypeInterface)
	if err != nil {
		return nil, err
	}
	tags, err := specTags(in.TagSpecifications, types.ResourceTypeVpcEndpoint)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*ec2.CreateVpcEndpointOutput, error) {
		r.purgeEndpoints(call.Now)
		if e, err := r.endpointByToken(call, in, typ); e != nil || err != nil {
			return r.created(e, call, in.ClientToken), err
		}
		v, err := get(call, r.vpcs, vpcKind, aws.ToString(in.VpcId))
		if err != nil {
			return nil, err
		}
		svc, err := findEndpointService(call, aws.ToString(in.ServiceName))
		if err != nil {
			return nil, err
		}
		if !slices.Contains(svc.types, typ) {
			return nil, core.Errorf("InvalidParameter", "The Vpc Endpoint Service '%s' does not support Vpc Endpoint type '%s'.", svc.name(call.Region), typ)
		}
		policy := aws.ToString(in.PolicyDocument)
		if policy == "" {
			policy = defaultEndpointPolicy
		}
		token := aws.ToString(in.ClientToken)
		e := &vpcEndpoint{Readable: core.ReadableAfter(call), id: newID("vpce"), vpc: v.id, service: svc, endpointType: typ, token: token,
			policy: policy, created: call.Now, ready: call.Now}
		if typ == types.VpcEndpointTypeInterface {
			e.ready = call.Now.Add(call.Transition) // AWS answers a new gateway endpoint available, an interface endpoint pending
		}
		ch := endpointChange{addTables: in.RouteTableIds, addSubnets: in.SubnetIds, addGroups: in.SecurityGroupIds}
		if typ == types.VpcEndpointTypeInterface {
			e.privateDNS = in.PrivateDnsEnabled == nil || *in.PrivateDnsEnabled
			if len(in.SecurityGroupIds) == 0 {
				for _, g := range r.groups {
					if g.vpc == v.id && g.isDefault {
						ch.addGroups = []string{g.id}
					}
				}
			}
		} else if in.PrivateDnsEnabled != nil && *in.PrivateDnsEnabled {
			return nil, core.Errorf("InvalidParameter", "PrivateDnsEnabled is not supported for Gateway endpoints.")
		}
		if err := r.changeEndpoint(call, e, ch); err != nil {
			return nil, err
		}
		if err := r.tags.Merge(tags, e.id); err != nil {
			return nil, err
		}
		r.applyEndpointRoutes(e, ch, call.Region)
		r.endpoints[e.id] = e
		if token != "" {
			r.vpceTokens[token] = e.id
		}
		return r.created(e, call, in.ClientToken), nil
	})
}

// endpointByToken returns the endpoint an earlier CreateVpcEndpoint with the same ClientToken
// made, nil when there is none, or IdempotentParameterMismatch when the earlier call named
// another VPC, service or type.
func (r *region) endpointByToken(call *core.Call, in *ec2.CreateVpcEndpointInput, typ types.VpcEndpointType) (*vpcEndpoint, error) {
	token := aws.ToString(in.ClientToken)
	e, ok := r.endpoints[r.vpceTokens[token]]
	switch {
	case !ok || token == "":
		return nil, nil
	case e.vpc != aws.ToString(in.VpcId) || e.service.name(call.Region) != aws.ToString(in.ServiceName) || e.endpointType != typ:
		return nil, core.Errorf("IdempotentParameterMismatch", "The client token %s was already used with different parameters.", token)
	}
	return e, nil
}

// created is CreateVpcEndpoint's answer for an endpoint, or nil for none.
func (r *region) created(e *vpcEndpoint, call *core.Call, token *string) *ec2.CreateVpcEndpointOutput {
	if e == nil {
		return nil
	}
	d := r.describeEndpoint(e, call)
	return &ec2.CreateVpcEndpointOutput{ClientToken: token, VpcEndpoint: &d}
}

func (b *Backend) describeVpcEndpoints(call *core.Call, in *ec2.DescribeVpcEndpointsInput) (*ec2.DescribeVpcEndpointsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.DescribeVpcEndpointsOutput, error) {
		r.purgeEndpoints(call.Now)
		eps, next, err := describe(call, r.endpoints, vpceKind, in.VpcEndpointIds, in.Filters, paging{in.MaxResults, in.NextToken, 5, 1000}, func(id string, e *vpcEndpoint) view[types.VpcEndpoint] {
			d := r.describeEndpoint(e, call)
			return view[types.VpcEndpoint]{d, d.Tags, fields{"vpc-endpoint-id": {id}, "vpc-id": {e.vpc}, "service-name": {aws.ToString(d.ServiceName)},
				"vpc-endpoint-state": {string(d.State)}, "vpc-endpoint-type": {string(e.endpointType)}}}
		})
		return &ec2.DescribeVpcEndpointsOutput{VpcEndpoints: eps, NextToken: next}, err
	})
}

// describeVpcEndpointServices lists the services, all of them or those ServiceNames names (an
// unknown one is InvalidServiceName), filtered by service-name and service-type. A service that
// offers both types (S3) has one detail per type, as on AWS.
func (b *Backend) describeVpcEndpointServices(call *core.Call, in *ec2.DescribeVpcEndpointServicesInput) (*ec2.DescribeVpcEndpointServicesOutput, error) {
	for _, n := range in.ServiceNames {
		if _, err := findEndpointService(call, n); err != nil {
			return nil, err
		}
	}
	var zoneNames []string
	for _, z := range zones(call.Region) {
		zoneNames = append(zoneNames, z.name)
	}
	out := &ec2.DescribeVpcEndpointServicesOutput{ServiceNames: []string{}, ServiceDetails: []types.ServiceDetail{}}
	for _, s := range endpointServices {
		name := s.name(call.Region)
		if len(in.ServiceNames) > 0 && !slices.Contains(in.ServiceNames, name) {
			continue
		}
		listed := false
		for _, t := range s.types {
			ok, err := matchFilters(in.Filters, nil, fields{"service-name": {name}, "service-type": {string(t)}})
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			d := types.ServiceDetail{ServiceName: aws.String(name), ServiceId: aws.String(s.serviceID(call.Region, t)),
				ServiceType: []types.ServiceTypeDetail{{ServiceType: types.ServiceType(t)}}, AvailabilityZones: zoneNames, Owner: aws.String("amazon"),
				AcceptanceRequired: aws.Bool(false), VpcEndpointPolicySupported: aws.Bool(true), ManagesVpcEndpoints: aws.Bool(false),
				BaseEndpointDnsNames: []string{s.short + "." + call.Region + ".amazonaws.com"}}
			if dns := s.dnsName(call.Region); dns != "" && t == types.VpcEndpointTypeInterface {
				d.PrivateDnsName = aws.String(dns)
			}
			out.ServiceDetails = append(out.ServiceDetails, d)
			listed = true
		}
		if listed {
			out.ServiceNames = append(out.ServiceNames, name)
		}
	}
	return out, nil
}
