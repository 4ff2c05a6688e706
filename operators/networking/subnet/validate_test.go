package subnet

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// reasonOf returns the reason of a terminal error, or "" for none.
func reasonOf(err error) string {
	if err == nil {
		return ""
	}
	if t := (*managed.TerminalError)(nil); errors.As(err, &t) {
		return t.Reason
	}
	return "not terminal: " + err.Error()
}

// TestCheckZone checks which availability zones checkZone finds outside the provider's region.
func TestCheckZone(t *testing.T) {
	type args struct{ zone, region string }
	cases := map[string]struct {
		reason string
		args   args
		want   string
	}{
		"SameRegion":   {reason: "A zone of the provider's region is fine.", args: args{"us-east-1a", "us-east-1"}},
		"GovRegion":    {reason: "GovCloud zones are their region and a letter too.", args: args{"us-gov-west-1b", "us-gov-west-1"}},
		"NoZone":       {reason: "Without a zone AWS chooses one.", args: args{"", "us-east-1"}},
		"OtherRegion":  {reason: "A zone of another region is refused.", args: args{"eu-west-1a", "us-east-1"}, want: condition.ReasonInvalidSpec},
		"LongerNumber": {reason: "us-east-10a would belong to us-east-10, not us-east-1.", args: args{"us-east-10a", "us-east-1"}, want: condition.ReasonInvalidSpec},
		"RegionOnly":   {reason: "A region is not a zone.", args: args{"us-east-1", "us-east-1"}, want: condition.ReasonInvalidSpec},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, reasonOf(checkZone(tc.args.zone, tc.args.region))); diff != "" {
				t.Errorf("%s\ncheckZone(%q, %q) -want +got:\n%s", tc.reason, tc.args.zone, tc.args.region, diff)
			}
		})
	}
}

// TestCheckCIDR checks which subnet CIDR blocks checkCIDR finds outside the VPC's blocks.
func TestCheckCIDR(t *testing.T) {
	type args struct {
		cidr   string
		blocks []string
	}
	cases := map[string]struct {
		reason string
		args   args
		want   string
	}{
		"Inside":          {reason: "A /24 in the VPC's /16 is fine.", args: args{"10.0.1.0/24", []string{"10.0.0.0/16"}}},
		"WholeBlock":      {reason: "A subnet may take the whole block.", args: args{"10.0.0.0/16", []string{"10.0.0.0/16"}}},
		"SecondaryBlock":  {reason: "A subnet in a secondary block is fine.", args: args{"100.64.3.0/24", []string{"10.0.0.0/16", "100.64.0.0/16"}}},
		"Outside":         {reason: "A range of another network is refused.", args: args{"10.1.0.0/24", []string{"10.0.0.0/16"}}, want: condition.ReasonInvalidSpec},
		"LargerThanBlock": {reason: "A range larger than the block, though starting in it, is refused.", args: args{"10.0.0.0/15", []string{"10.0.0.0/16"}}, want: condition.ReasonInvalidSpec},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, reasonOf(checkCIDR(tc.args.cidr, "vpc-1", tc.args.blocks))); diff != "" {
				t.Errorf("%s\ncheckCIDR(%q, %v) -want +got:\n%s", tc.reason, tc.args.cidr, tc.args.blocks, diff)
			}
		})
	}
}

// TestVPCBlocks checks that a VPC's IPv4 blocks are its primary block and its associated ones.
func TestVPCBlocks(t *testing.T) {
	assoc := func(cidr string, state types.VpcCidrBlockStateCode) types.VpcCidrBlockAssociation {
		return types.VpcCidrBlockAssociation{CidrBlock: aws.String(cidr), CidrBlockState: &types.VpcCidrBlockState{State: state}}
	}
	v := types.Vpc{CidrBlock: aws.String("10.0.0.0/16"), CidrBlockAssociationSet: []types.VpcCidrBlockAssociation{
		assoc("10.0.0.0/16", types.VpcCidrBlockStateCodeAssociated),
		assoc("100.64.0.0/16", types.VpcCidrBlockStateCodeAssociated),
		assoc("172.16.0.0/16", types.VpcCidrBlockStateCodeDisassociated),
	}}
	if diff := cmp.Diff([]string{"10.0.0.0/16", "100.64.0.0/16"}, vpcBlocks(v)); diff != "" {
		t.Errorf("vpcBlocks -want +got:\n%s", diff)
	}
}
