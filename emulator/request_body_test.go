package emulator_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/runner-codes/infra-operator/emulator"
)

// repeated is an endless reader of one byte.
type repeated byte

func (b repeated) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// swappedBody is an HTTP client that sends every request with a generated body in place of the
// one the SDK signed, so that a test can send a large request through the real SDK client, and
// read its typed error, without holding the body in memory. A negative size sends the body
// chunked, without a Content-Length.
type swappedBody struct {
	next aws.HTTPClient
	size int64
	body func() io.Reader
}

// Do sends r with the generated body.
func (s swappedBody) Do(r *http.Request) (*http.Response, error) {
	r.Body, r.GetBody, r.ContentLength = io.NopCloser(s.body()), nil, s.size
	return s.next.Do(r)
}

// statusCode returns the HTTP status of the response an SDK error came with, or 0.
func statusCode(err error) int {
	var withStatus interface{ HTTPStatusCode() int }
	if errors.As(err, &withStatus) {
		return withStatus.HTTPStatusCode()
	}
	return 0
}

// TestLambdaLargePackages uploads deployment packages directly, in the request: one of 10 MiB,
// above the 8 MiB other services' requests are limited to, is accepted, and one of 51 MiB,
// above Lambda's 50 MB, is refused with RequestEntityTooLargeException (HTTP 413) before the
// emulator reads its body. The large request's body is generated as it is sent.
func TestLambdaLargePackages(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ctx := context.Background()
	c := lambda.NewFromConfig(sdkConfig(t, url, "AKID", 1))

	in := zipFunction(t, "ten-mib")
	in.Code.ZipFile = bytes.Repeat([]byte{'z'}, 10<<20)
	created, err := c.CreateFunction(ctx, in)
	if err != nil {
		t.Fatalf("a 10 MiB package: %v", err)
	}
	if created.CodeSize != 10<<20 || aws.ToString(created.CodeSha256) != codeSha256(in.Code.ZipFile) {
		t.Errorf("a 10 MiB package gave CodeSize %d and CodeSha256 %s", created.CodeSize, aws.ToString(created.CodeSha256))
	}

	// A 51 MiB archive is 71303168 characters of base64 in the JSON document.
	const prefix, suffix = `{"Code":{"ZipFile":"`, `"},"FunctionName":"too-large","Handler":"index.handler",` +
		`"Role":"arn:aws:iam::123456789012:role/lambda-execution-role","Runtime":"python3.12"}`
	encoded := int64(4 * ((51<<20 + 2) / 3))
	cfg := sdkConfig(t, url, "AKID", 1)
	cfg.HTTPClient = swappedBody{next: cfg.HTTPClient, size: int64(len(prefix)) + encoded + int64(len(suffix)), body: func() io.Reader {
		return io.MultiReader(strings.NewReader(prefix), io.LimitReader(repeated('A'), encoded), strings.NewReader(suffix))
	}}
	start := time.Now()
	_, err = lambda.NewFromConfig(cfg).CreateFunction(ctx, zipFunction(t, "too-large"))
	// The SDK's Lambda model has no RequestEntityTooLargeException shape: its clients see a
	// generic API error with AWS's code and message.
	if errorCode(err) != "RequestEntityTooLargeException" || statusCode(err) != http.StatusRequestEntityTooLarge ||
		errorMessage(err) != "Request must be smaller than 69905067 bytes for the CreateFunction operation" {
		t.Fatalf("a 51 MiB package gave %v (HTTP %d), want RequestEntityTooLargeException (HTTP 413)", err, statusCode(err))
	}
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("refusing a 51 MiB package took %s", elapsed)
	}
	if _, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: aws.String("too-large")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("the refused function exists: %v", err)
	}
}

// TestRequestBodyLimit sends a chunked request, without a Content-Length, above the 8 MiB a
// service other than Lambda accepts: the emulator stops reading at the limit and answers HTTP
// 413.
func TestRequestBodyLimit(t *testing.T) {
	_, url := start(t, emulator.Options{})
	cfg := sdkConfig(t, url, "AKID", 1)
	queues := sqs.NewFromConfig(cfg)
	ctx := context.Background()
	queue, err := queues.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("large")})
	if err != nil {
		t.Fatal(err)
	}
	prefix, suffix := `{"QueueUrl":"`+aws.ToString(queue.QueueUrl)+`","MessageBody":"`, `"}`
	cfg.HTTPClient = swappedBody{next: cfg.HTTPClient, size: -1, body: func() io.Reader {
		return io.MultiReader(strings.NewReader(prefix), io.LimitReader(repeated('m'), 9<<20), strings.NewReader(suffix))
	}}
	_, err = sqs.NewFromConfig(cfg).SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: queue.QueueUrl, MessageBody: aws.String("small")})
	if statusCode(err) != http.StatusRequestEntityTooLarge || errorCode(err) != "RequestEntityTooLarge" {
		t.Errorf("a 9 MiB chunked request gave %v (HTTP %d), want RequestEntityTooLarge (HTTP 413)", err, statusCode(err))
	}
}
