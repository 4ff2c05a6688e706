package compute_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestEC2InstanceReadAfterCreateDelay hides each new instance from EC2's reads for 3s after
// RunInstances succeeded, as EC2's eventual consistency can (DescribeInstances answers
// InvalidInstanceID.NotFound right after a successful launch): the operator reads the instance
// while it is hidden, and the object still becomes Ready, with exactly one instance in AWS.
func TestEC2InstanceReadAfterCreateDelay(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	subnet, _ := h.network(t, "10.6.0.0/16", "10.6.1.0/24")
	const delay = 3 * time.Second
	h.emu.Faults.Set("EC2.RunInstances", emulator.Fault{ReadAfterCreateDelay: emulator.Duration(delay)})
	t.Cleanup(func() { h.emu.Faults.Set("EC2.RunInstances", emulator.Fault{}) })
	o := newInstance(ns, "lagging", subnet, nil)
	kubetest.Create(t, h.c, o)
	o = kubetest.WaitReady(t, h.c, o)
	time.Sleep(delay) // whatever the operator launched is visible by now
	out, err := h.ec2.DescribeInstances(context.Background(), &ec2.DescribeInstancesInput{Filters: []types.Filter{
		{Name: aws.String("tag:" + shared.TagOwnerUID), Values: []string{string(o.UID)}}}})
	if err != nil {
		t.Fatal(err)
	}
	if calls := h.emu.Calls.Snapshot()["EC2"]; calls["DescribeInstances"]["InvalidInstanceID.NotFound"] == 0 {
		t.Errorf("no read found the instance hidden, so the delay was not exercised: %v", calls)
	}
	var ids []string
	for _, r := range out.Reservations {
		for _, i := range r.Instances {
			ids = append(ids, aws.ToString(i.InstanceId))
		}
	}
	if len(ids) != 1 || ids[0] != o.Status.InstanceID {
		t.Errorf("instances carrying the object's ownership tag: %v, want only the recorded %s", ids, o.Status.InstanceID)
	}
}
