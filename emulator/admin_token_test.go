package emulator_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestAdminToken checks that an emulator with an admin token answers its admin endpoints only
// to requests that present it, in either header, and that one without a token stays open.
func TestAdminToken(t *testing.T) {
	type args struct {
		token   string
		headers map[string]string
	}
	type want struct {
		status int
		body   string
	}
	cases := map[string]struct {
		reason string
		args   args
		want   want
	}{
		"NoTokenConfigured": {
			reason: "Without Options.AdminToken the admin endpoints stay open, as in-process tests use them.",
			args:   args{},
			want:   want{status: http.StatusOK},
		},
		"TokenAbsent": {
			reason: "A request without a token is told how to send one.",
			args:   args{token: "s3cret"},
			want:   want{status: http.StatusUnauthorized, body: "need its admin token"},
		},
		"BearerAccepted": {
			reason: "The token as a Bearer Authorization header is accepted.",
			args:   args{token: "s3cret", headers: map[string]string{"Authorization": "Bearer s3cret"}},
			want:   want{status: http.StatusOK},
		},
		"LowercaseBearerAccepted": {
			reason: "The Authorization scheme is case-insensitive.",
			args:   args{token: "s3cret", headers: map[string]string{"Authorization": "bearer s3cret"}},
			want:   want{status: http.StatusOK},
		},
		"HeaderAccepted": {
			reason: "The token in X-Emulator-Token is accepted.",
			args:   args{token: "s3cret", headers: map[string]string{"X-Emulator-Token": "s3cret"}},
			want:   want{status: http.StatusOK},
		},
		"BearerWrong": {
			reason: "A wrong Bearer token is forbidden.",
			args:   args{token: "s3cret", headers: map[string]string{"Authorization": "Bearer s3cre"}},
			want:   want{status: http.StatusForbidden, body: "admin token is wrong"},
		},
		"HeaderWrong": {
			reason: "A wrong X-Emulator-Token is forbidden.",
			args:   args{token: "s3cret", headers: map[string]string{"X-Emulator-Token": "s3cret2"}},
			want:   want{status: http.StatusForbidden, body: "admin token is wrong"},
		},
		"AWSSignatureIsNoToken": {
			reason: "An AWS Authorization header is not an admin token.",
			args: args{token: "s3cret", headers: map[string]string{
				"Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=00"}},
			want: want{status: http.StatusUnauthorized, body: "need its admin token"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, url := start(t, emulator.Options{AdminToken: tc.args.token})
			req, err := http.NewRequest(http.MethodGet, url+"/_emulator/calls", nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.args.headers {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			got := want{status: resp.StatusCode}
			if tc.want.body != "" && strings.Contains(string(b), tc.want.body) {
				got.body = tc.want.body
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nanswer (-want +got):\n%s\nbody: %s", tc.reason, diff, b)
			}
		})
	}
}

// TestAdminTokenLeavesAWSRequests checks that an admin token does not concern AWS API requests.
func TestAdminTokenLeavesAWSRequests(t *testing.T) {
	_, url := start(t, emulator.Options{AdminToken: "s3cret"})
	c := sqs.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	if _, err := c.CreateQueue(context.Background(), &sqs.CreateQueueInput{QueueName: aws.String("q")}); err != nil {
		t.Errorf("CreateQueue with an admin token set: %v", err)
	}
}
