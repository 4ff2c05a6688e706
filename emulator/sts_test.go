package emulator_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/aws-sdk-go-v2/service/sts/types"
	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

func TestSTSGetCallerIdentity(t *testing.T) {
	_, url := start(t, emulator.Options{Accounts: map[string]string{"AKIDMAPPED": "111111111111"}})
	cases := map[string]struct {
		reason string
		args   string
		want   string
	}{
		"DefaultAccount": {reason: "An unknown key belongs to the default account.", args: "AKIDANY", want: emulator.DefaultAccount},
		"MappedAccount":  {reason: "A mapped key belongs to its account.", args: "AKIDMAPPED", want: "111111111111"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := sts.NewFromConfig(sdkConfig(t, url, tc.args, 1)).GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, aws.ToString(out.Account)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if !strings.HasPrefix(aws.ToString(out.Arn), "arn:aws:iam::"+tc.want+":") {
				t.Errorf("ARN %s is not in account %s", aws.ToString(out.Arn), tc.want)
			}
		})
	}
}

func TestSTSAssumeRole(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ctx := context.Background()
	cfg := sdkConfig(t, url, "AKIDBASE", 1)
	cfg.Credentials = aws.NewCredentialsCache(stscreds.NewAssumeRoleProvider(sts.NewFromConfig(cfg), "arn:aws:iam::222222222222:role/deployer",
		func(o *stscreds.AssumeRoleOptions) { o.RoleSessionName = "infra-operator" }))
	out, err := sts.NewFromConfig(cfg).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		t.Fatal(err)
	}
	want := "arn:aws:sts::222222222222:assumed-role/deployer/infra-operator"
	if diff := cmp.Diff(want, aws.ToString(out.Arn)); diff != "" {
		t.Errorf("the assumed role's identity\n-want +got:\n%s", diff)
	}

	_, err = sts.NewFromConfig(sdkConfig(t, url, "AKIDBASE", 1)).AssumeRole(ctx, &sts.AssumeRoleInput{
		RoleArn: aws.String("not-an-arn"), RoleSessionName: aws.String("s1")})
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode() != "ValidationError" {
		t.Errorf("an invalid role ARN gave %v, want ValidationError", err)
	}
}

// TestSTSAssumeRoleSessionTags checks that AssumeRole takes session tags and an external ID as
// STS does: valid ones are kept with the session (the state dump shows them) and the session
// name is in the caller's ARN; invalid ones are refused.
func TestSTSAssumeRoleSessionTags(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ctx := context.Background()
	tag := func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} }
	cases := map[string]struct {
		reason     string
		tags       []types.Tag
		externalID string
		// want is the error code, or "" for success.
		want string
	}{
		"Valid": {
			reason:     "Session tags and an external ID are accepted and kept.",
			tags:       []types.Tag{tag("infra-operator/namespace", "team-a"), tag("infra-operator/provider", "team-a/aws")},
			externalID: "team-a-7",
		},
		"BadKey": {
			reason: "A tag key with a character STS refuses is a ValidationError.",
			tags:   []types.Tag{tag("bad#key", "v")},
			want:   "ValidationError",
		},
		"DuplicateKey": {
			reason: "Tag keys are compared without regard to case.",
			tags:   []types.Tag{tag("Team", "a"), tag("team", "b")},
			want:   "InvalidParameterValue",
		},
		"BadExternalID": {
			reason:     "An external ID with a space is a ValidationError.",
			externalID: "not valid",
			want:       "ValidationError",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := &sts.AssumeRoleInput{RoleArn: aws.String("arn:aws:iam::222222222222:role/deployer"),
				RoleSessionName: aws.String("infra-operator@" + strings.ToLower(name)), Tags: tc.tags}
			if tc.externalID != "" {
				in.ExternalId = aws.String(tc.externalID)
			}
			out, err := sts.NewFromConfig(sdkConfig(t, url, "AKIDBASE", 1)).AssumeRole(ctx, in)
			got := ""
			var apiErr smithy.APIError
			if errors.As(err, &apiErr) {
				got = apiErr.ErrorCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if err != nil {
				return
			}
			cfg := sdkConfig(t, url, aws.ToString(out.Credentials.AccessKeyId), 1)
			id, err := sts.NewFromConfig(cfg).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
			if err != nil {
				t.Fatal(err)
			}
			if want := "arn:aws:sts::222222222222:assumed-role/deployer/infra-operator@valid"; aws.ToString(id.Arn) != want {
				t.Errorf("caller %s, want %s", aws.ToString(id.Arn), want)
			}
			var state map[string]map[string]struct {
				Tags       map[string]string
				ExternalID string
			}
			getJSON(t, url+"/_emulator/state", &state)
			kept := state["STS"][aws.ToString(out.Credentials.AccessKeyId)]
			wantTags := map[string]string{"infra-operator/namespace": "team-a", "infra-operator/provider": "team-a/aws"}
			if diff := cmp.Diff(wantTags, kept.Tags); diff != "" || kept.ExternalID != tc.externalID {
				t.Errorf("the session keeps external ID %q and tags\n-want +got:\n%s", kept.ExternalID, diff)
			}
		})
	}
}

