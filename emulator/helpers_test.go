package emulator_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/runner-codes/infra-operator/emulator"

	"github.com/runner-codes/infra-operator/shared/sdkhttp"
)

// start runs an emulator for the test and returns it with its URL.
func start(t testing.TB, opts emulator.Options) (*emulator.Server, string) {
	t.Helper()
	e := emulator.New(opts)
	record(e)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return e, srv.URL
}

// sdkConfig returns an aws.Config that reaches the emulator at url with static keys, through
// the SDK's own HTTP client (AWS_CA_BUNDLE-safe).
func sdkConfig(t testing.TB, url, accessKey string, attempts int) aws.Config {
	t.Helper()
	cfg, err := config.LoadDefaultConfig(context.Background(),
		config.WithRegion("us-east-1"),
		config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(accessKey, "secret", "")),
		config.WithRetryMaxAttempts(attempts),
		config.WithBaseEndpoint(url),
	)
	if err != nil {
		t.Fatal(err)
	}
	cfg.HTTPClient = sdkhttp.Wrap(cfg.HTTPClient)
	return cfg
}
