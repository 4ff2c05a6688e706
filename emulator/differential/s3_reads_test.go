package differential

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// readers are the clients of one side for the reads sequences: S3 (path-style) and SQS.
type readers struct {
	s3  *s3.Client
	sqs *sqs.Client
}

// s3Read runs one S3 call and observes its error and the fields fields gives of its output.
func s3Read[O any](out *O, err error, fields func(*O) map[string]string) outcome {
	if err != nil {
		return observe(err, nil)
	}
	return observe(nil, fields(out))
}

// s3ReadsSteps reads a new bucket's configurations, sets the common ones and reads them back,
// and reads objects' tags, ACLs and attributes.
func s3ReadsSteps() []step[*readers] {
	ctx := context.Background()
	bucket, logs, replica := aws.String("diff-reads"), aws.String("diff-reads-logs"), aws.String("diff-reads-replica")
	create := func(name *string) func(c *readers) outcome {
		return func(c *readers) outcome {
			_, err := c.s3.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: name})
			return observe(err, nil)
		}
	}
	acl := func(o *s3.GetBucketAclOutput) map[string]string {
		var grants []string
		for _, g := range o.Grants {
			who := string(g.Grantee.Type)
			if g.Grantee.URI != nil {
				who += ":" + aws.ToString(g.Grantee.URI)
			}
			grants = append(grants, who+"/"+string(g.Permission))
		}
		return map[string]string{"grants": strings.Join(grants, ","), "ownerIsGrantee": fmt.Sprint(len(o.Grants) > 0 && aws.ToString(o.Grants[0].Grantee.ID) == aws.ToString(o.Owner.ID))}
	}
	return []step[*readers]{
		{"CreateBucket", create(bucket)},
		{"CreateLogsBucket", create(logs)},
		{"GetBucketAcl", func(c *readers) outcome {
			out, err := c.s3.GetBucketAcl(ctx, &s3.GetBucketAclInput{Bucket: bucket})
			return s3Read(out, err, acl)
		}},
		{"GetBucketAclMissingBucket", func(c *readers) outcome {
			_, err := c.s3.GetBucketAcl(ctx, &s3.GetBucketAclInput{Bucket: aws.String("diff-reads-missing")})
			return observe(err, nil)
		}},
		{"GetBucketAbac", func(c *readers) outcome {
			out, err := c.s3.GetBucketAbac(ctx, &s3.GetBucketAbacInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.GetBucketAbacOutput) map[string]string {
				status := ""
				if o.AbacStatus != nil {
					status = string(o.AbacStatus.Status)
				}
				return map[string]string{"status": status}
			})
		}},
		{"GetBucketAccelerate", func(c *readers) outcome {
			out, err := c.s3.GetBucketAccelerateConfiguration(ctx, &s3.GetBucketAccelerateConfigurationInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.GetBucketAccelerateConfigurationOutput) map[string]string {
				return map[string]string{"status": string(o.Status)}
			})
		}},
		{"GetBucketLogging", func(c *readers) outcome {
			out, err := c.s3.GetBucketLogging(ctx, &s3.GetBucketLoggingInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.GetBucketLoggingOutput) map[string]string {
				return map[string]string{"enabled": fmt.Sprint(o.LoggingEnabled != nil)}
			})
		}},
		{"GetBucketNotification", func(c *readers) outcome {
			out, err := c.s3.GetBucketNotificationConfiguration(ctx, &s3.GetBucketNotificationConfigurationInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.GetBucketNotificationConfigurationOutput) map[string]string {
				return map[string]string{"destinations": fmt.Sprint(len(o.QueueConfigurations) + len(o.TopicConfigurations) + len(o.LambdaFunctionConfigurations))}
			})
		}},
		{"GetBucketRequestPayment", func(c *readers) outcome {
			out, err := c.s3.GetBucketRequestPayment(ctx, &s3.GetBucketRequestPaymentInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.GetBucketRequestPaymentOutput) map[string]string {
				return map[string]string{"payer": string(o.Payer)}
			})
		}},
		{"GetBucketWebsite", func(c *readers) outcome {
			_, err := c.s3.GetBucketWebsite(ctx, &s3.GetBucketWebsiteInput{Bucket: bucket})
			return observe(err, nil)
		}},
		{"GetBucketReplication", func(c *readers) outcome {
			_, err := c.s3.GetBucketReplication(ctx, &s3.GetBucketReplicationInput{Bucket: bucket})
			return observe(err, nil)
		}},
		{"GetObjectLockConfiguration", func(c *readers) outcome {
			_, err := c.s3.GetObjectLockConfiguration(ctx, &s3.GetObjectLockConfigurationInput{Bucket: bucket})
			return observe(err, nil)
		}},
		{"GetBucketPolicyStatus", func(c *readers) outcome {
			_, err := c.s3.GetBucketPolicyStatus(ctx, &s3.GetBucketPolicyStatusInput{Bucket: bucket})
			return observe(err, nil)
		}},
		{"ListBucketAnalyticsConfigurations", func(c *readers) outcome {
			out, err := c.s3.ListBucketAnalyticsConfigurations(ctx, &s3.ListBucketAnalyticsConfigurationsInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.ListBucketAnalyticsConfigurationsOutput) map[string]string {
				return map[string]string{"n": fmt.Sprint(len(o.AnalyticsConfigurationList))}
			})
		}},
		{"ListBucketIntelligentTieringConfigurations", func(c *readers) outcome {
			out, err := c.s3.ListBucketIntelligentTieringConfigurations(ctx, &s3.ListBucketIntelligentTieringConfigurationsInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.ListBucketIntelligentTieringConfigurationsOutput) map[string]string {
				return map[string]string{"n": fmt.Sprint(len(o.IntelligentTieringConfigurationList))}
			})
		}},
		{"ListBucketInventoryConfigurations", func(c *readers) outcome {
			out, err := c.s3.ListBucketInventoryConfigurations(ctx, &s3.ListBucketInventoryConfigurationsInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.ListBucketInventoryConfigurationsOutput) map[string]string {
				return map[string]string{"n": fmt.Sprint(len(o.InventoryConfigurationList))}
			})
		}},
		{"ListBucketMetricsConfigurations", func(c *readers) outcome {
			out, err := c.s3.ListBucketMetricsConfigurations(ctx, &s3.ListBucketMetricsConfigurationsInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.ListBucketMetricsConfigurationsOutput) map[string]string {
				return map[string]string{"n": fmt.Sprint(len(o.MetricsConfigurationList))}
			})
		}},
		{"ListMultipartUploads", func(c *readers) outcome {
			out, err := c.s3.ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.ListMultipartUploadsOutput) map[string]string {
				return map[string]string{"n": fmt.Sprint(len(o.Uploads))}
			})
		}},
		{"PutBucketAclPublicReadEnforced", func(c *readers) outcome {
			_, err := c.s3.PutBucketAcl(ctx, &s3.PutBucketAclInput{Bucket: bucket, ACL: s3types.BucketCannedACLPublicRead})
			return observe(err, nil)
		}},
		{"PutBucketAclPrivate", func(c *readers) outcome {
			_, err := c.s3.PutBucketAcl(ctx, &s3.PutBucketAclInput{Bucket: bucket, ACL: s3types.BucketCannedACLPrivate})
			return observe(err, nil)
		}},
		{"PutBucketAccelerate", func(c *readers) outcome {
			_, err := c.s3.PutBucketAccelerateConfiguration(ctx, &s3.PutBucketAccelerateConfigurationInput{Bucket: bucket,
				AccelerateConfiguration: &s3types.AccelerateConfiguration{Status: s3types.BucketAccelerateStatusEnabled}})
			if err != nil {
				return observe(err, nil)
			}
			out, err := c.s3.GetBucketAccelerateConfiguration(ctx, &s3.GetBucketAccelerateConfigurationInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.GetBucketAccelerateConfigurationOutput) map[string]string {
				return map[string]string{"status": string(o.Status)}
			})
		}},
		{"PutBucketRequestPayment", func(c *readers) outcome {
			_, err := c.s3.PutBucketRequestPayment(ctx, &s3.PutBucketRequestPaymentInput{Bucket: bucket,
				RequestPaymentConfiguration: &s3types.RequestPaymentConfiguration{Payer: s3types.PayerRequester}})
			if err != nil {
				return observe(err, nil)
			}
			out, err := c.s3.GetBucketRequestPayment(ctx, &s3.GetBucketRequestPaymentInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.GetBucketRequestPaymentOutput) map[string]string {
				return map[string]string{"payer": string(o.Payer)}
			})
		}},
		{"PutBucketLogging", func(c *readers) outcome {
			// The target lets the logging service write (s3_replication_test.go compares a
			// target that does not).
			if _, err := c.s3.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: logs, Policy: aws.String(`{"Version":"2012-10-17","Statement":[{` +
				`"Effect":"Allow","Principal":{"Service":"logging.s3.amazonaws.com"},"Action":"s3:PutObject","Resource":"arn:aws:s3:::diff-reads-logs/*"}]}`)}); err != nil {
				return observe(err, nil)
			}
			_, err := c.s3.PutBucketLogging(ctx, &s3.PutBucketLoggingInput{Bucket: bucket, BucketLoggingStatus: &s3types.BucketLoggingStatus{
				LoggingEnabled: &s3types.LoggingEnabled{TargetBucket: logs, TargetPrefix: aws.String("access/")}}})
			if err != nil {
				return observe(err, nil)
			}
			out, err := c.s3.GetBucketLogging(ctx, &s3.GetBucketLoggingInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.GetBucketLoggingOutput) map[string]string {
				if o.LoggingEnabled == nil {
					return map[string]string{"target": ""}
				}
				return map[string]string{"target": aws.ToString(o.LoggingEnabled.TargetBucket) + "/" + aws.ToString(o.LoggingEnabled.TargetPrefix)}
			})
		}},
		{"PutBucketLoggingMissingTarget", func(c *readers) outcome {
			_, err := c.s3.PutBucketLogging(ctx, &s3.PutBucketLoggingInput{Bucket: bucket, BucketLoggingStatus: &s3types.BucketLoggingStatus{
				LoggingEnabled: &s3types.LoggingEnabled{TargetBucket: aws.String("diff-reads-missing"), TargetPrefix: aws.String("access/")}}})
			return observe(err, nil)
		}},
		{"PutBucketWebsite", func(c *readers) outcome {
			_, err := c.s3.PutBucketWebsite(ctx, &s3.PutBucketWebsiteInput{Bucket: bucket, WebsiteConfiguration: &s3types.WebsiteConfiguration{
				IndexDocument: &s3types.IndexDocument{Suffix: aws.String("index.html")}}})
			if err != nil {
				return observe(err, nil)
			}
			out, err := c.s3.GetBucketWebsite(ctx, &s3.GetBucketWebsiteInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.GetBucketWebsiteOutput) map[string]string {
				return map[string]string{"index": aws.ToString(o.IndexDocument.Suffix)}
			})
		}},
		{"DeleteBucketWebsite", func(c *readers) outcome {
			if _, err := c.s3.DeleteBucketWebsite(ctx, &s3.DeleteBucketWebsiteInput{Bucket: bucket}); err != nil {
				return observe(err, nil)
			}
			_, err := c.s3.GetBucketWebsite(ctx, &s3.GetBucketWebsiteInput{Bucket: bucket})
			return observe(err, nil)
		}},
		{"PutBucketNotification", func(c *readers) outcome {
			// The queue does not exist: the round trip skips destination validation
			// (s3_notifications_test.go compares it).
			_, err := c.s3.PutBucketNotificationConfiguration(ctx, &s3.PutBucketNotificationConfigurationInput{Bucket: bucket, SkipDestinationValidation: aws.Bool(true),
				NotificationConfiguration: &s3types.NotificationConfiguration{QueueConfigurations: []s3types.QueueConfiguration{{
					Id: aws.String("created"), QueueArn: aws.String("arn:aws:sqs:us-east-1:123456789012:diff-events"), Events: []s3types.Event{"s3:ObjectCreated:*"}}}}})
			if err != nil {
				return observe(err, nil)
			}
			out, err := c.s3.GetBucketNotificationConfiguration(ctx, &s3.GetBucketNotificationConfigurationInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.GetBucketNotificationConfigurationOutput) map[string]string {
				var ids []string
				for _, q := range o.QueueConfigurations {
					ids = append(ids, aws.ToString(q.Id)+"="+aws.ToString(q.QueueArn))
				}
				return map[string]string{"queues": strings.Join(ids, ",")}
			})
		}},
		{"PutObjectWithTags", func(c *readers) outcome {
			if _, err := c.s3.PutObject(ctx, &s3.PutObjectInput{Bucket: bucket, Key: aws.String("dir/a.txt"), Body: strings.NewReader("hello"),
				Tagging: aws.String("team=data&tier=hot")}); err != nil {
				return observe(err, nil)
			}
			out, err := c.s3.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: bucket, Key: aws.String("dir/a.txt")})
			return s3Read(out, err, objectTags)
		}},
		{"PutObjectTagging", func(c *readers) outcome {
			if _, err := c.s3.PutObjectTagging(ctx, &s3.PutObjectTaggingInput{Bucket: bucket, Key: aws.String("dir/a.txt"),
				Tagging: &s3types.Tagging{TagSet: []s3types.Tag{{Key: aws.String("owner"), Value: aws.String("me")}}}}); err != nil {
				return observe(err, nil)
			}
			out, err := c.s3.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: bucket, Key: aws.String("dir/a.txt")})
			return s3Read(out, err, objectTags)
		}},
		{"DeleteObjectTagging", func(c *readers) outcome {
			if _, err := c.s3.DeleteObjectTagging(ctx, &s3.DeleteObjectTaggingInput{Bucket: bucket, Key: aws.String("dir/a.txt")}); err != nil {
				return observe(err, nil)
			}
			out, err := c.s3.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: bucket, Key: aws.String("dir/a.txt")})
			return s3Read(out, err, objectTags)
		}},
		{"GetObjectTaggingMissingKey", func(c *readers) outcome {
			_, err := c.s3.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: bucket, Key: aws.String("missing")})
			return observe(err, nil)
		}},
		{"GetObjectAcl", func(c *readers) outcome {
			out, err := c.s3.GetObjectAcl(ctx, &s3.GetObjectAclInput{Bucket: bucket, Key: aws.String("dir/a.txt")})
			return s3Read(out, err, func(o *s3.GetObjectAclOutput) map[string]string {
				return acl(&s3.GetBucketAclOutput{Owner: o.Owner, Grants: o.Grants})
			})
		}},
		{"GetObjectAttributes", func(c *readers) outcome {
			out, err := c.s3.GetObjectAttributes(ctx, &s3.GetObjectAttributesInput{Bucket: bucket, Key: aws.String("dir/a.txt"),
				ObjectAttributes: []s3types.ObjectAttributes{s3types.ObjectAttributesEtag, s3types.ObjectAttributesObjectSize, s3types.ObjectAttributesStorageClass}})
			return s3Read(out, err, func(o *s3.GetObjectAttributesOutput) map[string]string {
				return map[string]string{"etag": aws.ToString(o.ETag), "size": fmt.Sprint(aws.ToInt64(o.ObjectSize)), "class": string(o.StorageClass)}
			})
		}},
		{"ListObjectsDelimiter", func(c *readers) outcome {
			if _, err := c.s3.PutObject(ctx, &s3.PutObjectInput{Bucket: bucket, Key: aws.String("top.txt"), Body: strings.NewReader("x")}); err != nil {
				return observe(err, nil)
			}
			out, err := c.s3.ListObjects(ctx, &s3.ListObjectsInput{Bucket: bucket, Delimiter: aws.String("/")})
			return s3Read(out, err, func(o *s3.ListObjectsOutput) map[string]string {
				var keys, prefixes []string
				for _, x := range o.Contents {
					keys = append(keys, aws.ToString(x.Key))
				}
				for _, p := range o.CommonPrefixes {
					prefixes = append(prefixes, aws.ToString(p.Prefix))
				}
				return map[string]string{"keys": strings.Join(keys, ","), "prefixes": strings.Join(prefixes, ","), "truncated": fmt.Sprint(aws.ToBool(o.IsTruncated))}
			})
		}},
		{"PutBucketReplicationUnversioned", func(c *readers) outcome {
			_, err := c.s3.PutBucketReplication(ctx, &s3.PutBucketReplicationInput{Bucket: bucket, ReplicationConfiguration: replication()})
			return observe(err, nil)
		}},
		{"CreateReplicaBucket", create(replica)},
		{"PutBucketReplication", func(c *readers) outcome {
			for _, b := range []*string{bucket, replica} {
				if _, err := c.s3.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: b,
					VersioningConfiguration: &s3types.VersioningConfiguration{Status: s3types.BucketVersioningStatusEnabled}}); err != nil {
					return observe(err, nil)
				}
			}
			if _, err := c.s3.PutBucketReplication(ctx, &s3.PutBucketReplicationInput{Bucket: bucket, ReplicationConfiguration: replication()}); err != nil {
				return observe(err, nil)
			}
			out, err := c.s3.GetBucketReplication(ctx, &s3.GetBucketReplicationInput{Bucket: bucket})
			return s3Read(out, err, func(o *s3.GetBucketReplicationOutput) map[string]string {
				return map[string]string{"rules": fmt.Sprint(len(o.ReplicationConfiguration.Rules)), "role": aws.ToString(o.ReplicationConfiguration.Role)}
			})
		}},
		{"DeleteBucketReplication", func(c *readers) outcome {
			if _, err := c.s3.DeleteBucketReplication(ctx, &s3.DeleteBucketReplicationInput{Bucket: bucket}); err != nil {
				return observe(err, nil)
			}
			_, err := c.s3.GetBucketReplication(ctx, &s3.GetBucketReplicationInput{Bucket: bucket})
			return observe(err, nil)
		}},
		{"CreateObjectLockBucket", func(c *readers) outcome {
			name := aws.String("diff-reads-locked")
			if _, err := c.s3.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: name, ObjectLockEnabledForBucket: aws.Bool(true)}); err != nil {
				return observe(err, nil)
			}
			out, err := c.s3.GetObjectLockConfiguration(ctx, &s3.GetObjectLockConfigurationInput{Bucket: name})
			return s3Read(out, err, func(o *s3.GetObjectLockConfigurationOutput) map[string]string {
				return map[string]string{"enabled": string(o.ObjectLockConfiguration.ObjectLockEnabled)}
			})
		}},
		{"PutObjectLockConfiguration", func(c *readers) outcome {
			name := aws.String("diff-reads-locked")
			if _, err := c.s3.PutObjectLockConfiguration(ctx, &s3.PutObjectLockConfigurationInput{Bucket: name, ObjectLockConfiguration: &s3types.ObjectLockConfiguration{
				ObjectLockEnabled: s3types.ObjectLockEnabledEnabled, Rule: &s3types.ObjectLockRule{DefaultRetention: &s3types.DefaultRetention{
					Mode: s3types.ObjectLockRetentionModeGovernance, Days: aws.Int32(30)}}}}); err != nil {
				return observe(err, nil)
			}
			out, err := c.s3.GetObjectLockConfiguration(ctx, &s3.GetObjectLockConfigurationInput{Bucket: name})
			return s3Read(out, err, func(o *s3.GetObjectLockConfigurationOutput) map[string]string {
				r := o.ObjectLockConfiguration.Rule
				if r == nil || r.DefaultRetention == nil {
					return map[string]string{"retention": ""}
				}
				return map[string]string{"retention": string(r.DefaultRetention.Mode) + "/" + fmt.Sprint(aws.ToInt32(r.DefaultRetention.Days))}
			})
		}},
		{"PutObjectLockConfigurationUnversioned", func(c *readers) outcome {
			_, err := c.s3.PutObjectLockConfiguration(ctx, &s3.PutObjectLockConfigurationInput{Bucket: logs, ObjectLockConfiguration: &s3types.ObjectLockConfiguration{
				ObjectLockEnabled: s3types.ObjectLockEnabledEnabled}})
			return observe(err, nil)
		}},
		{"PutPublicPolicyStatus", func(c *readers) outcome {
			if _, err := c.s3.DeletePublicAccessBlock(ctx, &s3.DeletePublicAccessBlockInput{Bucket: logs}); err != nil {
				return observe(err, nil)
			}
			if _, err := c.s3.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: logs, Policy: aws.String(
				`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::diff-reads-logs/*"}]}`)}); err != nil {
				return observe(err, nil)
			}
			out, err := c.s3.GetBucketPolicyStatus(ctx, &s3.GetBucketPolicyStatusInput{Bucket: logs})
			return s3Read(out, err, func(o *s3.GetBucketPolicyStatusOutput) map[string]string {
				return map[string]string{"public": fmt.Sprint(aws.ToBool(o.PolicyStatus.IsPublic))}
			})
		}},
	}
}

