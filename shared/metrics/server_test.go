package metrics

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/smithy-go/middleware"
)

// errorCodes are the AWS error codes the test endpoint answers with, by status.
var errorCodes = map[int]string{400: "ValidationError", 403: "AccessDenied", 429: "Throttling", 500: "InternalFailure"}

// stsEndpoint serves STS answers with the given statuses in turn (the last one from then on),
// counting the requests in n; a 200 answers the operation read (GetCallerIdentity) or the
// write (AssumeRole); an error status answers errorCodes' code, or code when it is set.
func stsEndpoint(answers []int, read bool, code string, n *atomic.Int32) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		status := answers[min(int(n.Add(1))-1, len(answers)-1)]
		w.Header().Set("Content-Type", "text/xml")
		w.WriteHeader(status)
		switch {
		case status == 200 && read:
			fmt.Fprint(w, `<GetCallerIdentityResponse><GetCallerIdentityResult><Account>123456789012</Account></GetCallerIdentityResult></GetCallerIdentityResponse>`)
		case status == 200:
			fmt.Fprint(w, `<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>A</AccessKeyId><SecretAccessKey>S</SecretAccessKey>`+
				`<SessionToken>T</SessionToken><Expiration>2030-01-01T00:00:00Z</Expiration></Credentials></AssumeRoleResult></AssumeRoleResponse>`)
		default:
			c := errorCodes[status]
			if code != "" {
				c = code
			}
			fmt.Fprintf(w, `<ErrorResponse><Error><Type>Sender</Type><Code>%s</Code><Message>no</Message></Error></ErrorResponse>`, c)
		}
	}))
}

// configFor returns an SDK configuration for url, counting calls for provider team/provider.
func configFor(url, provider string) aws.Config {
	return aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(url), RetryMaxAttempts: 3,
		Credentials: credentials.NewStaticCredentialsProvider("AKID", "secret", ""),
		APIOptions:  []func(*middleware.Stack) error{AWSCallMetrics("team", provider)}}
}
