package metrics

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go/middleware"
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
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				status := tc.answers[min(int(n.Add(1))-1, len(tc.answers)-1)]
				w.Header().Set("Content-Type", "text/xml")
				w.WriteHeader(status)
				switch {
				case status == 200 && tc.read:
					fmt.Fprint(w, `<GetCallerIdentityResponse><GetCallerIdentityResult><Account>123456789012</Account></GetCallerIdentityResult></GetCallerIdentityResponse>`)
				case status == 200:
					fmt.Fprint(w, `<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>A</AccessKeyId><SecretAccessKey>S</SecretAccessKey>`+
						`<SessionToken>T</SessionToken><Expiration>2030-01-01T00:00:00Z</Expiration></Credentials></AssumeRoleResult></AssumeRoleResponse>`)
				default:
					code := map[int]string{400: "ValidationError", 429: "Throttling", 500: "InternalFailure"}[status]
					fmt.Fprintf(w, `<ErrorResponse><Error><Type>Sender</Type><Code>%s</Code><Message>no</Message></Error></ErrorResponse>`, code)
				}
			}))
			defer srv.Close()
			cfg := aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
				Credentials: credentials.NewStaticCredentialsProvider("AKID", "secret", ""),
				APIOptions:  []func(*middleware.Stack) error{AWSCallMetrics("team", "aws")}}
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
