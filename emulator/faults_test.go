package emulator_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	dbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestReadAfterCreateDelay checks the eventual-consistency fault: a resource just created is
// invisible to reads until the delay passes on the simulation clock, as AWS reads can lag.
func TestReadAfterCreateDelay(t *testing.T) {
	e, url := start(t, emulator.Options{Faults: map[string]emulator.Fault{
		"SQS.CreateQueue":      {ReadAfterCreateDelay: emulator.Duration(5 * time.Second)},
		"DynamoDB.CreateTable": {ReadAfterCreateDelay: emulator.Duration(5 * time.Second)},
	}})
	e.Clock.Freeze()
	ctx := context.Background()
	queues := sqs.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	tables := dynamodb.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	if _, err := queues.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("lagging")}); err != nil {
		t.Fatal(err)
	}
	if _, err := tables.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("lagging"), BillingMode: dbtypes.BillingModePayPerRequest,
		KeySchema: keys("id", ""), AttributeDefinitions: defs("id", "S")}); err != nil {
		t.Fatal(err)
	}
	read := func() (string, string) {
		_, qErr := queues.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String("lagging")})
		_, tErr := tables.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("lagging")})
		return errorCode(qErr), errorCode(tErr)
	}
	if q, tb := read(); q != "AWS.SimpleQueueService.NonExistentQueue" || tb != "ResourceNotFoundException" {
		t.Errorf("right after creation reads gave %q and %q; want not-found from both", q, tb)
	}
	e.Clock.Advance(6 * time.Second)
	if q, tb := read(); q != "" || tb != "" {
		t.Errorf("after the delay reads gave %q and %q; want success", q, tb)
	}
}

// TestFaultsAreRetriedByTheSDK checks, for every service, that the injected throttle and 5xx
// faults carry the service's own error codes and that the SDK's retryer retries both.
func TestFaultsAreRetriedByTheSDK(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		service, operation string
		call               func(cfg aws.Config) error
		throttle, internal string
	}{
		{"STS", "GetCallerIdentity", func(cfg aws.Config) error {
			_, err := sts.NewFromConfig(cfg).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
			return err
		}, "Throttling", "InternalFailure"},
		{"SQS", "ListQueues", func(cfg aws.Config) error {
			_, err := sqs.NewFromConfig(cfg).ListQueues(ctx, &sqs.ListQueuesInput{})
			return err
		}, "RequestThrottled", "InternalFailure"},
		{"SNS", "ListTopics", func(cfg aws.Config) error {
			_, err := sns.NewFromConfig(cfg).ListTopics(ctx, &sns.ListTopicsInput{})
			return err
		}, "Throttling", "InternalFailure"},
		{"DynamoDB", "ListTables", func(cfg aws.Config) error {
			_, err := dynamodb.NewFromConfig(cfg).ListTables(ctx, &dynamodb.ListTablesInput{})
			return err
		}, "ThrottlingException", "InternalFailure"},
		{"S3", "ListBuckets", func(cfg aws.Config) error {
			_, err := s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true }).ListBuckets(ctx, &s3.ListBucketsInput{})
			return err
		}, "SlowDown", "InternalError"},
		{"EC2", "DescribeVpcs", func(cfg aws.Config) error {
			_, err := ec2.NewFromConfig(cfg).DescribeVpcs(ctx, &ec2.DescribeVpcsInput{})
			return err
		}, "RequestLimitExceeded", "InternalFailure"},
		{"Lambda", "ListFunctions", func(cfg aws.Config) error {
			_, err := lambda.NewFromConfig(cfg).ListFunctions(ctx, &lambda.ListFunctionsInput{})
			return err
		}, "TooManyRequestsException", "InternalFailure"},
	}
	for _, tc := range cases {
		t.Run(tc.service, func(t *testing.T) {
			key := tc.service + "." + tc.operation
			e, url := start(t, emulator.Options{Faults: map[string]emulator.Fault{key: {ThrottleRate: 1}}})
			cfg := sdkConfig(t, url, "AKID", 2)
			cfg.Retryer = func() aws.Retryer {
				return retry.NewStandard(func(o *retry.StandardOptions) {
					o.MaxAttempts = 2
					o.Backoff = retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return 0, nil })
				})
			}
			if got := errorCode(tc.call(cfg)); got != tc.throttle {
				t.Errorf("throttled call gave %q, want %q", got, tc.throttle)
			}
			e.Faults.Set(key, emulator.Fault{ErrorRate: 1})
			if got := errorCode(tc.call(cfg)); got != tc.internal {
				t.Errorf("failing call gave %q, want %q", got, tc.internal)
			}
			want := map[string]int{tc.throttle: 2, tc.internal: 2}
			if diff := cmp.Diff(want, e.Calls.Snapshot()[tc.service][tc.operation]); diff != "" {
				t.Errorf("attempts by outcome (the SDK retries each fault once with 2 attempts)\n-want +got:\n%s", diff)
			}
			e.Faults.Set(key, emulator.Fault{})
			if err := tc.call(cfg); err != nil {
				t.Errorf("after clearing the fault: %v", err)
			}
		})
	}
}

// TestTransitionsOption checks that Options.Transitions sets how long lifecycles take: a table
// is ACTIVE at once with a zero DynamoDB transition, and stays CREATING for a configured one.
func TestTransitionsOption(t *testing.T) {
	ctx := context.Background()
	cases := map[string]struct {
		transitions map[string]time.Duration
		advance     time.Duration
		want        dbtypes.TableStatus
	}{
		"Immediate":         {transitions: map[string]time.Duration{"DynamoDB": 0}, want: dbtypes.TableStatusActive},
		"LongerThanDefault": {transitions: map[string]time.Duration{"DynamoDB": time.Minute}, advance: 30 * time.Second, want: dbtypes.TableStatusCreating},
		"LongerAndElapsed":  {transitions: map[string]time.Duration{"DynamoDB": time.Minute}, advance: time.Minute, want: dbtypes.TableStatusActive},
		"DefaultNotElapsed": {want: dbtypes.TableStatusCreating},
		"OtherServiceNamed": {transitions: map[string]time.Duration{"EC2": 0}, want: dbtypes.TableStatusCreating},
		"DefaultHasElapsed": {advance: 2 * time.Second, want: dbtypes.TableStatusActive},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, url := start(t, emulator.Options{Transitions: tc.transitions})
			e.Clock.Freeze()
			c := dynamodb.NewFromConfig(sdkConfig(t, url, "AKID", 1))
			if _, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), BillingMode: dbtypes.BillingModePayPerRequest,
				KeySchema: keys("id", ""), AttributeDefinitions: defs("id", "S")}); err != nil {
				t.Fatal(err)
			}
			e.Clock.Advance(tc.advance)
			out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
			if err != nil {
				t.Fatal(err)
			}
			if got := out.Table.TableStatus; got != tc.want {
				t.Errorf("status %s, want %s", got, tc.want)
			}
		})
	}
}
