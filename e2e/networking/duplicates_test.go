package networking_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestDuplicateResourcesWarned checks that a create whose answer is lost makes no second
// resource, and what the operator does with several AWS resources that carry one object's
// ownership tag. Elastic IPs whose allocation answers are all lost (AWS allocated, then
// answered 500): the SDK does not retry the allocation and the object finds its one address by
// its tag. Addresses added with its tag while it has no recorded id: the object takes the
// lowest allocation id and a Warning event names the others. A VPC copied outside the operator
// with its ownership tag: the object keeps its recorded VPC and the copies are named.
func TestDuplicateResourcesWarned(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()

	h.emu.Faults.Set("EC2.AllocateAddress", emulator.Fault{ErrorAfterRate: 1})
	eip := &v1alpha1.ElasticIP{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "lost"}}
	eip.Spec.ProviderRef.Name = "aws"
	kubetest.Create(t, h.c, eip)
	eip = kubetest.WaitReady(t, h.c, eip)
	h.emu.Faults.Set("EC2.AllocateAddress", emulator.Fault{})
	owned := func() []string {
		out, err := h.ec2.DescribeAddresses(ctx, &ec2.DescribeAddressesInput{Filters: ownerFilter(string(eip.UID))})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, a := range out.Addresses {
			ids = append(ids, aws.ToString(a.AllocationId))
		}
		slices.Sort(ids)
		return ids
	}
	if ids := owned(); len(ids) != 1 || ids[0] != eip.Status.AllocationID {
		t.Fatalf("lost allocation answers left the addresses %v, the object records %s; want exactly that one", ids, eip.Status.AllocationID)
	}

	for range 2 {
		if _, err := h.ec2.AllocateAddress(ctx, &ec2.AllocateAddressInput{TagSpecifications: []types.TagSpecification{{
			ResourceType: types.ResourceTypeElasticIp, Tags: []types.Tag{{Key: aws.String(shared.TagOwnerUID), Value: aws.String(string(eip.UID))}}}}}); err != nil {
			t.Fatal(err)
		}
	}
	ids := owned()
	kubetest.Update(t, h.c, eip, func(e *v1alpha1.ElasticIP) { delete(e.Annotations, shared.AnnotationExternalName) })
	kubetest.ResyncUntil(t, h.c, eip, "a DuplicateResources event", func() bool {
		return len(kubetest.Events(t, h.c, eip, condition.ReasonDuplicateResources)) > 0
	})
	wantWarning(t, h, eip, "this object manages Elastic IP "+ids[0]+" only", ids[1:])
	if got := kubetest.WaitReady(t, h.c, eip); got.Status.AllocationID != ids[0] {
		t.Errorf("the object took %s; want the lowest allocation id of %v", got.Status.AllocationID, ids)
	}

	vpc := h.readyVPC(t, ns, "copied", "10.40.0.0/16")
	var copies []string
	for range 2 {
		c, err := h.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.40.0.0/16"), TagSpecifications: []types.TagSpecification{{
			ResourceType: types.ResourceTypeVpc, Tags: []types.Tag{{Key: aws.String(shared.TagOwnerUID), Value: aws.String(string(vpc.UID))}}}}})
		if err != nil {
			t.Fatal(err)
		}
		copies = append(copies, aws.ToString(c.Vpc.VpcId))
	}
	slices.Sort(copies)
	kubetest.ResyncUntil(t, h.c, vpc, "a DuplicateResources event", func() bool {
		return len(kubetest.Events(t, h.c, vpc, condition.ReasonDuplicateResources)) > 0
	})
	wantWarning(t, h, vpc, "this object manages VPC "+vpc.Status.VPCID+" only", copies)
	if got := kubetest.WaitReady(t, h.c, vpc); got.Status.VPCID != vpc.Status.VPCID {
		t.Errorf("the object moved from its VPC %s to %s", vpc.Status.VPCID, got.Status.VPCID)
	}
}

// wantWarning checks that o has a DuplicateResources event that says which resource it manages
// and names every duplicate.
func wantWarning(t *testing.T, h *harness, o shared.Managed, manages string, duplicates []string) {
	t.Helper()
	kubetest.WaitEvent(t, h.c, o, condition.ReasonDuplicateResources, manages)
	for _, msg := range kubetest.Events(t, h.c, o, condition.ReasonDuplicateResources) {
		if strings.Contains(msg, manages) && strings.Contains(msg, strings.Join(duplicates, ", ")) {
			return
		}
	}
	t.Errorf("%s: no DuplicateResources event names %v: %v", o.GetName(), duplicates, kubetest.Events(t, h.c, o, condition.ReasonDuplicateResources))
}

// ownerFilter selects the EC2 resources whose ownership tag names uid.
func ownerFilter(uid string) []types.Filter {
	return []types.Filter{{Name: aws.String("tag:" + shared.TagOwnerUID), Values: []string{uid}}}
}
