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

// putBucketLogging enables server access logging into a target bucket of the same owner and
// region that lets the logging service write there, or disables it with an empty
// BucketLoggingStatus. No log is written.
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
		case !logDeliveryAllowed(target, bk, aws.ToString(enabled.TargetPrefix)):
			return core.Errorf("InvalidTargetBucketForLogging", "You must either provide the necessary permissions to the logging service using a bucket "+
				"policy or give the log-delivery group WRITE and READ_ACP permissions to the target bucket")
		}
		bk.logging = enabled
		return nil
	})
}

// logDeliveryAllowed reports whether the target bucket lets S3's logging service write the
// access logs of source under prefix, as AWS checks when logging is enabled: its policy allows
// the service principal logging.s3.amazonaws.com s3:PutObject there (for source's ARN and
// account, when the statement has those conditions), or its ACL grants the log-delivery group
// WRITE and READ_ACP.
func logDeliveryAllowed(target, source *bucket, prefix string) bool {
	if core.ServiceAllowed(target.policy, "logging.s3.amazonaws.com", "s3:PutObject", "arn:aws:s3:::"+target.name+"/"+prefix+"log",
		"arn:aws:s3:::"+source.name, source.owner) {
		return true
	}
	write, readACP := false, false
	for _, g := range target.acl {
		if g.Grantee != nil && aws.ToString(g.Grantee.URI) == logDelivery {
			write = write || g.Permission == types.PermissionWrite || g.Permission == types.PermissionFullControl
			readACP = readACP || g.Permission == types.PermissionReadAcp || g.Permission == types.PermissionFullControl
		}
	}
	return write && readACP
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
// gets one, as AWS gives it. Then, unless the request skips destination validation, each
// destination is checked as AWS checks it (validateDestinations: a test message to each queue
// and topic, the policy of each function), without the backend's lock held, and the
// configuration is stored only when every destination passes.
func (b *Backend) putBucketNotification(call *core.Call, in *s3.PutBucketNotificationConfigurationInput) (*s3.PutBucketNotificationConfigurationOutput, error) {
	c := in.NotificationConfiguration
	if c == nil {
		return nil, malformedXML()
	}
	stored := *c
	stored.TopicConfigurations = append([]types.TopicConfiguration(nil), c.TopicConfigurations...)
	stored.QueueConfigurations = append([]types.QueueConfiguration(nil), c.QueueConfigurations...)
	stored.LambdaFunctionConfigurations = append([]types.LambdaFunctionConfiguration(nil), c.LambdaFunctionConfigurations...)
	var owner string
	err := b.withBucket(call, in.Bucket, func(bk *bucket) error {
		owner = bk.owner
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
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !aws.ToBool(in.SkipDestinationValidation) {
		if err := b.validateDestinations(destinationsOf(&stored), aws.ToString(in.Bucket), owner, call.Now); err != nil {
			return nil, err
		}
	}
	return &s3.PutBucketNotificationConfigurationOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
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

// putBucketAbac turns attribute-based access control on or off for a bucket (Enabled or
// Disabled). The emulator records it; it checks no tag-based permission either way.
func (b *Backend) putBucketAbac(call *core.Call, in *s3.PutBucketAbacInput) (*s3.PutBucketAbacOutput, error) {
	return &s3.PutBucketAbacOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if in.AbacStatus == nil {
			return malformedXML()
		}
		switch st := in.AbacStatus.Status; st {
		case types.BucketAbacStatusEnabled, types.BucketAbacStatusDisabled:
			bk.abac = st
			return nil
		default:
			return malformedXML()
		}
	})
}

// getBucketAbac returns a bucket's ABAC status: Disabled, AWS's default, unless it was
// enabled.
func (b *Backend) getBucketAbac(call *core.Call, in *s3.GetBucketAbacInput) (*s3.GetBucketAbacOutput, error) {
	out := &s3.GetBucketAbacOutput{AbacStatus: &types.AbacStatus{Status: types.BucketAbacStatusDisabled}}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if bk.abac != "" {
			out.AbacStatus.Status = bk.abac
		}
		return nil
	})
}

