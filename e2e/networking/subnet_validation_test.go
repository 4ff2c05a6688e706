package networking_test

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestSubnetPlacementRefusedBeforeCreate checks that a subnet outside its VPC's CIDR block or in
// a zone of another region than the provider's stops with InvalidSpec before CreateSubnet is
// called, with a message saying what to do, and that correcting the spec creates it.
func TestSubnetPlacementRefusedBeforeCreate(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws") // the test providers are in us-east-1
	vpc := &v1alpha1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "net"}}
	vpc.Spec.ProviderRef.Name, vpc.Spec.CIDRBlock = "aws", "10.1.0.0/16"
	kubetest.Create(t, h.c, vpc)
	vpc = kubetest.WaitReady(t, h.c, vpc)
	h.emu.Calls.Reset()

	newSubnet := func(name, cidr, zone string) *v1alpha1.Subnet {
		s := &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		s.Spec.ProviderRef.Name, s.Spec.VPCRef, s.Spec.CIDRBlock, s.Spec.AvailabilityZone = "aws", &shared.Reference{Name: "net"}, cidr, zone
		return s
	}
	for name, tc := range map[string]struct {
		subnet *v1alpha1.Subnet
		want   string
	}{
		"outside": {newSubnet("outside", "10.2.0.0/24", ""), "cidrBlock 10.2.0.0/24 is outside VPC " + vpc.Status.VPCID + ", whose IPv4 CIDR blocks are 10.1.0.0/16; choose a range inside one of them"},
		"zone":    {newSubnet("zone", "10.1.2.0/24", "eu-west-1a"), "availabilityZone eu-west-1a is not in region us-east-1, the region of the AWSProvider"},
	} {
		t.Run(name, func(t *testing.T) {
			kubetest.Create(t, h.c, tc.subnet)
			got := kubetest.WaitCondition(t, h.c, tc.subnet, "Synced", "False", condition.ReasonInvalidSpec)
			if c := findCondition(got.Status.Conditions, "Synced"); !strings.Contains(c.Message, tc.want) {
				t.Errorf("the condition says %q, want it to hold %q", c.Message, tc.want)
			}
		})
	}
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")["CreateSubnet"]; n != 0 {
		t.Errorf("%d CreateSubnet calls for subnets AWS refuses, want none", n)
	}

	// The CIDR block can be corrected until the subnet exists; then it is created.
	outside := &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "outside"}}
	kubetest.Update(t, h.c, outside, func(s *v1alpha1.Subnet) { s.Spec.CIDRBlock = "10.1.3.0/24" })
	kubetest.WaitReady(t, h.c, outside)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "EC2")["CreateSubnet"]; n != 1 {
		t.Errorf("%d CreateSubnet calls after the CIDR block was corrected, want 1", n)
	}
}