// objectTags observes an object's tag set as "key=value" pairs in key order.
func objectTags(o *s3.GetObjectTaggingOutput) map[string]string {
	var tags []string
	for _, t := range o.TagSet {
		tags = append(tags, aws.ToString(t.Key)+"="+aws.ToString(t.Value))
	}
	sort.Strings(tags)
	return map[string]string{"tags": strings.Join(tags, ",")}
}

// replication is a one-rule replication configuration into diff-reads-replica.
func replication() *s3types.ReplicationConfiguration {
	return &s3types.ReplicationConfiguration{Role: aws.String("arn:aws:iam::123456789012:role/replication"),
		Rules: []s3types.ReplicationRule{{ID: aws.String("all"), Status: s3types.ReplicationRuleStatusEnabled, Priority: aws.Int32(1),
			Filter:                  &s3types.ReplicationRuleFilter{Prefix: aws.String("")},
			DeleteMarkerReplication: &s3types.DeleteMarkerReplication{Status: s3types.DeleteMarkerReplicationStatusDisabled},
			Destination:             &s3types.Destination{Bucket: aws.String("arn:aws:s3:::diff-reads-replica")}}}}
}

// sqsReadsSteps checks RedrivePolicy's number and message attributes on receive.
func sqsReadsSteps() []step[*readers] {
	ctx := context.Background()
	queueURL := func(c *readers, name string) *string {
		out, err := c.sqs.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String(name)})
		if err != nil {
			return aws.String("missing")
		}
		return out.QueueUrl
	}
	return []step[*readers]{
		{"CreateDeadLetterQueue", func(c *readers) outcome {
			_, err := c.sqs.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("diff-reads-dlq")})
			return observe(err, nil)
		}},
		{"RedrivePolicyStringCount", func(c *readers) outcome {
			arn, err := c.sqs.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: queueURL(c, "diff-reads-dlq"), AttributeNames: []sqstypes.QueueAttributeName{"QueueArn"}})
			if err != nil {
				return observe(err, nil)
			}
			q, err := c.sqs.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("diff-reads-source"), Attributes: map[string]string{
				"RedrivePolicy": `{"deadLetterTargetArn":"` + arn.Attributes["QueueArn"] + `","maxReceiveCount":"5"}`}})
			if err != nil {
				return observe(err, nil)
			}
			out, err := c.sqs.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: q.QueueUrl, AttributeNames: []sqstypes.QueueAttributeName{"RedrivePolicy"}})
			if err != nil {
				return observe(err, nil)
			}
			var policy map[string]any
			if err := json.Unmarshal([]byte(out.Attributes["RedrivePolicy"]), &policy); err != nil {
				return observe(nil, map[string]string{"policy": "not JSON: " + out.Attributes["RedrivePolicy"]})
			}
			count := policy["maxReceiveCount"]
			return observe(nil, map[string]string{"maxReceiveCount": fmt.Sprintf("%T %v", count, count)})
		}},
		{"ListDeadLetterSourceQueues", func(c *readers) outcome {
			out, err := c.sqs.ListDeadLetterSourceQueues(ctx, &sqs.ListDeadLetterSourceQueuesInput{QueueUrl: queueURL(c, "diff-reads-dlq")})
			if err != nil {
				return observe(err, nil)
			}
			var names []string
			for _, u := range out.QueueUrls {
				names = append(names, lastSegment(u))
			}
			return observe(nil, map[string]string{"queues": strings.Join(names, ",")})
		}},
		{"SendMessagesWithAttributes", func(c *readers) outcome {
			var md5s []string
			for range 2 {
				out, err := c.sqs.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: queueURL(c, "diff-reads-source"), MessageBody: aws.String("hello"),
					MessageAttributes: map[string]sqstypes.MessageAttributeValue{
						"trace.id":   {DataType: aws.String("String"), StringValue: aws.String("abc")},
						"trace.span": {DataType: aws.String("Number"), StringValue: aws.String("42")},
						"payload":    {DataType: aws.String("Binary"), BinaryValue: []byte("Hello binary world!")},
					}})
				if err != nil {
					return observe(err, nil)
				}
				md5s = append(md5s, aws.ToString(out.MD5OfMessageAttributes))
			}
			return observe(nil, map[string]string{"md5": strings.Join(md5s, ",")})
		}},
		{"ReceiveWithoutNames", func(c *readers) outcome {
			out, err := c.sqs.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: queueURL(c, "diff-reads-source")})
			if err != nil || len(out.Messages) != 1 {
				return observe(err, map[string]string{"messages": "not 1"})
			}
			m := out.Messages[0]
			return observe(nil, map[string]string{"messageAttributes": fmt.Sprint(len(m.MessageAttributes)), "attributes": fmt.Sprint(len(m.Attributes))})
		}},
		{"ReceiveWithNames", func(c *readers) outcome {
			out, err := c.sqs.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: queueURL(c, "diff-reads-source"), MessageAttributeNames: []string{"trace.*"},
				MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{"ApproximateReceiveCount", "SentTimestamp"}})
			if err != nil || len(out.Messages) != 1 {
				return observe(err, map[string]string{"messages": "not 1"})
			}
			m := out.Messages[0]
			var names, system []string
			for k := range m.MessageAttributes {
				names = append(names, k)
			}
			for k := range m.Attributes {
				system = append(system, k)
			}
			sort.Strings(names)
			sort.Strings(system)
			return observe(nil, map[string]string{"messageAttributes": strings.Join(names, ","), "attributes": strings.Join(system, ","),
				"md5": aws.ToString(m.MD5OfMessageAttributes)})
		}},
	}
}

