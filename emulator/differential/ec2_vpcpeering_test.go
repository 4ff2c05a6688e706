package differential

import (
	"context"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// peeringNetwork is one side's EC2 client and the resources the VPC peering steps make.
type peeringNetwork struct {
	ec2                   *ec2.Client
	a, b, overlapping     string // VPCs: 10.0.0.0/16, 10.1.0.0/16, 10.0.128.0/17
	table                 string // a's main route table
	pcx, overlap, refused string // connections: a to b, a to overlapping, a to b rejected
}

// peeringFields are what the steps compare of a connection.
func peeringFields(n *peeringNetwork, c types.VpcPeeringConnection) map[string]string {
	f := map[string]string{"status": string(c.Status.Code), "requesterIsA": strconv.FormatBool(aws.ToString(c.RequesterVpcInfo.VpcId) == n.a),
		"requesterCidr": aws.ToString(c.RequesterVpcInfo.CidrBlock), "tags": strconv.Itoa(len(c.Tags))}
	if c.AccepterVpcInfo != nil {
		f["accepterCidr"] = aws.ToString(c.AccepterVpcInfo.CidrBlock)
		if o := c.AccepterVpcInfo.PeeringOptions; o != nil {
			f["accepterDns"] = strconv.FormatBool(aws.ToBool(o.AllowDnsResolutionFromRemoteVpc))
		}
	}
	if o := c.RequesterVpcInfo.PeeringOptions; o != nil {
		f["requesterDns"] = strconv.FormatBool(aws.ToBool(o.AllowDnsResolutionFromRemoteVpc))
	}
	return f
}

// vpcPeeringSteps is the sequence both sides run: a request, its filters, acceptance, a route
// through it, options, a rejected and an overlapping request, errors and deletion. settle waits
// out the emulator's lifecycle transition (moto has none).
func vpcPeeringSteps(settle func()) []step[*peeringNetwork] {
	ctx := context.Background()
	describe := func(n *peeringNetwork, id string) outcome {
		settle()
		out, err := n.ec2.DescribeVpcPeeringConnections(ctx, &ec2.DescribeVpcPeeringConnectionsInput{VpcPeeringConnectionIds: []string{id}})
		if err != nil || len(out.VpcPeeringConnections) != 1 {
			return observe(err, nil)
		}
		return observe(nil, peeringFields(n, out.VpcPeeringConnections[0]))
	}
	count := func(n *peeringNetwork, filters ...types.Filter) outcome {
		out, err := n.ec2.DescribeVpcPeeringConnections(ctx, &ec2.DescribeVpcPeeringConnectionsInput{Filters: filters})
		if err != nil {
			return observe(err, nil)
		}
		return observe(nil, map[string]string{"count": strconv.Itoa(len(out.VpcPeeringConnections))})
	}
	request := func(n *peeringNetwork, peer string, id *string) outcome {
		out, err := n.ec2.CreateVpcPeeringConnection(ctx, &ec2.CreateVpcPeeringConnectionInput{VpcId: aws.String(n.a), PeerVpcId: aws.String(peer),
			TagSpecifications: []types.TagSpecification{{ResourceType: types.ResourceTypeVpcPeeringConnection, Tags: []types.Tag{{Key: aws.String("Name"), Value: aws.String("a-b")}}}}})
		if err != nil {
			return observe(err, nil)
		}
		*id = aws.ToString(out.VpcPeeringConnection.VpcPeeringConnectionId)
		return observe(nil, peeringFields(n, *out.VpcPeeringConnection))
	}
	dns := func(n *peeringNetwork) outcome {
		out, err := n.ec2.ModifyVpcPeeringConnectionOptions(ctx, &ec2.ModifyVpcPeeringConnectionOptionsInput{VpcPeeringConnectionId: aws.String(n.pcx),
			RequesterPeeringConnectionOptions: &types.PeeringConnectionOptionsRequest{AllowDnsResolutionFromRemoteVpc: aws.Bool(true)},
			AccepterPeeringConnectionOptions:  &types.PeeringConnectionOptionsRequest{AllowDnsResolutionFromRemoteVpc: aws.Bool(true)}})
		if err != nil {
			return observe(err, nil)
		}
		return observe(nil, map[string]string{"requesterDns": strconv.FormatBool(aws.ToBool(out.RequesterPeeringConnectionOptions.AllowDnsResolutionFromRemoteVpc)),
			"accepterDns": strconv.FormatBool(aws.ToBool(out.AccepterPeeringConnectionOptions.AllowDnsResolutionFromRemoteVpc))})
	}
	return []step[*peeringNetwork]{
		{"Network", func(n *peeringNetwork) outcome {
			for _, v := range []struct {
				cidr string
				id   *string
			}{{"10.0.0.0/16", &n.a}, {"10.1.0.0/16", &n.b}, {"10.0.128.0/17", &n.overlapping}} {
				out, err := n.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String(v.cidr)})
				if err != nil {
					return observe(err, nil)
				}
				*v.id = aws.ToString(out.Vpc.VpcId)
			}
			out, err := n.ec2.DescribeRouteTables(ctx, &ec2.DescribeRouteTablesInput{Filters: []types.Filter{
				{Name: aws.String("vpc-id"), Values: []string{n.a}}, {Name: aws.String("association.main"), Values: []string{"true"}}}})
			if err != nil || len(out.RouteTables) != 1 {
				return observe(err, nil)
			}
			n.table = aws.ToString(out.RouteTables[0].RouteTableId)
			return observe(nil, nil)
		}},
		{"Request", func(n *peeringNetwork) outcome { return request(n, n.b, &n.pcx) }},
		{"DescribePending", func(n *peeringNetwork) outcome { return describe(n, n.pcx) }},
		{"FilterStatus", func(n *peeringNetwork) outcome {
			return count(n, types.Filter{Name: aws.String("status-code"), Values: []string{"pending-acceptance"}})
		}},
		{"FilterRequesterVpc", func(n *peeringNetwork) outcome {
			return count(n, types.Filter{Name: aws.String("requester-vpc-info.vpc-id"), Values: []string{n.a}})
		}},
		{"FilterAccepterVpc", func(n *peeringNetwork) outcome {
			return count(n, types.Filter{Name: aws.String("accepter-vpc-info.vpc-id"), Values: []string{n.b}})
		}},
		{"FilterTag", func(n *peeringNetwork) outcome {
			return count(n, types.Filter{Name: aws.String("tag:Name"), Values: []string{"a-b"}})
		}},
		{"OptionsWhilePending", dns},
		{"Accept", func(n *peeringNetwork) outcome {
			out, err := n.ec2.AcceptVpcPeeringConnection(ctx, &ec2.AcceptVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(n.pcx)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": string(out.VpcPeeringConnection.Status.Code)})
		}},
		{"DescribeActive", func(n *peeringNetwork) outcome { return describe(n, n.pcx) }},
		{"AcceptAgain", func(n *peeringNetwork) outcome {
			_, err := n.ec2.AcceptVpcPeeringConnection(ctx, &ec2.AcceptVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(n.pcx)})
			return observe(err, nil)
		}},
		{"RouteThrough", func(n *peeringNetwork) outcome {
			_, err := n.ec2.CreateRoute(ctx, &ec2.CreateRouteInput{RouteTableId: aws.String(n.table), DestinationCidrBlock: aws.String("10.1.0.0/16"),
				VpcPeeringConnectionId: aws.String(n.pcx)})
			return observe(err, nil)
		}},
		{"Options", dns},
		{"DescribeOptions", func(n *peeringNetwork) outcome { return describe(n, n.pcx) }},
		{"RequestOverlapping", func(n *peeringNetwork) outcome { return request(n, n.overlapping, &n.overlap) }},
		{"DescribeOverlapping", func(n *peeringNetwork) outcome { return describe(n, n.overlap) }},
		{"RequestToReject", func(n *peeringNetwork) outcome { return request(n, n.b, &n.refused) }},
		{"Reject", func(n *peeringNetwork) outcome {
			settle()
			_, err := n.ec2.RejectVpcPeeringConnection(ctx, &ec2.RejectVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(n.refused)})
			return observe(err, nil)
		}},
		{"DescribeRejected", func(n *peeringNetwork) outcome { return describe(n, n.refused) }},
		{"DescribeUnknown", func(n *peeringNetwork) outcome { return describe(n, "pcx-0123456789abcdef0") }},
		{"Delete", func(n *peeringNetwork) outcome {
			_, err := n.ec2.DeleteVpcPeeringConnection(ctx, &ec2.DeleteVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(n.pcx)})
			return observe(err, nil)
		}},
		{"DescribeDeleted", func(n *peeringNetwork) outcome { return describe(n, n.pcx) }},
		{"DeleteAgain", func(n *peeringNetwork) outcome {
			_, err := n.ec2.DeleteVpcPeeringConnection(ctx, &ec2.DeleteVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(n.pcx)})
			return observe(err, nil)
		}},
	}
}