// putBucketWebsite sets the bucket's static website configuration. As on AWS, it needs an
// index document (a suffix without a slash) unless all requests are redirected, and a redirect
// of all requests excludes every other setting. Nothing is served.
func (b *Backend) putBucketWebsite(call *core.Call, in *s3.PutBucketWebsiteInput) (*s3.PutBucketWebsiteOutput, error) {
	return &s3.PutBucketWebsiteOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		c := in.WebsiteConfiguration
		switch {
		case c == nil:
			return malformedXML()
		case c.RedirectAllRequestsTo != nil:
			if aws.ToString(c.RedirectAllRequestsTo.HostName) == "" {
				return malformedXML()
			}
			if c.IndexDocument != nil || c.ErrorDocument != nil || len(c.RoutingRules) > 0 {
				return core.Errorf("InvalidArgument", "RedirectAllRequestsTo cannot be provided in conjunction with other Routing Rules.")
			}
		case c.IndexDocument == nil:
			return core.Errorf("InvalidArgument", "A value for IndexDocument Suffix must be provided if RedirectAllRequestsTo is empty")
		case aws.ToString(c.IndexDocument.Suffix) == "" || strings.Contains(aws.ToString(c.IndexDocument.Suffix), "/"):
			return core.Errorf("InvalidArgument", "The IndexDocument Suffix is not well formed")
		}
		bk.website = c
		return nil
	})
}

// getBucketWebsite returns the website configuration, or NoSuchWebsiteConfiguration (404).
func (b *Backend) getBucketWebsite(call *core.Call, in *s3.GetBucketWebsiteInput) (*s3.GetBucketWebsiteOutput, error) {
	out := &s3.GetBucketWebsiteOutput{}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if bk.website == nil {
			return missing("NoSuchWebsiteConfiguration", "The specified bucket does not have a website configuration")
		}
		c := bk.website
		out.IndexDocument, out.ErrorDocument, out.RedirectAllRequestsTo, out.RoutingRules = c.IndexDocument, c.ErrorDocument, c.RedirectAllRequestsTo, c.RoutingRules
		return nil
	})
}

// deleteBucketWebsite removes the website configuration; removing none succeeds, as on AWS.
func (b *Backend) deleteBucketWebsite(call *core.Call, in *s3.DeleteBucketWebsiteInput) (*s3.DeleteBucketWebsiteOutput, error) {
	return &s3.DeleteBucketWebsiteOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error { bk.website = nil; return nil })
}

// putBucketReplication sets the bucket's replication rules. As AWS requires, the bucket must
// have versioning enabled, the configuration needs a role and 1 to 1000 rules, and each rule's
// destination (arn:aws:s3:::name) must be an existing bucket with versioning enabled. Nothing is
// replicated.
func (b *Backend) putBucketReplication(call *core.Call, in *s3.PutBucketReplicationInput) (*s3.PutBucketReplicationOutput, error) {
	return &s3.PutBucketReplicationOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		c := in.ReplicationConfiguration
		if c == nil || aws.ToString(c.Role) == "" || len(c.Rules) == 0 || len(c.Rules) > 1000 {
			return malformedXML()
		}
		if bk.versioning != types.BucketVersioningStatusEnabled {
			return core.Errorf("InvalidRequest", "Versioning must be 'Enabled' on the bucket to apply a replication configuration")
		}
		for _, r := range c.Rules {
			if r.Status != types.ReplicationRuleStatusEnabled && r.Status != types.ReplicationRuleStatusDisabled || r.Destination == nil {
				return malformedXML()
			}
			name, ok := strings.CutPrefix(aws.ToString(r.Destination.Bucket), "arn:aws:s3:::")
			if !ok {
				return core.Errorf("InvalidArgument", "Invalid bucket ARN.")
			}
			dest, ok := b.buckets[name]
			if !ok {
				return core.Errorf("InvalidRequest", "Destination bucket must exist.")
			}
			if dest.versioning != types.BucketVersioningStatusEnabled {
				return core.Errorf("InvalidRequest", "Destination bucket must have versioning enabled.")
			}
		}
		bk.replication = c
		return nil
	})
}

// getBucketReplication returns the replication configuration, or
// ReplicationConfigurationNotFoundError (404).
func (b *Backend) getBucketReplication(call *core.Call, in *s3.GetBucketReplicationInput) (*s3.GetBucketReplicationOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetBucketReplicationOutput, error) {
		return &s3.GetBucketReplicationOutput{ReplicationConfiguration: bk.replication}, absent(bk.replication == nil, "ReplicationConfigurationNotFoundError", "The replication configuration was not found")
	})
}

// deleteBucketReplication removes the replication configuration; removing none succeeds.
func (b *Backend) deleteBucketReplication(call *core.Call, in *s3.DeleteBucketReplicationInput) (*s3.DeleteBucketReplicationOutput, error) {
	return &s3.DeleteBucketReplicationOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error { bk.replication = nil; return nil })
}

