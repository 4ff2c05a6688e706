// Package vpcpeeringconnection manages VPC peering connections for the VPCPeeringConnection
// kind: the request from the requester VPC, its acceptance (by the requester's account for a
// peer of the same account, through accepterProviderRef's account otherwise), both sides' DNS
// resolution options and the requester side's tags. CreateVpcPeeringConnection takes no
// idempotency token: the id is recorded the moment AWS answers, and a connection whose answer
// was lost is found again by its ownership tags.
package vpcpeeringconnection

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the VPCPeeringConnection kind to the engine, which fills, in memory, the
// requester VPC's id from vpcRef and the peer VPC's from peerVPCRef. The peer VPC reference
// writes: accepting the connection joins the peer VPC's routing domain, so an ObserveOnly VPC
// makes the connection wait.
func Kind() managed.Kind[*v1alpha1.VPCPeeringConnection, State] {
	return managed.Kind[*v1alpha1.VPCPeeringConnection, State]{
		// A new request is initiating-request for a moment (1s in the emulator).
		ReadyIn: time.Second,
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.VPCPeeringConnection) managed.Driver[*v1alpha1.VPCPeeringConnection, State] {
			api := ec2util.Client(s)
			return &driver{api: api, connections: connections(api).For(s)}
		},
		References: []managed.Ref[*v1alpha1.VPCPeeringConnection]{
			managed.One(targets.VPC, "spec.vpcRef", func(c *v1alpha1.VPCPeeringConnection) (*shared.Reference, *string) {
				return c.Spec.VPCRef, &c.Spec.VPCID
			}),
			managed.One(targets.VPC, "spec.peerVPCRef", func(c *v1alpha1.VPCPeeringConnection) (*shared.Reference, *string) {
				return c.Spec.PeerVPCRef, &c.Spec.PeerVPCID
			}).Writing(),
		},
	}
}

// connections reads VPC peering connections, 1000 a page. A connection that ended stays
// visible for a while; among several with one owner, Find picks one that has not ended.
func connections(api *ec2.Client) ec2util.Describer[types.VpcPeeringConnection] {
	d := ec2util.VPCPeeringConnections(api)
	d.Gone = ended
	d.Choose = func(all []types.VpcPeeringConnection) types.VpcPeeringConnection {
		for _, c := range all {
			if !ended(c) {
				return c
			}
		}
		return all[0]
	}
	return d
}

// code returns the connection's status code.
func code(c types.VpcPeeringConnection) types.VpcPeeringConnectionStateReasonCode {
	if c.Status == nil {
		return ""
	}
	return c.Status.Code
}

// ended reports whether the connection is gone or going, or never came to be: deleting,
// deleted, failed, rejected or expired.
func ended(c types.VpcPeeringConnection) bool {
	switch code(c) {
	case types.VpcPeeringConnectionStateReasonCodeDeleting, types.VpcPeeringConnectionStateReasonCodeDeleted,
		types.VpcPeeringConnectionStateReasonCodeFailed, types.VpcPeeringConnectionStateReasonCodeRejected,
		types.VpcPeeringConnectionStateReasonCodeExpired:
		return true
	}
	return false
}

// sameAccount reports whether both VPCs of the connection belong to one account, whose
// provider then accepts the connection and sets both sides' options.
func sameAccount(c types.VpcPeeringConnection) bool {
	return c.AccepterVpcInfo != nil && c.RequesterVpcInfo != nil && aws.ToString(c.AccepterVpcInfo.OwnerId) == aws.ToString(c.RequesterVpcInfo.OwnerId)
}

// driver manages one provider's VPC peering connections.
type driver struct {
	api         *ec2.Client
	connections ec2util.Source[types.VpcPeeringConnection]
}
