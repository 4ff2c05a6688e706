package emulator_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// describePeering returns one connection as DescribeVpcPeeringConnections answers it to c.
func describePeering(t *testing.T, c *ec2.Client, id string) types.VpcPeeringConnection {
	t.Helper()
	out, err := c.DescribeVpcPeeringConnections(context.Background(), &ec2.DescribeVpcPeeringConnectionsInput{VpcPeeringConnectionIds: []string{id}})
	if err != nil || len(out.VpcPeeringConnections) != 1 {
		t.Fatalf("describe %s: %+v, %v", id, out, err)
	}
	return out.VpcPeeringConnections[0]
}

// peeringRoute returns the route of a table to dest, or nil.
func peeringRoute(t *testing.T, c *ec2.Client, table, dest string) *types.Route {
	t.Helper()
	out, err := c.DescribeRouteTables(context.Background(), &ec2.DescribeRouteTablesInput{RouteTableIds: []string{table}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range out.RouteTables[0].Routes {
		if aws.ToString(r.DestinationCidrBlock) == dest {
			return &r
		}
	}
	return nil
}

func TestEC2VPCPeeringSameAccount(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	a, b := createVpc(t, c, "10.1.0.0/16"), createVpc(t, c, "10.2.0.0/16")
	created, err := c.CreateVpcPeeringConnection(ctx, &ec2.CreateVpcPeeringConnectionInput{VpcId: aws.String(a), PeerVpcId: aws.String(b),
		TagSpecifications: nameTag(types.ResourceTypeVpcPeeringConnection, "a-b")})
	if err != nil {
		t.Fatal(err)
	}
	pcx := created.VpcPeeringConnection
	id := aws.ToString(pcx.VpcPeeringConnectionId)
	if pcx.Status.Code != types.VpcPeeringConnectionStateReasonCodeInitiatingRequest || aws.ToString(pcx.Status.Message) != "Initiating Request to 000000000000" ||
		pcx.AccepterVpcInfo.CidrBlock != nil || pcx.ExpirationTime == nil || len(pcx.Tags) != 1 {
		t.Errorf("a new request is initiating, without the accepter's CIDR block, with its expiry and tags: %+v", pcx)
	}
	// A route through a connection that is not active yet is accepted and a blackhole.
	tableA := aws.ToString(mainTable(t, c, a).RouteTableId)
	if _, err := c.CreateRoute(ctx, &ec2.CreateRouteInput{RouteTableId: aws.String(tableA), DestinationCidrBlock: aws.String("10.2.0.0/16"), VpcPeeringConnectionId: aws.String(id)}); err != nil {
		t.Fatalf("route through a pending connection: %v", err)
	}
	if r := peeringRoute(t, c, tableA, "10.2.0.0/16"); r == nil || r.State != types.RouteStateBlackhole || aws.ToString(r.VpcPeeringConnectionId) != id {
		t.Errorf("a route through a pending connection is a blackhole: %+v", r)
	}
	other := createVpc(t, c, "10.3.0.0/16")
	_, err = c.CreateRoute(ctx, &ec2.CreateRouteInput{RouteTableId: mainTable(t, c, other).RouteTableId, DestinationCidrBlock: aws.String("10.2.0.0/16"), VpcPeeringConnectionId: aws.String(id)})
	wantCode(t, "route of another VPC through the connection", err, "InvalidParameterValue")
	_, err = c.CreateRoute(ctx, &ec2.CreateRouteInput{RouteTableId: aws.String(tableA), DestinationCidrBlock: aws.String("10.9.0.0/16"), VpcPeeringConnectionId: aws.String("pcx-0123456789abcdef0")})
	wantCode(t, "route through an unknown connection", err, "InvalidVpcPeeringConnectionID.NotFound")

	_, err = c.AcceptVpcPeeringConnection(ctx, &ec2.AcceptVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(id)})
	wantCode(t, "accept while initiating", err, "InvalidStateTransition")
	e.Clock.Advance(2 * time.Second)
	got := describePeering(t, c, id)
	if got.Status.Code != types.VpcPeeringConnectionStateReasonCodePendingAcceptance || aws.ToString(got.Status.Message) != "Pending Acceptance by 000000000000" {
		t.Errorf("after the transition the request waits: %+v", got.Status)
	}
	_, err = c.ModifyVpcPeeringConnectionOptions(ctx, &ec2.ModifyVpcPeeringConnectionOptionsInput{VpcPeeringConnectionId: aws.String(id),
		RequesterPeeringConnectionOptions: &types.PeeringConnectionOptionsRequest{AllowDnsResolutionFromRemoteVpc: aws.Bool(true)}})
	wantCode(t, "options of a pending connection", err, "InvalidStateTransition")
	accepted, err := c.AcceptVpcPeeringConnection(ctx, &ec2.AcceptVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(id)})
	if err != nil || accepted.VpcPeeringConnection.Status.Code != types.VpcPeeringConnectionStateReasonCodeProvisioning {
		t.Fatalf("accept: %+v, %v", accepted, err)
	}
	e.Clock.Advance(2 * time.Second)
	got = describePeering(t, c, id)
	if got.Status.Code != types.VpcPeeringConnectionStateReasonCodeActive || aws.ToString(got.AccepterVpcInfo.CidrBlock) != "10.2.0.0/16" ||
		got.ExpirationTime != nil || got.RequesterVpcInfo.PeeringOptions == nil || aws.ToBool(got.RequesterVpcInfo.PeeringOptions.AllowDnsResolutionFromRemoteVpc) {
		t.Errorf("an active connection shows both CIDR blocks and its options: %+v", got)
	}
	if r := peeringRoute(t, c, tableA, "10.2.0.0/16"); r == nil || r.State != types.RouteStateActive {
		t.Errorf("the route is active once the connection is: %+v", r)
	}
	mod, err := c.ModifyVpcPeeringConnectionOptions(ctx, &ec2.ModifyVpcPeeringConnectionOptionsInput{VpcPeeringConnectionId: aws.String(id),
		RequesterPeeringConnectionOptions: &types.PeeringConnectionOptionsRequest{AllowDnsResolutionFromRemoteVpc: aws.Bool(true)},
		AccepterPeeringConnectionOptions:  &types.PeeringConnectionOptionsRequest{AllowDnsResolutionFromRemoteVpc: aws.Bool(true)}})
	if err != nil || !aws.ToBool(mod.RequesterPeeringConnectionOptions.AllowDnsResolutionFromRemoteVpc) || !aws.ToBool(mod.AccepterPeeringConnectionOptions.AllowDnsResolutionFromRemoteVpc) {
		t.Fatalf("both sides' options within one account: %+v, %v", mod, err)
	}
	if got := describePeering(t, c, id); !aws.ToBool(got.AccepterVpcInfo.PeeringOptions.AllowDnsResolutionFromRemoteVpc) {
		t.Errorf("the accepter's DNS option is on: %+v", got.AccepterVpcInfo.PeeringOptions)
	}

	for name, filters := range map[string][]types.Filter{
		"status-code":               {filter("status-code", "active")},
		"requester-vpc-info.vpc-id": {filter("requester-vpc-info.vpc-id", a)},
		"accepter-vpc-info.vpc-id":  {filter("accepter-vpc-info.vpc-id", b)},
		"tag:Name":                  {filter("tag:Name", "a-b")},
	} {
		out, err := c.DescribeVpcPeeringConnections(ctx, &ec2.DescribeVpcPeeringConnectionsInput{Filters: filters})
		if err != nil || len(out.VpcPeeringConnections) != 1 {
			t.Errorf("filter %s: %+v, %v", name, out, err)
		}
	}
	none, err := c.DescribeVpcPeeringConnections(ctx, &ec2.DescribeVpcPeeringConnectionsInput{Filters: []types.Filter{filter("status-code", "pending-acceptance")}})
	if err != nil || len(none.VpcPeeringConnections) != 0 {
		t.Errorf("no connection is pending: %+v, %v", none, err)
	}

	if _, err := c.DeleteVpcPeeringConnection(ctx, &ec2.DeleteVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(id)}); err != nil {
		t.Fatal(err)
	}
	if got := describePeering(t, c, id); got.Status.Code != types.VpcPeeringConnectionStateReasonCodeDeleting {
		t.Errorf("a connection being deleted is deleting: %+v", got.Status)
	}
	e.Clock.Advance(2 * time.Second)
	if got := describePeering(t, c, id); got.Status.Code != types.VpcPeeringConnectionStateReasonCodeDeleted || aws.ToString(got.Status.Message) != "Deleted by 000000000000" {
		t.Errorf("then deleted: %+v", got.Status)
	}
	if r := peeringRoute(t, c, tableA, "10.2.0.0/16"); r == nil || r.State != types.RouteStateBlackhole {
		t.Errorf("the route of a deleted connection is a blackhole: %+v", r)
	}
	_, err = c.DeleteVpcPeeringConnection(ctx, &ec2.DeleteVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(id)})
	wantCode(t, "delete a deleted connection", err, "InvalidStateTransition")
	e.Clock.Advance(3 * time.Hour)
	_, err = c.DescribeVpcPeeringConnections(ctx, &ec2.DescribeVpcPeeringConnectionsInput{VpcPeeringConnectionIds: []string{id}})
	wantCode(t, "describe a connection gone for hours", err, "InvalidVpcPeeringConnectionID.NotFound")
}

