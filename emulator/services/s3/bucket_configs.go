package s3

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// putBucketAccelerate sets Transfer Acceleration to Enabled or Suspended. AWS refuses it for
// bucket names with periods, which acceleration endpoints cannot serve.
func (b *Backend) putBucketAccelerate(call *core.Call, in *s3.PutBucketAccelerateConfigurationInput) (*s3.PutBucketAccelerateConfigurationOutput, error) {
	return &s3.PutBucketAccelerateConfigurationOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if in.AccelerateConfiguration == nil {
			return malformedXML()
		}
		switch s := in.AccelerateConfiguration.Status; s {
		case types.BucketAccelerateStatusEnabled, types.BucketAccelerateStatusSuspended:
			if strings.Contains(bk.name, ".") {
				return core.Errorf("InvalidRequest", "S3 Transfer Acceleration is not supported for buckets with periods (.) in their names")
			}
			bk.accelerate = s
			return nil
		}
		return malformedXML()
	})
}

// getBucketAccelerate returns the acceleration status: none for a bucket where it was never
// set, as on AWS.
func (b *Backend) getBucketAccelerate(call *core.Call, in *s3.GetBucketAccelerateConfigurationInput) (*s3.GetBucketAccelerateConfigurationOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetBucketAccelerateConfigurationOutput, error) {
		return &s3.GetBucketAccelerateConfigurationOutput{Status: bk.accelerate}, nil
	})
}

// putBucketLogging enables server access logging into a target bucket of the same owner, or
// disables it with an empty BucketLoggingStatus. No log is written.
func (b *Backend) putBucketLogging(call *core.Call, in *s3.PutBucketLoggingInput) (*s3.PutBucketLoggingOutput, error) {
	return &s3.PutBucketLoggingOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if in.BucketLoggingStatus == nil {
			return malformedXML()
		}
		enabled := in.BucketLoggingStatus.LoggingEnabled
		if enabled == nil {
			bk.logging = nil
			return nil
		}
		if aws.ToString(enabled.TargetBucket) == "" || enabled.TargetPrefix == nil {
			return malformedXML()
		}
		target, ok := b.buckets[aws.ToString(enabled.TargetBucket)]
		switch {
		case !ok:
			return core.Errorf("InvalidTargetBucketForLogging", "The target bucket for logging does not exist")
		case target.owner != bk.owner:
			return core.Errorf("InvalidTargetBucketForLogging", "The owner for the bucket to be logged and the target bucket must be the same.")
		case target.region != bk.region:
			return core.Errorf("CrossLocationLoggingProhibitted", "Cross S3 location logging not allowed.")
		}
		bk.logging = enabled
		return nil
	})
}

// getBucketLogging returns the logging status: an empty BucketLoggingStatus when logging is
// off, as on AWS.
func (b *Backend) getBucketLogging(call *core.Call, in *s3.GetBucketLoggingInput) (*s3.GetBucketLoggingOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetBucketLoggingOutput, error) {
		return &s3.GetBucketLoggingOutput{LoggingEnabled: bk.logging}, nil
	})
}

// putBucketNotification replaces the bucket's event notification configuration. Each topic,
// queue and Lambda configuration needs a destination ARN and s3: events; one without an Id
// gets one, as AWS gives it. Simplification: AWS checks that each destination exists and lets
// S3 publish to it (unless SkipDestinationValidation); the emulator does not, and delivers no
// event.
func (b *Backend) putBucketNotification(call *core.Call, in *s3.PutBucketNotificationConfigurationInput) (*s3.PutBucketNotificationConfigurationOutput, error) {
	return &s3.PutBucketNotificationConfigurationOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		c := in.NotificationConfiguration
		if c == nil {
			return malformedXML()
		}
		stored := *c
		stored.TopicConfigurations = append([]types.TopicConfiguration(nil), c.TopicConfigurations...)
		stored.QueueConfigurations = append([]types.QueueConfiguration(nil), c.QueueConfigurations...)
		stored.LambdaFunctionConfigurations = append([]types.LambdaFunctionConfiguration(nil), c.LambdaFunctionConfigurations...)
		for i := range stored.TopicConfigurations {
			t := &stored.TopicConfigurations[i]
			if err := b.checkNotification(&t.Id, t.TopicArn, t.Events); err != nil {
				return err
			}
		}
		for i := range stored.QueueConfigurations {
			q := &stored.QueueConfigurations[i]
			if err := b.checkNotification(&q.Id, q.QueueArn, q.Events); err != nil {
				return err
			}
		}
		for i := range stored.LambdaFunctionConfigurations {
			l := &stored.LambdaFunctionConfigurations[i]
			if err := b.checkNotification(&l.Id, l.LambdaFunctionArn, l.Events); err != nil {
				return err
			}
		}
		bk.notification = &stored
		return nil
	})
}

// checkNotification validates one notification destination and gives it an Id when it has
// none. The caller holds b.mu.
func (b *Backend) checkNotification(id **string, arn *string, events []types.Event) error {
	if !strings.HasPrefix(aws.ToString(arn), "arn:") || len(events) == 0 {
		return core.Errorf("InvalidArgument", "Unable to validate the following destination configurations")
	}
	for _, e := range events {
		if !strings.HasPrefix(string(e), "s3:") {
			return core.Errorf("InvalidArgument", "The event is not supported for notifications")
		}
	}
	if aws.ToString(*id) == "" {
		b.seq++
		*id = aws.String(fmt.Sprintf("notification-%012d", b.seq))
	}
	return nil
}

// getBucketNotification returns the notification configuration, empty when none was set.
func (b *Backend) getBucketNotification(call *core.Call, in *s3.GetBucketNotificationConfigurationInput) (*s3.GetBucketNotificationConfigurationOutput, error) {
	out := &s3.GetBucketNotificationConfigurationOutput{}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if c := bk.notification; c != nil {
			out.TopicConfigurations, out.QueueConfigurations = c.TopicConfigurations, c.QueueConfigurations
			out.LambdaFunctionConfigurations, out.EventBridgeConfiguration = c.LambdaFunctionConfigurations, c.EventBridgeConfiguration
		}
		return nil
	})
}

// putBucketRequestPayment sets who pays for requests: BucketOwner or Requester.
func (b *Backend) putBucketRequestPayment(call *core.Call, in *s3.PutBucketRequestPaymentInput) (*s3.PutBucketRequestPaymentOutput, error) {
	return &s3.PutBucketRequestPaymentOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if in.RequestPaymentConfiguration == nil {
			return malformedXML()
		}
		switch p := in.RequestPaymentConfiguration.Payer; p {
		case types.PayerBucketOwner, types.PayerRequester:
			bk.payer = p
			return nil
		}
		return malformedXML()
	})
}

// getBucketRequestPayment returns who pays for requests: BucketOwner unless set otherwise.
func (b *Backend) getBucketRequestPayment(call *core.Call, in *s3.GetBucketRequestPaymentInput) (*s3.GetBucketRequestPaymentOutput, error) {
	out := &s3.GetBucketRequestPaymentOutput{Payer: types.PayerBucketOwner}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if bk.payer != "" {
			out.Payer = bk.payer
		}
		return nil
	})
}
