package emulator_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	dbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	snstypes "github.com/aws/aws-sdk-go-v2/service/sns/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestSQSListTagPurge covers listing, tagging and purging queues.
func TestSQSListTagPurge(t *testing.T) {
	_, c := sqsClient(t)
	ctx := context.Background()
	for _, name := range []string{"app-a", "app-b", "other"} {
		if _, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(name)}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := c.ListQueues(ctx, &sqs.ListQueuesInput{QueueNamePrefix: aws.String("app-"), MaxResults: aws.Int32(1)})
	if err != nil || len(list.QueueUrls) != 1 || list.NextToken == nil {
		t.Fatalf("first page = %+v, %v; want one URL and a next token", list, err)
	}
	next, err := c.ListQueues(ctx, &sqs.ListQueuesInput{QueueNamePrefix: aws.String("app-"), MaxResults: aws.Int32(1), NextToken: list.NextToken})
	if err != nil || len(next.QueueUrls) != 1 || next.NextToken != nil || !strings.HasSuffix(next.QueueUrls[0], "/app-b") {
		t.Fatalf("second page = %+v, %v", next, err)
	}
	url := list.QueueUrls[0]
	if _, err := c.TagQueue(ctx, &sqs.TagQueueInput{QueueUrl: &url, Tags: map[string]string{"a": "1", "b": "2"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UntagQueue(ctx, &sqs.UntagQueueInput{QueueUrl: &url, TagKeys: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	tags, err := c.ListQueueTags(ctx, &sqs.ListQueueTagsInput{QueueUrl: &url})
	if err != nil || len(tags.Tags) != 1 || tags.Tags["b"] != "2" {
		t.Errorf("tags after untag = %v, %v", tags, err)
	}
	if _, err := c.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: &url, MessageBody: aws.String("x")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PurgeQueue(ctx, &sqs.PurgeQueueInput{QueueUrl: &url}); err != nil {
		t.Fatal(err)
	}
	got, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: &url})
	if err != nil || len(got.Messages) != 0 {
		t.Errorf("a purged queue still delivers %v, %v", got, err)
	}
}

// TestSNSSubscriptionLifecycle covers confirmation, unsubscription, topic attributes and tags.
func TestSNSSubscriptionLifecycle(t *testing.T) {
	e, url := start(t, emulator.Options{})
	c := sns.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	topic, err := c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("alerts")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SetTopicAttributes(ctx, &sns.SetTopicAttributesInput{TopicArn: topic.TopicArn, AttributeName: aws.String("DisplayName"), AttributeValue: aws.String("Alerts")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SetTopicAttributes(ctx, &sns.SetTopicAttributesInput{TopicArn: topic.TopicArn, AttributeName: aws.String("FifoTopic"), AttributeValue: aws.String("true")}); errorCode(err) != "InvalidParameter" {
		t.Errorf("changing FifoTopic gave %v, want InvalidParameter", err)
	}
	sub, err := c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: topic.TopicArn, Protocol: aws.String("https"), Endpoint: aws.String("https://hooks.example.com/sns"), ReturnSubscriptionArn: true})
	if err != nil {
		t.Fatal(err)
	}
	attrs, err := c.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: sub.SubscriptionArn})
	if err != nil || attrs.Attributes["PendingConfirmation"] != "true" {
		t.Fatalf("an https subscription = %v, %v; want pending", attrs, err)
	}
	token := ""
	for _, sv := range e.Services() {
		if sv.ID == "SNS" {
			token = tokenFor(t, sv.Dump(), aws.ToString(sub.SubscriptionArn))
		}
	}
	if _, err := c.ConfirmSubscription(ctx, &sns.ConfirmSubscriptionInput{TopicArn: topic.TopicArn, Token: aws.String(token)}); err != nil {
		t.Fatal(err)
	}
	topicAttrs, err := c.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: topic.TopicArn})
	if err != nil || topicAttrs.Attributes["SubscriptionsConfirmed"] != "1" || topicAttrs.Attributes["DisplayName"] != "Alerts" {
		t.Errorf("after confirmation the topic reports %v, %v", topicAttrs, err)
	}
	if _, err := c.Unsubscribe(ctx, &sns.UnsubscribeInput{SubscriptionArn: sub.SubscriptionArn}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TagResource(ctx, &sns.TagResourceInput{ResourceArn: topic.TopicArn, Tags: []snstypes.Tag{{Key: aws.String("a"), Value: aws.String("1")}, {Key: aws.String("b"), Value: aws.String("2")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UntagResource(ctx, &sns.UntagResourceInput{ResourceArn: topic.TopicArn, TagKeys: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	tags, err := c.ListTagsForResource(ctx, &sns.ListTagsForResourceInput{ResourceArn: topic.TopicArn})
	if err != nil || len(tags.Tags) != 1 || aws.ToString(tags.Tags[0].Key) != "b" {
		t.Errorf("tags = %v, %v", tags, err)
	}
}

// tokenFor finds a subscription's confirmation token in the SNS state dump, as a person would
// read it from /_emulator/state.
func tokenFor(t *testing.T, dump any, arn string) string {
	t.Helper()
	state, ok := dump.(map[string]any)
	if !ok {
		t.Fatalf("unexpected SNS dump %T", dump)
	}
	attrs, ok := state[arn].(map[string]string)
	if !ok || attrs["ConfirmationToken"] == "" {
		t.Fatalf("no confirmation token for %s in %v", arn, state[arn])
	}
	return attrs["ConfirmationToken"]
}

// TestDynamoDBListAndTags covers listing tables and tagging them.
func TestDynamoDBListAndTags(t *testing.T) {
	_, url := start(t, emulator.Options{})
	c := dynamodb.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	var arn *string
	for _, name := range []string{"orders", "users"} {
		out, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: dbtypes.BillingModePayPerRequest,
			KeySchema: keys("id", ""), AttributeDefinitions: defs("id", "S")})
		if err != nil {
			t.Fatal(err)
		}
		arn = out.TableDescription.TableArn
	}
	list, err := c.ListTables(ctx, &dynamodb.ListTablesInput{Limit: aws.Int32(1)})
	if err != nil || len(list.TableNames) != 1 || aws.ToString(list.LastEvaluatedTableName) != "orders" {
		t.Fatalf("first page = %+v, %v", list, err)
	}
	rest, err := c.ListTables(ctx, &dynamodb.ListTablesInput{ExclusiveStartTableName: list.LastEvaluatedTableName})
	if err != nil || len(rest.TableNames) != 1 || rest.TableNames[0] != "users" {
		t.Fatalf("second page = %+v, %v", rest, err)
	}
	if _, err := c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: arn, Tags: []dbtypes.Tag{{Key: aws.String("a"), Value: aws.String("1")}, {Key: aws.String("b"), Value: aws.String("2")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UntagResource(ctx, &dynamodb.UntagResourceInput{ResourceArn: arn, TagKeys: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	tags, err := c.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: arn})
	if err != nil || len(tags.Tags) != 1 || aws.ToString(tags.Tags[0].Key) != "b" {
		t.Errorf("tags = %+v, %v", tags, err)
	}
}

// TestS3RemovingConfiguration covers the settings the data family sets and removes, and
// HeadObject.
func TestS3RemovingConfiguration(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ctx := context.Background()
	c := s3Client(t, url, "AKID", "us-east-1")
	bucket := aws.String("config-bucket")
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: bucket}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutPublicAccessBlock(ctx, &s3.PutPublicAccessBlockInput{Bucket: bucket, PublicAccessBlockConfiguration: &s3types.PublicAccessBlockConfiguration{
		BlockPublicAcls: aws.Bool(true), BlockPublicPolicy: aws.Bool(false)}}); err != nil {
		t.Fatal(err)
	}
	pab, err := c.GetPublicAccessBlock(ctx, &s3.GetPublicAccessBlockInput{Bucket: bucket})
	if err != nil || aws.ToBool(pab.PublicAccessBlockConfiguration.BlockPublicPolicy) || !aws.ToBool(pab.PublicAccessBlockConfiguration.BlockPublicAcls) {
		t.Errorf("public access block = %+v, %v", pab, err)
	}
	if _, err := c.PutBucketOwnershipControls(ctx, &s3.PutBucketOwnershipControlsInput{Bucket: bucket, OwnershipControls: &s3types.OwnershipControls{
		Rules: []s3types.OwnershipControlsRule{{ObjectOwnership: s3types.ObjectOwnershipBucketOwnerPreferred}}}}); err != nil {
		t.Fatal(err)
	}
	put := []func() error{
		func() error {
			_, err := c.PutBucketCors(ctx, &s3.PutBucketCorsInput{Bucket: bucket, CORSConfiguration: &s3types.CORSConfiguration{
				CORSRules: []s3types.CORSRule{{AllowedMethods: []string{"GET"}, AllowedOrigins: []string{"*"}}}}})
			return err
		},
		func() error {
			_, err := c.PutBucketTagging(ctx, &s3.PutBucketTaggingInput{Bucket: bucket, Tagging: &s3types.Tagging{TagSet: []s3types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}}})
			return err
		},
		func() error {
			_, err := c.PutBucketLifecycleConfiguration(ctx, &s3.PutBucketLifecycleConfigurationInput{Bucket: bucket, LifecycleConfiguration: &s3types.BucketLifecycleConfiguration{
				Rules: []s3types.LifecycleRule{{ID: aws.String("r"), Status: s3types.ExpirationStatusEnabled, Filter: &s3types.LifecycleRuleFilter{Prefix: aws.String("")},
					AbortIncompleteMultipartUpload: &s3types.AbortIncompleteMultipartUpload{DaysAfterInitiation: aws.Int32(7)}}}}})
			return err
		},
	}
	for _, p := range put {
		if err := p(); err != nil {
			t.Fatal(err)
		}
	}
	removals := map[string]struct {
		remove func() error
		check  func() error
		want   string
	}{
		"cors": {func() error { _, err := c.DeleteBucketCors(ctx, &s3.DeleteBucketCorsInput{Bucket: bucket}); return err },
			func() error { _, err := c.GetBucketCors(ctx, &s3.GetBucketCorsInput{Bucket: bucket}); return err }, "NoSuchCORSConfiguration"},
		"tagging": {func() error {
			_, err := c.DeleteBucketTagging(ctx, &s3.DeleteBucketTaggingInput{Bucket: bucket})
			return err
		},
			func() error { _, err := c.GetBucketTagging(ctx, &s3.GetBucketTaggingInput{Bucket: bucket}); return err }, "NoSuchTagSet"},
		"lifecycle": {func() error {
			_, err := c.DeleteBucketLifecycle(ctx, &s3.DeleteBucketLifecycleInput{Bucket: bucket})
			return err
		},
			func() error {
				_, err := c.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: bucket})
				return err
			}, "NoSuchLifecycleConfiguration"},
		"publicAccessBlock": {func() error {
			_, err := c.DeletePublicAccessBlock(ctx, &s3.DeletePublicAccessBlockInput{Bucket: bucket})
			return err
		},
			func() error {
				_, err := c.GetPublicAccessBlock(ctx, &s3.GetPublicAccessBlockInput{Bucket: bucket})
				return err
			}, "NoSuchPublicAccessBlockConfiguration"},
		"ownership": {func() error {
			_, err := c.DeleteBucketOwnershipControls(ctx, &s3.DeleteBucketOwnershipControlsInput{Bucket: bucket})
			return err
		}, func() error {
			_, err := c.GetBucketOwnershipControls(ctx, &s3.GetBucketOwnershipControlsInput{Bucket: bucket})
			return err
		}, "OwnershipControlsNotFoundError"},
		"encryption": {func() error {
			_, err := c.DeleteBucketEncryption(ctx, &s3.DeleteBucketEncryptionInput{Bucket: bucket})
			return err
		},
			func() error {
				_, err := c.GetBucketEncryption(ctx, &s3.GetBucketEncryptionInput{Bucket: bucket})
				return err
			}, ""},
	}
	for name, r := range removals {
		if err := r.remove(); err != nil {
			t.Fatalf("remove %s: %v", name, err)
		}
		if got := errorCode(r.check()); got != r.want {
			t.Errorf("after removing %s, reading it gave %q, want %q", name, got, r.want)
		}
	}
	if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: bucket, Key: aws.String("a.txt"), Body: strings.NewReader("abc")}); err != nil {
		t.Fatal(err)
	}
	head, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: bucket, Key: aws.String("a.txt")})
	if err != nil || aws.ToInt64(head.ContentLength) != 3 {
		t.Errorf("HeadObject = %+v, %v", head, err)
	}
	if _, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: bucket, Key: aws.String("missing.txt")}); errorCode(err) != "NotFound" {
		t.Errorf("HeadObject on a missing key gave %v", err)
	}
}
