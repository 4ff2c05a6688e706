package metrics

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestAWSCallOutcomes checks what one GetCallerIdentity call, answered in turn by the given
// statuses, adds to AWSRequests by outcome class and to AWSRetries, for its provider only.
func TestAWSCallOutcomes(t *testing.T) {
	cases := map[string]struct {
		reason      string
		answers     []int
		throttled   bool
		unreachable bool
		want        map[string]float64
		wantRetries float64
	}{
		"Success":         {reason: "One answer, one success, no retry.", answers: []int{200}, want: map[string]float64{OutcomeSuccess: 1}},
		"ThrottledThenOK": {reason: "Throttling is its own class, whatever its status; the second attempt is a retry.", answers: []int{400, 200}, throttled: true, want: map[string]float64{OutcomeThrottled: 1, OutcomeSuccess: 1}, wantRetries: 1},
		"ServerError":     {reason: "A 500 is a server error, retried by the SDK.", answers: []int{500, 200}, want: map[string]float64{OutcomeServerError: 1, OutcomeSuccess: 1}, wantRetries: 1},
		"Refused":         {reason: "An access refusal is a client error and is not retried.", answers: []int{403}, want: map[string]float64{OutcomeClientError: 1}},
		"Unreachable":     {reason: "No answer at all is a transport failure, on every attempt.", unreachable: true, want: map[string]float64{OutcomeTransport: 3}, wantRetries: 2},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var n atomic.Int32
			srv := stsEndpoint(tc.answers, true, map[bool]string{true: "Throttling"}[tc.throttled], &n)
			if tc.unreachable {
				srv.Close()
			} else {
				defer srv.Close()
			}
			provider := "aws-" + name
			cfg := configFor(srv.URL, provider)
			_, _ = sts.NewFromConfig(cfg).GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
			got := map[string]float64{}
			for _, outcome := range []string{OutcomeSuccess, OutcomeThrottled, OutcomeClientError, OutcomeServerError, OutcomeTransport} {
				if v := testutil.ToFloat64(AWSRequests.WithLabelValues("team", provider, "STS", "GetCallerIdentity", outcome)); v > 0 {
					got[outcome] = v
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nrequests by outcome: -want +got:\n%s", tc.reason, diff)
			}
			if retries := testutil.ToFloat64(AWSRetries.WithLabelValues("team", provider, "STS", "GetCallerIdentity")); retries != tc.wantRetries {
				t.Errorf("%s\nretries %v, want %v", tc.reason, retries, tc.wantRetries)
			}
		})
	}
}
