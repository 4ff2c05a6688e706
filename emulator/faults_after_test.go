package emulator_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestErrorAfterRate checks the fault that fails a call after doing it: the caller gets HTTP
// 500 InternalFailure although the VPC was created, and the SDK's retry of the lost answer
// creates a second one; ErrorRate, by contrast, fails the call before it is done.
func TestErrorAfterRate(t *testing.T) {
	ctx := context.Background()
	type result struct {
		Code     string
		VPCs     int
		Attempts map[string]int
	}
	cases := map[string]struct {
		reason   string
		fault    emulator.Fault
		attempts int
		want     result
	}{
		"ErrorBefore": {
			reason:   "ErrorRate answers 500 without doing the call.",
			fault:    emulator.Fault{ErrorRate: 1},
			attempts: 1,
			want:     result{Code: "InternalFailure", Attempts: map[string]int{"InternalFailure": 1}},
		},
		"ErrorAfter": {
			reason:   "ErrorAfterRate does the call, then answers 500.",
			fault:    emulator.Fault{ErrorAfterRate: 1},
			attempts: 1,
			want:     result{Code: "InternalFailure", VPCs: 1, Attempts: map[string]int{"InternalFailure": 1}},
		},
		"ErrorAfterRetried": {
			reason:   "The SDK retries the lost answer, and each attempt creates a VPC.",
			fault:    emulator.Fault{ErrorAfterRate: 1},
			attempts: 2,
			want:     result{Code: "InternalFailure", VPCs: 2, Attempts: map[string]int{"InternalFailure": 2}},
		},
		"NoFault": {
			reason:   "Without a fault the call is done and answered.",
			attempts: 1,
			want:     result{VPCs: 1, Attempts: map[string]int{"success": 1}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, url := start(t, emulator.Options{Faults: map[string]emulator.Fault{"EC2.CreateVpc": tc.fault}})
			c := ec2.NewFromConfig(sdkConfig(t, url, "AKID", tc.attempts))
			_, err := c.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.0.0.0/16")})
			got := result{Code: errorCode(err), Attempts: e.Calls.Snapshot()["EC2"]["CreateVpc"]}
			// The account's default VPC is not one of the created ones.
			out, err := c.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{Filters: []types.Filter{filter("is-default", "false")}})
			if err != nil {
				t.Fatal(err)
			}
			got.VPCs = len(out.Vpcs)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestFaultsSeed checks that seeded faults roll the same sequence every time, so that a run
// with faults can be repeated, and that another seed rolls another sequence.
func TestFaultsSeed(t *testing.T) {
	rolls := func(seed uint64) []bool {
		e := emulator.New(emulator.Options{})
		e.Faults.Seed(seed)
		out := make([]bool, 64)
		for i := range out {
			out[i] = e.Faults.Roll(0.5)
		}
		return out
	}
	if diff := cmp.Diff(rolls(7), rolls(7)); diff != "" {
		t.Errorf("one seed rolled two sequences\n-first +second:\n%s", diff)
	}
	if cmp.Equal(rolls(7), rolls(8)) {
		t.Error("seeds 7 and 8 rolled the same sequence")
	}
}
