package vpcpeeringconnection

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// connection is an active connection from account a to account b with each side's DNS option.
func connection(a, b string, requesterDNS, accepterDNS bool) types.VpcPeeringConnection {
	side := func(owner, vpc string, dns bool) *types.VpcPeeringConnectionVpcInfo {
		return &types.VpcPeeringConnectionVpcInfo{OwnerId: aws.String(owner), VpcId: aws.String(vpc),
			PeeringOptions: &types.VpcPeeringConnectionOptionsDescription{AllowDnsResolutionFromRemoteVpc: aws.Bool(dns)}}
	}
	return types.VpcPeeringConnection{VpcPeeringConnectionId: aws.String("pcx-0123456789abcdef0"), RequesterVpcInfo: side(a, "vpc-a", requesterDNS),
		AccepterVpcInfo: side(b, "vpc-b", accepterDNS), Status: &types.VpcPeeringConnectionStateReason{Code: types.VpcPeeringConnectionStateReasonCodeActive}}
}

func TestPlanOptions(t *testing.T) {
	on := &v1alpha1.VPCPeeringOptions{AllowDNSResolutionFromRemoteVPC: aws.Bool(true)}
	cases := map[string]struct {
		reason string
		spec   v1alpha1.VPCPeeringConnectionSpec
		c      types.VpcPeeringConnection
		want   []string
	}{
		"InLine": {reason: "Options as the spec wants them plan nothing.", spec: v1alpha1.VPCPeeringConnectionSpec{RequesterOptions: on},
			c: connection("111111111111", "111111111111", true, false)},
		"UnsetIsFalse": {reason: "An option the spec leaves out is turned off.", c: connection("111111111111", "111111111111", true, false),
			want: []string{"requesterOptions.allowDNSResolutionFromRemoteVPC"}},
		"BothSidesOneAccount": {reason: "Within one account both sides are set.", spec: v1alpha1.VPCPeeringConnectionSpec{RequesterOptions: on, AccepterOptions: on},
			c:    connection("111111111111", "111111111111", false, false),
			want: []string{"requesterOptions.allowDNSResolutionFromRemoteVPC", "accepterOptions.allowDNSResolutionFromRemoteVPC"}},
		"OtherAccountsSide": {reason: "Another account's side is its owner's without accepterProviderRef.", spec: v1alpha1.VPCPeeringConnectionSpec{PeerOwnerID: "222222222222"},
			c: connection("111111111111", "222222222222", false, true)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := &v1alpha1.VPCPeeringConnection{Spec: tc.spec}
			o.Spec.ProviderRef = shared.ProviderReference{Name: "aws"}
			var p managed.Plan
			if err := (&driver{}).planOptions(context.Background(), &p, o, tc.c); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, p.Fields()); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