func TestEC2VPCPeeringFailsOnOverlapAndMissingPeer(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	a, b := createVpc(t, c, "10.1.0.0/16"), createVpc(t, c, "10.1.128.0/17")
	for name, peer := range map[string]string{"overlapping": b, "missing": "vpc-0123456789abcdef0"} {
		created, err := c.CreateVpcPeeringConnection(ctx, &ec2.CreateVpcPeeringConnectionInput{VpcId: aws.String(a), PeerVpcId: aws.String(peer)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		id := aws.ToString(created.VpcPeeringConnection.VpcPeeringConnectionId)
		e.Clock.Advance(2 * time.Second)
		got := describePeering(t, c, id)
		if got.Status.Code != types.VpcPeeringConnectionStateReasonCodeFailed ||
			aws.ToString(got.Status.Message) != "Failed due to incorrect VPC-ID, Account ID, or overlapping CIDR range" {
			t.Errorf("%s peer: failed with AWS's message: %+v", name, got.Status)
		}
		_, err = c.AcceptVpcPeeringConnection(ctx, &ec2.AcceptVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(id)})
		wantCode(t, name+": accept a failed connection", err, "InvalidStateTransition")
	}
	_, err := c.CreateVpcPeeringConnection(ctx, &ec2.CreateVpcPeeringConnectionInput{VpcId: aws.String("vpc-0123456789abcdef0"), PeerVpcId: aws.String(b)})
	wantCode(t, "an unknown requester VPC", err, "InvalidVpcID.NotFound")
	_, err = c.CreateVpcPeeringConnection(ctx, &ec2.CreateVpcPeeringConnectionInput{VpcId: aws.String(a)})
	wantCode(t, "no peer VPC", err, "MissingParameter")
}

func TestEC2VPCPeeringCrossAccount(t *testing.T) {
	e, url := start(t, emulator.Options{Accounts: map[string]string{"AKIDPEER": "222222222222", "AKIDTHIRD": "333333333333"}})
	e.Clock.Freeze()
	ctx := context.Background()
	requester := ec2.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	accepter := ec2.NewFromConfig(sdkConfig(t, url, "AKIDPEER", 1))
	a, b := createVpc(t, requester, "10.1.0.0/16"), createVpc(t, accepter, "10.2.0.0/16")
	created, err := requester.CreateVpcPeeringConnection(ctx, &ec2.CreateVpcPeeringConnectionInput{VpcId: aws.String(a), PeerVpcId: aws.String(b),
		PeerOwnerId: aws.String("222222222222"), TagSpecifications: nameTag(types.ResourceTypeVpcPeeringConnection, "requester-side")})
	if err != nil {
		t.Fatal(err)
	}
	id := aws.ToString(created.VpcPeeringConnection.VpcPeeringConnectionId)
	e.Clock.Advance(2 * time.Second)
	seen := describePeering(t, accepter, id)
	if seen.Status.Code != types.VpcPeeringConnectionStateReasonCodePendingAcceptance || len(seen.Tags) != 0 ||
		aws.ToString(seen.RequesterVpcInfo.OwnerId) != emulator.DefaultAccount || aws.ToString(seen.AccepterVpcInfo.OwnerId) != "222222222222" {
		t.Errorf("the accepter sees the request, without the requester's tags: %+v", seen)
	}
	if _, err := accepter.CreateTags(ctx, &ec2.CreateTagsInput{Resources: []string{id}, Tags: []types.Tag{{Key: aws.String("Name"), Value: aws.String("accepter-side")}}}); err != nil {
		t.Fatalf("the accepter tags its side: %v", err)
	}
	if got := describePeering(t, requester, id); len(got.Tags) != 1 || aws.ToString(got.Tags[0].Value) != "requester-side" {
		t.Errorf("each account keeps its own tags: %+v", got.Tags)
	}
	_, err = requester.AcceptVpcPeeringConnection(ctx, &ec2.AcceptVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(id)})
	wantCode(t, "the requester accepts", err, "OperationNotPermitted")
	_, err = requester.RejectVpcPeeringConnection(ctx, &ec2.RejectVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(id)})
	wantCode(t, "the requester rejects", err, "OperationNotPermitted")
	_, err = accepter.DeleteVpcPeeringConnection(ctx, &ec2.DeleteVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(id)})
	wantCode(t, "the accepter deletes a pending request", err, "OperationNotPermitted")
	if _, err := accepter.AcceptVpcPeeringConnection(ctx, &ec2.AcceptVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(id)}); err != nil {
		t.Fatalf("the accepter accepts: %v", err)
	}
	e.Clock.Advance(2 * time.Second)
	_, err = requester.ModifyVpcPeeringConnectionOptions(ctx, &ec2.ModifyVpcPeeringConnectionOptionsInput{VpcPeeringConnectionId: aws.String(id),
		AccepterPeeringConnectionOptions: &types.PeeringConnectionOptionsRequest{AllowDnsResolutionFromRemoteVpc: aws.Bool(true)}})
	wantCode(t, "the requester sets the accepter's options", err, "OperationNotPermitted")
	if _, err := accepter.ModifyVpcPeeringConnectionOptions(ctx, &ec2.ModifyVpcPeeringConnectionOptionsInput{VpcPeeringConnectionId: aws.String(id),
		AccepterPeeringConnectionOptions: &types.PeeringConnectionOptionsRequest{AllowDnsResolutionFromRemoteVpc: aws.Bool(true)}}); err != nil {
		t.Errorf("the accepter sets its options: %v", err)
	}
	got := describePeering(t, requester, id)
	if got.Status.Code != types.VpcPeeringConnectionStateReasonCodeActive || !aws.ToBool(got.AccepterVpcInfo.PeeringOptions.AllowDnsResolutionFromRemoteVpc) {
		t.Errorf("active, with the accepter's option: %+v", got)
	}
	// A third account sees nothing.
	third := ec2.NewFromConfig(sdkConfig(t, url, "AKIDTHIRD", 1))
	_, err = third.DescribeVpcPeeringConnections(ctx, &ec2.DescribeVpcPeeringConnectionsInput{VpcPeeringConnectionIds: []string{id}})
	wantCode(t, "a third account describes the connection", err, "InvalidVpcPeeringConnectionID.NotFound")

	// A second request, rejected by the accepter.
	second, err := requester.CreateVpcPeeringConnection(ctx, &ec2.CreateVpcPeeringConnectionInput{VpcId: aws.String(a), PeerVpcId: aws.String(b), PeerOwnerId: aws.String("222222222222")})
	if err != nil {
		t.Fatal(err)
	}
	sid := aws.ToString(second.VpcPeeringConnection.VpcPeeringConnectionId)
	e.Clock.Advance(2 * time.Second)
	if _, err := accepter.RejectVpcPeeringConnection(ctx, &ec2.RejectVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(sid)}); err != nil {
		t.Fatal(err)
	}
	if got := describePeering(t, requester, sid); got.Status.Code != types.VpcPeeringConnectionStateReasonCodeRejected || aws.ToString(got.Status.Message) != "Rejected by 222222222222" {
		t.Errorf("rejected: %+v", got.Status)
	}
	// A third, left unanswered for a week, expires.
	third2, err := requester.CreateVpcPeeringConnection(ctx, &ec2.CreateVpcPeeringConnectionInput{VpcId: aws.String(a), PeerVpcId: aws.String(b), PeerOwnerId: aws.String("222222222222")})
	if err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(7*24*time.Hour + time.Second)
	if got := describePeering(t, accepter, aws.ToString(third2.VpcPeeringConnection.VpcPeeringConnectionId)); got.Status.Code != types.VpcPeeringConnectionStateReasonCodeExpired {
		t.Errorf("expired after 7 days: %+v", got.Status)
	}
	// Deleting the accepter's VPC deletes the active connection.
	if _, err := accepter.DeleteVpc(ctx, &ec2.DeleteVpcInput{VpcId: aws.String(b)}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Second)
	if got := describePeering(t, requester, id); got.Status.Code != types.VpcPeeringConnectionStateReasonCodeDeleted || aws.ToString(got.Status.Message) != "Deleted by 222222222222" {
		t.Errorf("a deleted VPC takes its connection: %+v", got.Status)
	}
}
