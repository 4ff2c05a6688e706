package metrics

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/google/go-cmp/cmp"
)

// TestAttemptsUncertain checks the writes of a create: a write attempt that ends in a server
// error is counted and not retried by the SDK (a retry could create a second resource), even
// when a retry would have been answered with a clear refusal; throttling and refusals are not
// counted and throttling is retried; reads are retried as usual and not counted.
func TestAttemptsUncertain(t *testing.T) {
	cases := map[string]struct {
		reason       string
		read         bool
		answers      []int
		wantCount    int
		wantRequests int
	}{
		"Refused":          {reason: "A clear refusal made nothing.", answers: []int{400}, wantCount: 0, wantRequests: 1},
		"ThrottledRefused": {reason: "Throttling made nothing either, and is retried.", answers: []int{429, 400}, wantCount: 0, wantRequests: 2},
		"ServerError":      {reason: "A server error may have done the work: counted, and not retried.", answers: []int{500, 200}, wantCount: 1, wantRequests: 1},
		"Success":          {reason: "A success is no uncertain attempt.", answers: []int{200}, wantCount: 0, wantRequests: 1},
		"ReadRetried":      {reason: "A read that fails is retried and not counted.", read: true, answers: []int{500, 200}, wantCount: 0, wantRequests: 2},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var n atomic.Int32
			srv := stsEndpoint(tc.answers, tc.read, "", &n)
			defer srv.Close()
			cfg := configFor(srv.URL, "aws")
			ctx, attempts := WithAttempts(context.Background())
			client := sts.NewFromConfig(cfg)
			if tc.read {
				_, _ = client.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
			} else {
				_, _ = client.AssumeRole(ctx, &sts.AssumeRoleInput{RoleArn: aws.String("arn:aws:iam::123456789012:role/r"), RoleSessionName: aws.String("s")})
			}
			got := [2]int{attempts.Uncertain(), int(n.Load())}
			if diff := cmp.Diff([2]int{tc.wantCount, tc.wantRequests}, got); diff != "" {
				t.Errorf("%s\n[uncertain, requests]: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
