package lambdaeventsourcemapping

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
)

func TestSameFunction(t *testing.T) {
	const arn = "arn:aws:lambda:us-east-1:123456789012:function:worker"
	cases := map[string]struct {
		reason string
		arn    string
		name   string
		want   bool
	}{
		"Name":         {reason: "A plain name is the function of that name.", arn: arn, name: "worker", want: true},
		"FullARN":      {reason: "A full ARN must be AWS's.", arn: arn, name: arn, want: true},
		"PartialARN":   {reason: "A partial ARN names the function after function:.", arn: arn, name: "123456789012:function:worker", want: true},
		"OtherName":    {reason: "Another name is another function.", arn: arn, name: "other", want: false},
		"Qualified":    {reason: "An alias is part of the name.", arn: arn + ":live", name: "worker:live", want: true},
		"Unqualified":  {reason: "A qualified mapping is not the unqualified function's.", arn: arn + ":live", name: "worker", want: false},
		"OtherAccount": {reason: "A full ARN of another account differs.", arn: arn, name: "arn:aws:lambda:us-east-1:210987654321:function:worker", want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := sameFunction(tc.arn, tc.name); got != tc.want {
				t.Errorf("%s\nsameFunction(%q, %q) = %v, want %v", tc.reason, tc.arn, tc.name, got, tc.want)
			}
		})
	}
}

func TestBatchSize(t *testing.T) {
	cases := map[string]struct {
		reason string
		size   *int32
		source string
		want   int32
	}{
		"Set":           {reason: "The spec's size wins.", size: aws.Int32(7), source: "arn:aws:sqs:us-east-1:1:q", want: 7},
		"QueueDefault":  {reason: "A queue's default is 10.", source: "arn:aws:sqs:us-east-1:1:q", want: 10},
		"StreamDefault": {reason: "A stream's default is 100.", source: "arn:aws:dynamodb:us-east-1:1:table/t/stream/x", want: 100},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := &v1alpha1.LambdaEventSourceMapping{Spec: v1alpha1.LambdaEventSourceMappingSpec{BatchSize: tc.size}}
			if diff := cmp.Diff(tc.want, batchSize(m, tc.source)); diff != "" {
				t.Errorf("%s\nbatchSize: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
