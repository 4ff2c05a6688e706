package networking_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestVPCReadAfterCreateDelay hides each new VPC from EC2's reads for 3s after CreateVpc
// succeeded, as EC2's eventual consistency can (DescribeVpcs answers InvalidVpcID.NotFound right
// after a successful create): the operator reads the VPC while it is hidden, and the object
// still becomes Ready, with exactly one VPC in AWS; CreateVpc, which has no client token, is
// called once.
func TestVPCReadAfterCreateDelay(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	const delay = 3 * time.Second
	h.emu.Faults.Set("EC2.CreateVpc", emulator.Fault{ReadAfterCreateDelay: emulator.Duration(delay)})
	t.Cleanup(func() { h.emu.Faults.Set("EC2.CreateVpc", emulator.Fault{}) })
	vpc := h.readyVPC(t, ns, "lagging", "10.42.0.0/16")
	time.Sleep(delay) // whatever the operator created is visible by now
	out, err := h.ec2.DescribeVpcs(context.Background(), &ec2.DescribeVpcsInput{Filters: ownerFilter(string(vpc.UID))})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range out.Vpcs {
		ids = append(ids, aws.ToString(v.VpcId))
	}
	if len(ids) != 1 || ids[0] != vpc.Status.VPCID {
		t.Errorf("VPCs carrying the object's ownership tag: %v, want only the recorded %s", ids, vpc.Status.VPCID)
	}
	calls := h.emu.Calls.Snapshot()["EC2"]
	if calls["DescribeVpcs"]["InvalidVpcID.NotFound"] == 0 {
		t.Errorf("no read found the VPC hidden, so the delay was not exercised: %v", calls)
	}
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")["CreateVpc"]; n != 1 {
		t.Errorf("CreateVpc called %d times, want 1", n)
	}
}