// TestReadsAgainstMoto compares the S3 bucket and object reads and writes, and SQS's redrive
// policy and message attributes, with moto_server's.
func TestReadsAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	side := func(url string) *readers {
		cfg := sdkConfig(t, url)
		return &readers{s3: s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true }), sqs: sqs.NewFromConfig(cfg)}
	}
	emuSide, peerSide := side(emu.URL), side(peerURL)
	compare(t, emuSide, peerSide, "moto "+motoVersion, s3ReadsSteps(), map[string]string{
		"GetBucketAbac":           "moto 5.2.1 predates GetBucketAbac and answers the request with no AbacStatus; AWS documents Status Enabled or Disabled, and ABAC is disabled until PutBucketAbac enables it",
		"GetBucketRequestPayment": "moto's answer carries no Payer the SDK reads; AWS answers BucketOwner for a bucket where it was never set (GetBucketRequestPayment)",
		"PutBucketRequestPayment": "moto's GetBucketRequestPayment carries no Payer the SDK reads; AWS returns the payer set (Requester)",
		"GetBucketPolicyStatus": "moto answers an empty policy status for a bucket without a policy; AWS answers NoSuchBucketPolicy (404), " +
			"as CloudTrail records of GetBucketPolicyStatus show",
		"PutBucketAclPublicReadEnforced": "moto applies public-read to a new bucket; since April 2023 new buckets have ObjectOwnership " +
			"BucketOwnerEnforced, and AWS refuses every ACL but the owner's full control with AccessControlListNotSupported (400)",
		"GetObjectAttributes":   "moto sends Last-Modified in ISO 8601, which the SDK cannot parse; AWS sends an HTTP date",
		"PutPublicPolicyStatus": "moto reports a policy allowing Principal \"*\" without a condition as not public; AWS reports it public (IsPublic true)",
	})
	compare(t, emuSide, peerSide, "moto "+motoVersion, sqsReadsSteps(), map[string]string{})
}