// putObjectLockConfiguration enables Object Lock on a bucket, or changes its default retention.
// As AWS documents, the bucket must have versioning enabled (InvalidBucketState), Object Lock
// cannot be disabled once enabled, and a default retention needs a mode (GOVERNANCE or
// COMPLIANCE) and a positive period in Days or Years, not both. Objects are not retained:
// the emulator keeps the configuration only.
func (b *Backend) putObjectLockConfiguration(call *core.Call, in *s3.PutObjectLockConfigurationInput) (*s3.PutObjectLockConfigurationOutput, error) {
	return &s3.PutObjectLockConfigurationOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		c := in.ObjectLockConfiguration
		if c == nil || c.ObjectLockEnabled != types.ObjectLockEnabledEnabled {
			return malformedXML()
		}
		if bk.versioning != types.BucketVersioningStatusEnabled {
			return core.Errorf("InvalidBucketState", "Versioning must be 'Enabled' on the bucket to apply a Object Lock configuration")
		}
		if r := c.Rule; r != nil {
			d := r.DefaultRetention
			if d == nil || (d.Mode != types.ObjectLockRetentionModeGovernance && d.Mode != types.ObjectLockRetentionModeCompliance) ||
				(d.Days == nil) == (d.Years == nil) {
				return malformedXML()
			}
			if aws.ToInt32(d.Days) < 0 || aws.ToInt32(d.Years) < 0 || aws.ToInt32(d.Days)+aws.ToInt32(d.Years) == 0 {
				return core.Errorf("InvalidArgument", "Default retention period must be a positive integer value.")
			}
		}
		bk.objectLock = c
		return nil
	})
}

// getObjectLockConfiguration returns the Object Lock configuration of a bucket with Object
// Lock enabled, or ObjectLockConfigurationNotFoundError (404) for any other bucket.
func (b *Backend) getObjectLockConfiguration(call *core.Call, in *s3.GetObjectLockConfigurationInput) (*s3.GetObjectLockConfigurationOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetObjectLockConfigurationOutput, error) {
		return &s3.GetObjectLockConfigurationOutput{ObjectLockConfiguration: bk.objectLock}, absent(bk.objectLock == nil, "ObjectLockConfigurationNotFoundError", "Object Lock configuration does not exist for this bucket")
	})
}

// listAnalyticsConfigurations lists the bucket's storage class analysis configurations. The
// emulator keeps no analytics, Intelligent-Tiering, inventory or metrics configurations (their
// Put operations are not emulated), so this list and the three below are empty and never
// truncated, as AWS answers for a bucket without any.
func (b *Backend) listAnalyticsConfigurations(call *core.Call, in *s3.ListBucketAnalyticsConfigurationsInput) (*s3.ListBucketAnalyticsConfigurationsOutput, error) {
	return &s3.ListBucketAnalyticsConfigurationsOutput{IsTruncated: aws.Bool(false)}, b.withBucket(call, in.Bucket, onlyExists)
}

// listIntelligentTieringConfigurations lists the bucket's S3 Intelligent-Tiering configurations.
func (b *Backend) listIntelligentTieringConfigurations(call *core.Call, in *s3.ListBucketIntelligentTieringConfigurationsInput) (*s3.ListBucketIntelligentTieringConfigurationsOutput, error) {
	return &s3.ListBucketIntelligentTieringConfigurationsOutput{IsTruncated: aws.Bool(false)}, b.withBucket(call, in.Bucket, onlyExists)
}

// listInventoryConfigurations lists the bucket's inventory configurations.
func (b *Backend) listInventoryConfigurations(call *core.Call, in *s3.ListBucketInventoryConfigurationsInput) (*s3.ListBucketInventoryConfigurationsOutput, error) {
	return &s3.ListBucketInventoryConfigurationsOutput{IsTruncated: aws.Bool(false)}, b.withBucket(call, in.Bucket, onlyExists)
}

// listMetricsConfigurations lists the bucket's CloudWatch request metrics configurations.
func (b *Backend) listMetricsConfigurations(call *core.Call, in *s3.ListBucketMetricsConfigurationsInput) (*s3.ListBucketMetricsConfigurationsOutput, error) {
	return &s3.ListBucketMetricsConfigurationsOutput{IsTruncated: aws.Bool(false)}, b.withBucket(call, in.Bucket, onlyExists)
}

// onlyExists is what reads of things the emulator does not keep (configuration lists,
// multipart uploads) ask of the bucket: withBucket has checked that it exists and is the
// caller's, and nothing more is needed.
func onlyExists(*bucket) error { return nil }
