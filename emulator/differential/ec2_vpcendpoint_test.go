package differential

import (
	"context"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// endpointNetwork is one side's EC2 client and the resources the VPC endpoint steps make.
type endpointNetwork struct {
	ec2                        *ec2.Client
	vpc, subnet, table, table2 string
	gateway, iface             string
}

// endpointFields are what the steps compare of an endpoint.
func endpointFields(e types.VpcEndpoint) map[string]string {
	return map[string]string{"type": string(e.VpcEndpointType), "service": aws.ToString(e.ServiceName), "state": strings.ToLower(string(e.State)),
		"routeTables": strconv.Itoa(len(e.RouteTableIds)), "subnets": strconv.Itoa(len(e.SubnetIds)), "privateDns": strconv.FormatBool(aws.ToBool(e.PrivateDnsEnabled)),
		"hasDnsEntries": strconv.FormatBool(len(e.DnsEntries) > 0), "hasPolicy": strconv.FormatBool(aws.ToString(e.PolicyDocument) != "")}
}

// vpcEndpointSteps is the sequence both sides run: gateway and interface endpoints, their
// routes, changes, errors and deletion.
func vpcEndpointSteps() []step[*endpointNetwork] {
	ctx := context.Background()
	const s3 = "com.amazonaws.us-east-1.s3"
	describe := func(n *endpointNetwork, id string) outcome {
		out, err := n.ec2.DescribeVpcEndpoints(ctx, &ec2.DescribeVpcEndpointsInput{VpcEndpointIds: []string{id}})
		if err != nil || len(out.VpcEndpoints) != 1 {
			return observe(err, nil)
		}
		return observe(nil, endpointFields(out.VpcEndpoints[0]))
	}
	count := func(n *endpointNetwork, filters ...types.Filter) outcome {
		out, err := n.ec2.DescribeVpcEndpoints(ctx, &ec2.DescribeVpcEndpointsInput{Filters: filters})
		if err != nil {
			return observe(err, nil)
		}
		return observe(nil, map[string]string{"count": strconv.Itoa(len(out.VpcEndpoints))})
	}
	prefixRoute := func(n *endpointNetwork, table string) outcome {
		out, err := n.ec2.DescribeRouteTables(ctx, &ec2.DescribeRouteTablesInput{RouteTableIds: []string{table}})
		if err != nil {
			return observe(err, nil)
		}
		f := map[string]string{"prefixListRoute": "none"}
		for _, r := range out.RouteTables[0].Routes {
			if strings.HasPrefix(aws.ToString(r.DestinationPrefixListId), "pl-") {
				f["prefixListRoute"] = strconv.FormatBool(aws.ToString(r.GatewayId) == n.gateway)
			}
		}
		return observe(nil, f)
	}
	return []step[*endpointNetwork]{
		{"Network", func(n *endpointNetwork) outcome {
			v, err := n.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.0.0.0/16")})
			if err != nil {
				return observe(err, nil)
			}
			n.vpc = aws.ToString(v.Vpc.VpcId)
			s, err := n.ec2.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: v.Vpc.VpcId, CidrBlock: aws.String("10.0.0.0/24"), AvailabilityZone: aws.String("us-east-1a")})
			if err != nil {
				return observe(err, nil)
			}
			n.subnet = aws.ToString(s.Subnet.SubnetId)
			for _, table := range []*string{&n.table, &n.table2} {
				rt, err := n.ec2.CreateRouteTable(ctx, &ec2.CreateRouteTableInput{VpcId: v.Vpc.VpcId})
				if err != nil {
					return observe(err, nil)
				}
				*table = aws.ToString(rt.RouteTable.RouteTableId)
			}
			return observe(nil, nil)
		}},
		{"CreateGateway", func(n *endpointNetwork) outcome {
			out, err := n.ec2.CreateVpcEndpoint(ctx, &ec2.CreateVpcEndpointInput{VpcId: aws.String(n.vpc), ServiceName: aws.String(s3),
				VpcEndpointType: types.VpcEndpointTypeGateway, RouteTableIds: []string{n.table}})
			if err != nil {
				return observe(err, nil)
			}
			n.gateway = aws.ToString(out.VpcEndpoint.VpcEndpointId)
			return observe(nil, endpointFields(*out.VpcEndpoint))
		}},
		{"GatewayRoute", func(n *endpointNetwork) outcome { return prefixRoute(n, n.table) }},
		{"SecondGatewayOnSameTable", func(n *endpointNetwork) outcome {
			_, err := n.ec2.CreateVpcEndpoint(ctx, &ec2.CreateVpcEndpointInput{VpcId: aws.String(n.vpc), ServiceName: aws.String(s3), RouteTableIds: []string{n.table}})
			return observe(err, nil)
		}},
		{"CreateInterface", func(n *endpointNetwork) outcome {
			out, err := n.ec2.CreateVpcEndpoint(ctx, &ec2.CreateVpcEndpointInput{VpcId: aws.String(n.vpc), ServiceName: aws.String("com.amazonaws.us-east-1.ecr.api"),
				VpcEndpointType: types.VpcEndpointTypeInterface, SubnetIds: []string{n.subnet}, PrivateDnsEnabled: aws.Bool(true)})
			if err != nil {
				return observe(err, nil)
			}
			n.iface = aws.ToString(out.VpcEndpoint.VpcEndpointId)
			return observe(nil, endpointFields(*out.VpcEndpoint))
		}},
		{"DescribeInterface", func(n *endpointNetwork) outcome { return describe(n, n.iface) }},
		{"FilterVpc", func(n *endpointNetwork) outcome { return count(n, filter("vpc-id", n.vpc)) }},
		{"FilterServiceName", func(n *endpointNetwork) outcome { return count(n, filter("vpc-id", n.vpc), filter("service-name", s3)) }},
		{"MoveRouteTable", func(n *endpointNetwork) outcome {
			_, err := n.ec2.ModifyVpcEndpoint(ctx, &ec2.ModifyVpcEndpointInput{VpcEndpointId: aws.String(n.gateway), AddRouteTableIds: []string{n.table2},
				RemoveRouteTableIds: []string{n.table}})
			if err != nil {
				return observe(err, nil)
			}
			return describe(n, n.gateway)
		}},
		{"RouteLeftOldTable", func(n *endpointNetwork) outcome { return prefixRoute(n, n.table) }},
		{"RouteInNewTable", func(n *endpointNetwork) outcome { return prefixRoute(n, n.table2) }},
		{"ChangePolicy", func(n *endpointNetwork) outcome {
			policy := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"*"}]}`
			if _, err := n.ec2.ModifyVpcEndpoint(ctx, &ec2.ModifyVpcEndpointInput{VpcEndpointId: aws.String(n.gateway), PolicyDocument: aws.String(policy)}); err != nil {
				return observe(err, nil)
			}
			out, err := n.ec2.DescribeVpcEndpoints(ctx, &ec2.DescribeVpcEndpointsInput{VpcEndpointIds: []string{n.gateway}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"policy": strconv.FormatBool(aws.ToString(out.VpcEndpoints[0].PolicyDocument) == policy)})
		}},
		{"UnknownVpc", func(n *endpointNetwork) outcome {
			_, err := n.ec2.CreateVpcEndpoint(ctx, &ec2.CreateVpcEndpointInput{VpcId: aws.String("vpc-0123456789abcdef0"), ServiceName: aws.String(s3)})
			return observe(err, nil)
		}},
		{"UnknownService", func(n *endpointNetwork) outcome {
			_, err := n.ec2.CreateVpcEndpoint(ctx, &ec2.CreateVpcEndpointInput{VpcId: aws.String(n.vpc), ServiceName: aws.String("com.amazonaws.us-east-1.nothing")})
			return observe(err, nil)
		}},
		{"UnknownRouteTable", func(n *endpointNetwork) outcome {
			_, err := n.ec2.CreateVpcEndpoint(ctx, &ec2.CreateVpcEndpointInput{VpcId: aws.String(n.vpc), ServiceName: aws.String("com.amazonaws.us-east-1.dynamodb"),
				RouteTableIds: []string{"rtb-0123456789abcdef0"}})
			return observe(err, nil)
		}},
		{"DescribeUnknownEndpoint", func(n *endpointNetwork) outcome { return describe(n, "vpce-0123456789abcdef0") }},
		{"DeleteUnknownEndpoint", func(n *endpointNetwork) outcome {
			out, err := n.ec2.DeleteVpcEndpoints(ctx, &ec2.DeleteVpcEndpointsInput{VpcEndpointIds: []string{"vpce-0123456789abcdef0"}})
			if err != nil {
				return observe(err, nil)
			}
			f := map[string]string{"unsuccessful": strconv.Itoa(len(out.Unsuccessful))}
			for _, u := range out.Unsuccessful {
				f["code"] = aws.ToString(u.Error.Code)
			}
			return observe(nil, f)
		}},
		{"DeleteGateway", func(n *endpointNetwork) outcome {
			out, err := n.ec2.DeleteVpcEndpoints(ctx, &ec2.DeleteVpcEndpointsInput{VpcEndpointIds: []string{n.gateway}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"unsuccessful": strconv.Itoa(len(out.Unsuccessful))})
		}},
		{"RouteGoneWithEndpoint", func(n *endpointNetwork) outcome { return prefixRoute(n, n.table2) }},
		{"GatewayServices", func(n *endpointNetwork) outcome {
			out, err := n.ec2.DescribeVpcEndpointServices(ctx, &ec2.DescribeVpcEndpointServicesInput{ServiceNames: []string{s3, "com.amazonaws.us-east-1.dynamodb"}})
			if err != nil {
				return observe(err, nil)
			}
			var details []string
			for _, d := range out.ServiceDetails {
				for _, k := range d.ServiceType {
					details = append(details, aws.ToString(d.ServiceName)+"/"+string(k.ServiceType))
				}
			}
			slices.Sort(details)
			return observe(nil, map[string]string{"details": strings.Join(details, ",")})
		}},
	}
}

// TestVpcEndpointsAgainstMoto compares VPC endpoints with moto's.
func TestVpcEndpointsAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	emuSide := &endpointNetwork{ec2: ec2.NewFromConfig(sdkConfig(t, emu.URL))}
	peerSide := &endpointNetwork{ec2: ec2.NewFromConfig(sdkConfig(t, peerURL))}
	// AWS refuses a second gateway endpoint whose route would go to the same prefix list in the
	// same table (RouteAlreadyExists); moto creates it, so moto has one endpoint more from then on.
	const secondRoute = "moto accepts a second S3 gateway endpoint on a route table that already routes the S3 prefix list; AWS answers RouteAlreadyExists"
	compare(t, emuSide, peerSide, "moto "+motoVersion, vpcEndpointSteps(), map[string]string{
		"CreateGateway":            "moto answers PrivateDnsEnabled true for a gateway endpoint, which has no private DNS",
		"MoveRouteTable":           "moto answers PrivateDnsEnabled true for a gateway endpoint, which has no private DNS",
		"CreateInterface":          "moto answers a new interface endpoint available; AWS answers pending (create-vpc-endpoint, example 2)",
		"DescribeInterface":        "moto answers a new interface endpoint available; AWS answers pending until it is provisioned",
		"SecondGatewayOnSameTable": secondRoute,
		"FilterVpc":                secondRoute,
		"FilterServiceName":        secondRoute,
		"RouteLeftOldTable":        secondRoute,
		"RouteInNewTable":          "moto's ModifyVpcEndpoint AddRouteTableIds adds no prefix-list route to the table; AWS does",
		"UnknownService":           "moto accepts any service name; AWS answers InvalidServiceName",
		"DeleteUnknownEndpoint":    "moto leaves unknown ids out of Unsuccessful; AWS lists them with InvalidVpcEndpointId.NotFound",
		"DeleteGateway":            "moto fails with InvalidRoute.NotFound once the endpoint's route table no longer holds its route",
		"GatewayServices":          "moto lists S3 as a gateway service only; AWS offers S3 as a gateway and an interface service",
	})
}
