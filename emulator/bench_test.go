package emulator_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/runner-codes/infra-operator/emulator"
)

// BenchmarkGetCallerIdentity measures requests per second of a cheap query-protocol call
// through the real SDK on loopback, from as many goroutines as GOMAXPROCS.
func BenchmarkGetCallerIdentity(b *testing.B) {
	_, url := start(b, emulator.Options{})
	c := sts.NewFromConfig(sdkConfig(b, url, "AKID", 1))
	runParallel(b, func(ctx context.Context) error {
		_, err := c.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
		return err
	})
}

// BenchmarkGetQueueAttributes measures requests per second of a cheap JSON-protocol call.
func BenchmarkGetQueueAttributes(b *testing.B) {
	_, url := start(b, emulator.Options{})
	c := sqs.NewFromConfig(sdkConfig(b, url, "AKID", 1))
	q, err := c.CreateQueue(context.Background(), &sqs.CreateQueueInput{QueueName: aws.String("bench")})
	if err != nil {
		b.Fatal(err)
	}
	in := &sqs.GetQueueAttributesInput{QueueUrl: q.QueueUrl, AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameAll}}
	runParallel(b, func(ctx context.Context) error {
		_, err := c.GetQueueAttributes(ctx, in)
		return err
	})
}

// BenchmarkGetBucketVersioning measures requests per second of a cheap REST-XML call, which
// pays for routing by method, path and query.
func BenchmarkGetBucketVersioning(b *testing.B) {
	_, url := start(b, emulator.Options{})
	c := s3.NewFromConfig(sdkConfig(b, url, "AKID", 1), func(o *s3.Options) { o.UsePathStyle = true })
	if _, err := c.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String("bench-bucket")}); err != nil {
		b.Fatal(err)
	}
	in := &s3.GetBucketVersioningInput{Bucket: aws.String("bench-bucket")}
	runParallel(b, func(ctx context.Context) error {
		_, err := c.GetBucketVersioning(ctx, in)
		return err
	})
}

func runParallel(b *testing.B, call func(context.Context) error) {
	b.Helper()
	ctx := context.Background()
	b.ReportAllocs()
	b.SetParallelism(4)
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := call(ctx); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
}

// BenchmarkMemoryPer10kQueues measures the emulator's heap per 10,000 SQS queues.
func BenchmarkMemoryPer10kQueues(b *testing.B) {
	for range b.N {
		e, url := start(b, emulator.Options{})
		c := sqs.NewFromConfig(sdkConfig(b, url, "AKID", 1))
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := range 10000 {
			if _, err := c.CreateQueue(context.Background(), &sqs.CreateQueueInput{QueueName: aws.String(fmt.Sprintf("queue-%05d", i)),
				Tags: map[string]string{"team": "platform"}}); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/10000, "heapB/queue")
		runtime.KeepAlive(e)
	}
}