// TestVpcPeeringAgainstMoto compares VPC peering connections within one account with moto's
// (moto gives every access key one account, so the cross-account rules are checked in
// emulator/ec2_vpcpeering_test.go only).
func TestVpcPeeringAgainstMoto(t *testing.T) {
	const cidrsEarly = "moto shows the CIDR blocks and options of a connection that is not active; AWS only of an active one (VpcPeeringConnection, API reference)"
	peerURL := motoPeer(t)
	const transition = 20 * time.Millisecond
	emu := httptest.NewServer(emulator.New(emulator.Options{Transitions: map[string]time.Duration{"EC2": transition}}))
	t.Cleanup(emu.Close)
	emuSide := &peeringNetwork{ec2: ec2.NewFromConfig(sdkConfig(t, emu.URL))}
	peerSide := &peeringNetwork{ec2: ec2.NewFromConfig(sdkConfig(t, peerURL))}
	compare(t, emuSide, peerSide, "moto "+motoVersion, vpcPeeringSteps(func() { time.Sleep(2 * transition) }), map[string]string{
		"Request":             cidrsEarly,
		"DescribePending":     cidrsEarly,
		"RequestToReject":     cidrsEarly,
		"DescribeRejected":    cidrsEarly,
		"RequestOverlapping":  cidrsEarly,
		"OptionsWhilePending": "moto sets the options of a connection still pending acceptance; the emulator sets them once it is active, as the console does",
		"DescribeActive":      "moto kept the options it set while the connection was pending",
		"Accept":              "moto answers active at once; AWS goes through provisioning (VPC peering connection lifecycle), which the emulator keeps for the transition",
		"DescribeOverlapping": "moto does not check CIDR blocks: it leaves a request between overlapping VPCs pending; AWS fails it (CreateVpcPeeringConnection)",
		"DescribeUnknown":     "moto answers an empty list for an unknown id; AWS answers InvalidVpcPeeringConnectionID.NotFound",
		"DeleteAgain":         "moto deletes a deleted connection again; AWS answers InvalidStateTransition (attempted to transition from deleted to deleting)",
	})
}
