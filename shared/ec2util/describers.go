package ec2util

import (
	"context"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

// VPCs reads VPCs, 1000 a page.
func VPCs(api *ec2.Client) Describer[types.Vpc] {
	return paged("VPC", 1000, api.DescribeVpcs, func(ids []string, f []types.Filter, limit *int32, next *string) *ec2.DescribeVpcsInput {
		return &ec2.DescribeVpcsInput{VpcIds: ids, Filters: f, MaxResults: limit, NextToken: next}
	}, func(out *ec2.DescribeVpcsOutput) ([]types.Vpc, *string) {
		return out.Vpcs, out.NextToken
	}, func(v types.Vpc) string { return aws.ToString(v.VpcId) })
}

// Subnets reads subnets, 1000 a page.
func Subnets(api *ec2.Client) Describer[types.Subnet] {
	return paged("subnet", 1000, api.DescribeSubnets, func(ids []string, f []types.Filter, limit *int32, next *string) *ec2.DescribeSubnetsInput {
		return &ec2.DescribeSubnetsInput{SubnetIds: ids, Filters: f, MaxResults: limit, NextToken: next}
	}, func(out *ec2.DescribeSubnetsOutput) ([]types.Subnet, *string) {
		return out.Subnets, out.NextToken
	}, func(s types.Subnet) string { return aws.ToString(s.SubnetId) })
}

// InternetGateways reads internet gateways, 1000 a page.
func InternetGateways(api *ec2.Client) Describer[types.InternetGateway] {
	return paged("internet gateway", 1000, api.DescribeInternetGateways, func(ids []string, f []types.Filter, limit *int32, next *string) *ec2.DescribeInternetGatewaysInput {
		return &ec2.DescribeInternetGatewaysInput{InternetGatewayIds: ids, Filters: f, MaxResults: limit, NextToken: next}
	}, func(out *ec2.DescribeInternetGatewaysOutput) ([]types.InternetGateway, *string) {
		return out.InternetGateways, out.NextToken
	}, func(g types.InternetGateway) string { return aws.ToString(g.InternetGatewayId) })
}

// NATGateways reads NAT gateways, 1000 a page.
func NATGateways(api *ec2.Client) Describer[types.NatGateway] {
	return paged("NAT gateway", 1000, api.DescribeNatGateways, func(ids []string, f []types.Filter, limit *int32, next *string) *ec2.DescribeNatGatewaysInput {
		return &ec2.DescribeNatGatewaysInput{NatGatewayIds: ids, Filter: f, MaxResults: limit, NextToken: next}
	}, func(out *ec2.DescribeNatGatewaysOutput) ([]types.NatGateway, *string) {
		return out.NatGateways, out.NextToken
	}, func(g types.NatGateway) string { return aws.ToString(g.NatGatewayId) })
}

// SecurityGroups reads security groups with their rules, 1000 a page.
func SecurityGroups(api *ec2.Client) Describer[types.SecurityGroup] {
	return paged("security group", 1000, api.DescribeSecurityGroups, func(ids []string, f []types.Filter, limit *int32, next *string) *ec2.DescribeSecurityGroupsInput {
		return &ec2.DescribeSecurityGroupsInput{GroupIds: ids, Filters: f, MaxResults: limit, NextToken: next}
	}, func(out *ec2.DescribeSecurityGroupsOutput) ([]types.SecurityGroup, *string) {
		return out.SecurityGroups, out.NextToken
	}, func(g types.SecurityGroup) string { return aws.ToString(g.GroupId) })
}

// RouteTables reads route tables with their routes and associations, 100 a page (the most
// DescribeRouteTables allows).
func RouteTables(api *ec2.Client) Describer[types.RouteTable] {
	return paged("route table", 100, api.DescribeRouteTables, func(ids []string, f []types.Filter, limit *int32, next *string) *ec2.DescribeRouteTablesInput {
		return &ec2.DescribeRouteTablesInput{RouteTableIds: ids, Filters: f, MaxResults: limit, NextToken: next}
	}, func(out *ec2.DescribeRouteTablesOutput) ([]types.RouteTable, *string) {
		return out.RouteTables, out.NextToken
	}, func(t types.RouteTable) string { return aws.ToString(t.RouteTableId) })
}

// VPCEndpoints reads VPC endpoints, 1000 a page.
func VPCEndpoints(api *ec2.Client) Describer[types.VpcEndpoint] {
	return paged("VPC endpoint", 1000, api.DescribeVpcEndpoints, func(ids []string, f []types.Filter, limit *int32, next *string) *ec2.DescribeVpcEndpointsInput {
		return &ec2.DescribeVpcEndpointsInput{VpcEndpointIds: ids, Filters: f, MaxResults: limit, NextToken: next}
	}, func(out *ec2.DescribeVpcEndpointsOutput) ([]types.VpcEndpoint, *string) {
		return out.VpcEndpoints, out.NextToken
	}, func(e types.VpcEndpoint) string { return aws.ToString(e.VpcEndpointId) })
}

// VPCPeeringConnections reads VPC peering connections, 1000 a page.
func VPCPeeringConnections(api *ec2.Client) Describer[types.VpcPeeringConnection] {
	return paged("VPC peering connection", 1000, api.DescribeVpcPeeringConnections, func(ids []string, f []types.Filter, limit *int32, next *string) *ec2.DescribeVpcPeeringConnectionsInput {
		return &ec2.DescribeVpcPeeringConnectionsInput{VpcPeeringConnectionIds: ids, Filters: f, MaxResults: limit, NextToken: next}
	}, func(out *ec2.DescribeVpcPeeringConnectionsOutput) ([]types.VpcPeeringConnection, *string) {
		return out.VpcPeeringConnections, out.NextToken
	}, func(c types.VpcPeeringConnection) string { return aws.ToString(c.VpcPeeringConnectionId) })
}

// paged returns the Describer of the resources of type what that one paginated EC2 Describe
// call reads: request builds the call's input from the ids, the filters and the paging, page
// returns the resources and the next page's token of an answer, and id a resource's id.
// Listing by filters asks for pages of size (EC2 refuses MaxResults together with ids).
func paged[In, Out, T any](what string, size int32, call func(context.Context, *In, ...func(*ec2.Options)) (*Out, error),
	request func(ids []string, filters []types.Filter, limit *int32, next *string) *In, page func(*Out) ([]T, *string), id func(T) string,
) Describer[T] {
	describe := func(ctx context.Context, ids []string, filters []types.Filter, next string) ([]T, string, error) {
		var limit *int32
		if ids == nil {
			limit = aws.Int32(size)
		}
		var token *string
		if next != "" {
			token = aws.String(next)
		}
		out, err := call(ctx, request(ids, filters, limit, token))
		if err != nil {
			return nil, "", err
		}
		items, following := page(out)
		return items, aws.ToString(following), nil
	}
	return Describer[T]{What: what, Describe: describe, ID: id}
}

// Replaceable returns d for a kind whose resource is replaced by a new one while the old one
// stays visible for a while (a NAT gateway deleted, an instance terminated): gone tells the
// deleted or deleting ones, never reported as duplicates, and among several resources of one
// owner Find picks a live one, else the newest by created.
func (d Describer[T]) Replaceable(gone func(T) bool, created func(T) time.Time) Describer[T] {
	d.Gone = gone
	d.Choose = func(all []T) T {
		slices.SortStableFunc(all, func(a, b T) int { return created(b).Compare(created(a)) })
		for _, t := range all {
			if !gone(t) {
				return t
			}
		}
		return all[0]
	}
	return d
}