func TestSTSAssumeRoleWithWebIdentityIsUnsigned(t *testing.T) {
	_, url := start(t, emulator.Options{})
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("eyJhbGciOiJSUzI1NiJ9.e30.c2ln"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := sdkConfig(t, url, "unused", 1)
	cfg.Credentials = aws.NewCredentialsCache(stscreds.NewWebIdentityRoleProvider(sts.NewFromConfig(cfg),
		"arn:aws:iam::333333333333:role/irsa", stscreds.IdentityTokenFile(token)))
	out, err := sts.NewFromConfig(cfg).GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(out.Account); got != "333333333333" {
		t.Errorf("account %s, want the role's 333333333333", got)
	}
}

func TestProtocolErrors(t *testing.T) {
	_, url := start(t, emulator.Options{})
	const auth = "AWS4-HMAC-SHA256 Credential=AKID/20261122/us-east-1/%s/aws4_request, SignedHeaders=host, Signature=abc"
	cases := map[string]struct {
		reason string
		args   func() *http.Request
		want   string
		query  string // the x-amzn-query-error header, when checked
	}{
		"UnsignedQuery": {
			reason: "An unsigned STS call is refused as AWS refuses it.",
			args: func() *http.Request {
				r, _ := http.NewRequest(http.MethodPost, url, strings.NewReader("Action=GetCallerIdentity&Version=2011-06-15"))
				r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				return r
			},
			want: "403|<Code>MissingAuthenticationToken</Code>",
		},
		"MalformedQuerySignature": {
			reason: "A credential scope without its five parts is IncompleteSignature.",
			args: func() *http.Request {
				r, _ := http.NewRequest(http.MethodPost, url, strings.NewReader("Action=GetCallerIdentity&Version=2011-06-15"))
				r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKID/20261122/sts, SignedHeaders=host, Signature=abc")
				return r
			},
			want: "403|<Code>IncompleteSignature</Code>",
		},
		"UnsignedJSON": {
			reason: "JSON protocols name the error MissingAuthenticationTokenException; SQS adds the legacy code.",
			args: func() *http.Request {
				r, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"QueueName":"q"}`))
				r.Header.Set("X-Amz-Target", "AmazonSQS.GetQueueUrl")
				return r
			},
			want:  `403|{"__type":"MissingAuthenticationTokenException"`,
			query: "MissingAuthenticationToken;Sender",
		},
		"UnsignedS3": {
			reason: "An anonymous S3 call on a private bucket is AccessDenied.",
			args: func() *http.Request {
				r, _ := http.NewRequest(http.MethodGet, url+"/some-bucket?versioning", nil)
				return r
			},
			want: "403|<Error><Code>AccessDenied</Code><Message>Access Denied</Message>",
		},
		"MalformedS3Signature": {
			reason: "S3 answers a malformed Authorization header with AuthorizationHeaderMalformed.",
			args: func() *http.Request {
				r, _ := http.NewRequest(http.MethodGet, url+"/some-bucket?versioning", nil)
				r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKID/20261122/us-east-1/s3/aws4_request, SignedHeaders=host")
				return r
			},
			want: "400|<Error><Code>AuthorizationHeaderMalformed</Code>",
		},
		"UnknownQueryOperation": {
			reason: "An operation the emulator lacks is named in InvalidAction, never answered wrongly.",
			args: func() *http.Request {
				r, _ := http.NewRequest(http.MethodPost, url, strings.NewReader("Action=GetSessionToken&Version=2011-06-15"))
				r.Header.Set("Authorization", strings.Replace(auth, "%s", "sts", 1))
				return r
			},
			want: "400|<Code>InvalidAction</Code><Message>Could not find operation GetSessionToken",
		},
		"UnknownJSONOperation": {
			reason: "JSON protocols answer UnknownOperationException.",
			args: func() *http.Request {
				r, _ := http.NewRequest(http.MethodPost, url, strings.NewReader("{}"))
				r.Header.Set("Authorization", strings.Replace(auth, "%s", "sqs", 1))
				r.Header.Set("X-Amz-Target", "AmazonSQS.StartMessageMoveTask")
				return r
			},
			want: `400|{"__type":"UnknownOperationException","message":"operation StartMessageMoveTask`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp, err := http.DefaultClient.Do(tc.args())
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			status, snippet, _ := strings.Cut(tc.want, "|")
			got := strings.ReplaceAll(string(body), "<Error><Type>Sender</Type>", "")
			if resp.Status[:3] != status || !strings.Contains(got, snippet) {
				t.Errorf("%s\ngot  %s %s\nwant %s and a body containing %s", tc.reason, resp.Status, body, status, snippet)
			}
			if got := resp.Header.Get("X-Amzn-Query-Error"); tc.query != "" && got != tc.query {
				t.Errorf("%s\nx-amzn-query-error %q, want %q", tc.reason, got, tc.query)
			}
			if resp.Header.Get("X-Amzn-RequestId") == "" {
				t.Errorf("%s\nthe answer carries no request id", tc.reason)
			}
		})
	}
}

func TestThrottlingFaultIsRetriedByTheSDK(t *testing.T) {
	e, url := start(t, emulator.Options{Faults: map[string]emulator.Fault{"STS.GetCallerIdentity": {ThrottleRate: 1}}})
	_, err := sts.NewFromConfig(sdkConfig(t, url, "AKID", 3)).GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode() != "Throttling" {
		t.Fatalf("got %v, want a Throttling error", err)
	}
	if got := e.Calls.Snapshot()["STS"]["GetCallerIdentity"]["Throttling"]; got != 3 {
		t.Errorf("the SDK made %d attempts, want 3: a throttle must look retryable to it", got)
	}
	e.Faults.Set("STS.GetCallerIdentity", emulator.Fault{})
	if _, err := sts.NewFromConfig(sdkConfig(t, url, "AKID", 1)).GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{}); err != nil {
		t.Errorf("after clearing the fault: %v", err)
	}
	if got := e.Calls.Snapshot()["STS"]["GetCallerIdentity"]["success"]; got != 1 {
		t.Errorf("success count %d, want 1", got)
	}
}
