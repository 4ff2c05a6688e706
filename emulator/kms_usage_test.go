package emulator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/runner-codes/infra-operator/emulator"
)

// keyStates names a KMS key in each state that another service may be given: "usable" (an alias
// of an enabled symmetric encryption key, whose key ARN is usableARN), "missing" (a key ID that
// names no key), "disabled", "pendingDeletion" and "asymmetric" (an RSA encryption key).
type keyStates struct {
	kms       *kms.Client
	ids       map[string]string
	usableARN string
}

// newKeyStates makes the keys of keyStates in the emulator at url, in the default account.
func newKeyStates(t *testing.T, url string) keyStates {
	t.Helper()
	ctx := context.Background()
	c := kms.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	usable := newKey(t, c, nil)
	if _, err := c.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("alias/app"), TargetKeyId: usable.KeyId}); err != nil {
		t.Fatal(err)
	}
	disabled := newKey(t, c, nil)
	if _, err := c.DisableKey(ctx, &kms.DisableKeyInput{KeyId: disabled.KeyId}); err != nil {
		t.Fatal(err)
	}
	pending := newKey(t, c, nil)
	if _, err := c.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: pending.KeyId, PendingWindowInDays: aws.Int32(7)}); err != nil {
		t.Fatal(err)
	}
	rsa := newKey(t, c, &kms.CreateKeyInput{KeySpec: kmstypes.KeySpecRsa2048, KeyUsage: kmstypes.KeyUsageTypeEncryptDecrypt})
	return keyStates{kms: c, usableARN: aws.ToString(usable.Arn), ids: map[string]string{
		"usable": "alias/app", "missing": "1234abcd-12ab-34cd-56ef-1234567890ab", "disabled": aws.ToString(disabled.KeyId),
		"pendingDeletion": aws.ToString(pending.KeyId), "asymmetric": aws.ToString(rsa.Arn),
	}}
}

// TestSQSChecksKMSKeyWhenUsed checks that SQS takes any KmsMasterKeyId when a queue is created
// and refuses a message when the key could not encrypt it, with the error SQS models for
// SendMessage (its awsQuery code, which the SDK reports).
func TestSQSChecksKMSKeyWhenUsed(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ks := newKeyStates(t, url)
	c := sqs.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	cases := map[string]struct {
		reason string
		key    string
		want   string
	}{
		"usable":          {reason: "An enabled symmetric encryption key encrypts the message.", key: "usable", want: ""},
		"missing":         {reason: "A key that does not exist cannot encrypt.", key: "missing", want: "KMS.NotFoundException"},
		"disabled":        {reason: "A disabled key cannot encrypt.", key: "disabled", want: "KMS.DisabledException"},
		"pendingDeletion": {reason: "A key scheduled for deletion cannot encrypt.", key: "pendingDeletion", want: "KMS.InvalidStateException"},
		"asymmetric":      {reason: "An RSA key cannot make data keys.", key: "asymmetric", want: "KMS.InvalidKeyUsageException"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			q, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("encrypted-" + name),
				Attributes: map[string]string{"KmsMasterKeyId": ks.ids[tc.key]}})
			if err != nil {
				t.Fatalf("CreateQueue with the %s key: %v; SQS does not check the key when the queue is created", tc.key, err)
			}
			_, err = c.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: q.QueueUrl, MessageBody: aws.String("hello")})
			if got := errorCode(err); got != tc.want {
				t.Errorf("%s\nSendMessage with the %s key gave %q (%v), want %q", tc.reason, tc.key, got, err, tc.want)
			}
		})
	}

	t.Run("keyDisabledAfterSend", func(t *testing.T) {
		key := newKey(t, ks.kms, nil)
		q, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("later"), Attributes: map[string]string{"KmsMasterKeyId": aws.ToString(key.Arn)}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: q.QueueUrl, MessageBody: aws.String("kept")}); err != nil {
			t.Fatal(err)
		}
		if _, err := ks.kms.DisableKey(ctx, &kms.DisableKeyInput{KeyId: key.KeyId}); err != nil {
			t.Fatal(err)
		}
		// The message keeps the key it was encrypted with, even once the queue has none.
		if _, err := c.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: q.QueueUrl, Attributes: map[string]string{"KmsMasterKeyId": ""}}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: q.QueueUrl}); errorCode(err) != "KMS.DisabledException" {
			t.Errorf("receiving a message whose key is disabled gave %v, want KMS.DisabledException", err)
		}
		if _, err := ks.kms.EnableKey(ctx, &kms.EnableKeyInput{KeyId: key.KeyId}); err != nil {
			t.Fatal(err)
		}
		out, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: q.QueueUrl})
		if err != nil || len(out.Messages) != 1 || aws.ToString(out.Messages[0].Body) != "kept" {
			t.Errorf("once the key is enabled again, ReceiveMessage gave %v, %v; want the message", out, err)
		}
	})
}

// TestSNSChecksKMSKeyWhenPublishing checks that SNS takes any KmsMasterKeyId when a topic is
// created and refuses Publish when the key could not encrypt, and that delivery to a queue whose
// key is disabled fails without the publisher knowing.
func TestSNSChecksKMSKeyWhenPublishing(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ks := newKeyStates(t, url)
	c := sns.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	cases := map[string]struct {
		reason string
		key    string
		want   string
	}{
		"usable":          {reason: "An enabled symmetric encryption key encrypts the message.", key: "usable", want: ""},
		"missing":         {reason: "A key that does not exist cannot encrypt.", key: "missing", want: "KMSNotFound"},
		"disabled":        {reason: "A disabled key cannot encrypt.", key: "disabled", want: "KMSDisabled"},
		"pendingDeletion": {reason: "A key scheduled for deletion cannot encrypt.", key: "pendingDeletion", want: "KMSInvalidState"},
		"asymmetric":      {reason: "SNS models no key usage error; KMSInvalidState is the closest.", key: "asymmetric", want: "KMSInvalidState"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			topic, err := c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("encrypted-" + name),
				Attributes: map[string]string{"KmsMasterKeyId": ks.ids[tc.key]}})
			if err != nil {
				t.Fatalf("CreateTopic with the %s key: %v; SNS does not check the key when the topic is created", tc.key, err)
			}
			_, err = c.Publish(ctx, &sns.PublishInput{TopicArn: topic.TopicArn, Message: aws.String("hello")})
			if got := errorCode(err); got != tc.want {
				t.Errorf("%s\nPublish with the %s key gave %q (%v), want %q", tc.reason, tc.key, got, err, tc.want)
			}
		})
	}

	t.Run("deliveryToQueueWithDisabledKey", func(t *testing.T) {
		queues := sqs.NewFromConfig(sdkConfig(t, url, "AKID", 1))
		topic, err := c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("plain")})
		if err != nil {
			t.Fatal(err)
		}
		queueARN := "arn:aws:sqs:us-east-1:000000000000:sealed"
		policy := `{"Statement":[{"Effect":"Allow","Principal":{"Service":"sns.amazonaws.com"},"Action":"sqs:SendMessage","Resource":"` + queueARN + `"}]}`
		q, err := queues.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("sealed"),
			Attributes: map[string]string{"KmsMasterKeyId": ks.ids["disabled"], "Policy": policy}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: topic.TopicArn, Protocol: aws.String("sqs"), Endpoint: aws.String(queueARN),
			Attributes: map[string]string{"RawMessageDelivery": "true"}}); err != nil {
			t.Fatal(err)
		}
		publish := func() {
			t.Helper()
			if _, err := c.Publish(ctx, &sns.PublishInput{TopicArn: topic.TopicArn, Message: aws.String("hello")}); err != nil {
				t.Fatalf("Publish to an unencrypted topic: %v; a failed delivery is not the publisher's error", err)
			}
		}
		publish()
		if _, err := queues.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: q.QueueUrl, Attributes: map[string]string{"KmsMasterKeyId": ks.ids["usable"]}}); err != nil {
			t.Fatal(err)
		}
		publish()
		out, err := queues.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: q.QueueUrl, MaxNumberOfMessages: 10})
		if err != nil || len(out.Messages) != 1 {
			t.Errorf("the queue holds %v (%v); want only the message delivered once its key was usable", out, err)
		}
	})
}

// TestS3ChecksKMSKeyWhenStoring checks that S3 takes any key in a default encryption
// configuration and checks it when it stores an object under SSE-KMS, and that objects report
// how they are encrypted.
func TestS3ChecksKMSKeyWhenStoring(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ks := newKeyStates(t, url)
	c := s3Client(t, url, "AKID", "us-east-1")
	ctx := context.Background()
	cases := map[string]struct {
		reason string
		key    string
		want   string
	}{
		"usable":          {reason: "An enabled symmetric encryption key encrypts the object.", key: "usable", want: ""},
		"missing":         {reason: "A key that does not exist cannot encrypt.", key: "missing", want: "KMS.NotFoundException"},
		"disabled":        {reason: "A disabled key cannot encrypt.", key: "disabled", want: "KMS.DisabledException"},
		"pendingDeletion": {reason: "A key scheduled for deletion cannot encrypt.", key: "pendingDeletion", want: "KMS.KMSInvalidStateException"},
		"asymmetric":      {reason: "An RSA key cannot make data keys.", key: "asymmetric", want: "KMS.InvalidKeyUsageException"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			bucket := aws.String("encrypted-" + strings.ToLower(name))
			if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: bucket}); err != nil {
				t.Fatal(err)
			}
			if _, err := c.PutBucketEncryption(ctx, &s3.PutBucketEncryptionInput{Bucket: bucket, ServerSideEncryptionConfiguration: &s3types.ServerSideEncryptionConfiguration{
				Rules: []s3types.ServerSideEncryptionRule{{ApplyServerSideEncryptionByDefault: &s3types.ServerSideEncryptionByDefault{
					SSEAlgorithm: s3types.ServerSideEncryptionAwsKms, KMSMasterKeyID: aws.String(ks.ids[tc.key])}}}}}); err != nil {
				t.Fatalf("PutBucketEncryption with the %s key: %v; S3 does not validate the key there", tc.key, err)
			}
			out, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: bucket, Key: aws.String("a"), Body: strings.NewReader("hello")})
			if got := errorCode(err); got != tc.want {
				t.Fatalf("%s\nPutObject with the %s key gave %q (%v), want %q", tc.reason, tc.key, got, err, tc.want)
			}
			if err != nil {
				return
			}
			head, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: bucket, Key: aws.String("a")})
			if err != nil {
				t.Fatal(err)
			}
			for op, got := range map[string][2]string{
				"PutObject":  {string(out.ServerSideEncryption), aws.ToString(out.SSEKMSKeyId)},
				"HeadObject": {string(head.ServerSideEncryption), aws.ToString(head.SSEKMSKeyId)},
			} {
				if want := [2]string{"aws:kms", ks.usableARN}; got != want {
					t.Errorf("%s reports encryption %v, want %v (the key by its ARN)", op, got, want)
				}
			}
		})
	}

	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("plain")}); err != nil {
		t.Fatal(err)
	}
	managed, err := ks.kms.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: aws.String("alias/aws/s3")})
	if err != nil {
		t.Fatal(err)
	}
	requests := map[string]struct {
		reason        string
		args          s3.PutObjectInput
		want, wantKey string
	}{
		"default": {reason: "A bucket without default encryption encrypts with SSE-S3.",
			want: "AES256"},
		"headerKey": {reason: "The request's headers choose SSE-KMS and its key.",
			args: s3.PutObjectInput{ServerSideEncryption: s3types.ServerSideEncryptionAwsKms, SSEKMSKeyId: aws.String(ks.ids["usable"])}, want: "aws:kms", wantKey: ks.usableARN},
		"headerWithoutKey": {reason: "SSE-KMS without a key uses S3's AWS managed key.",
			args: s3.PutObjectInput{ServerSideEncryption: s3types.ServerSideEncryptionAwsKms}, want: "aws:kms", wantKey: aws.ToString(managed.KeyMetadata.Arn)},
		"keyWithoutKMS": {reason: "A key needs x-amz-server-side-encryption: aws:kms.",
			args: s3.PutObjectInput{SSEKMSKeyId: aws.String(ks.ids["usable"])}, want: "InvalidArgument"},
		"headerDisabledKey": {reason: "A key named in the headers is checked as well.",
			args: s3.PutObjectInput{ServerSideEncryption: s3types.ServerSideEncryptionAwsKms, SSEKMSKeyId: aws.String(ks.ids["disabled"])}, want: "KMS.DisabledException"},
	}
	for name, tc := range requests {
		t.Run(name, func(t *testing.T) {
			in := tc.args
			in.Bucket, in.Key, in.Body = aws.String("plain"), aws.String(name), strings.NewReader("hello")
			out, err := c.PutObject(ctx, &in)
			got := errorCode(err)
			if err == nil {
				got = string(out.ServerSideEncryption)
			}
			if got != tc.want || err == nil && aws.ToString(out.SSEKMSKeyId) != tc.wantKey {
				t.Errorf("%s\nPutObject gave %q with key %q (%v), want %q with key %q", tc.reason, got, aws.ToString(out.SSEKMSKeyId), err, tc.want, tc.wantKey)
			}
		})
	}
}

// TestDynamoDBChecksKMSKey checks that CreateTable and UpdateTable refuse a KMS key that could
// not encrypt with the errors AWS answers, leaving no table behind and an updated table as it
// was, and report a usable key by its ARN.
func TestDynamoDBChecksKMSKey(t *testing.T) {
	e, url := start(t, emulator.Options{})
	e.Clock.Freeze()
	ks := newKeyStates(t, url)
	c := dynamodb.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	create := func(name, key string) (*dynamodb.CreateTableOutput, error) {
		return c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), KeySchema: keys("id", ""),
			AttributeDefinitions: defs("id", "S"), BillingMode: ddbtypes.BillingModePayPerRequest,
			SSESpecification: &ddbtypes.SSESpecification{Enabled: aws.Bool(true), SSEType: ddbtypes.SSETypeKms, KMSMasterKeyId: aws.String(key)}})
	}
	cases := map[string]struct {
		reason      string
		key         string
		want        string
		wantMessage string
	}{
		"usable": {reason: "An enabled symmetric encryption key encrypts the table.", key: "usable"},
		"missing": {reason: "DynamoDB quotes KMS's NotFoundException.", key: "missing", want: "ValidationException",
			wantMessage: "KMS validation error: com.amazonaws.services.kms.model.NotFoundException: Key 'arn:aws:kms:us-east-1:000000000000:key/1234abcd-12ab-34cd-56ef-1234567890ab' does not exist (Service: AWSKMS; Status Code: 400; Error Code: NotFoundException;"},
		"disabled": {reason: "DynamoDB quotes KMS's DisabledException.", key: "disabled", want: "ValidationException",
			wantMessage: "KMS key disabled error: com.amazonaws.services.kms.model.DisabledException: arn:aws:kms:us-east-1:000000000000:key/"},
		"pendingDeletion": {reason: "DynamoDB quotes KMS's KMSInvalidStateException.", key: "pendingDeletion", want: "ValidationException",
			wantMessage: "KMS validation error: com.amazonaws.services.kms.model.KMSInvalidStateException: arn:aws:kms:us-east-1:000000000000:key/"},
		"asymmetric": {reason: "KMS refuses the grant of an RSA key, which DynamoDB answers with HTTP 500.", key: "asymmetric", want: "InternalServerError",
			wantMessage: "KMS internal error: com.amazonaws.services.kms.model.AWSKMSException: EncryptionContext is supported only when creating a grant for a symmetric encryption KMS key."},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := create("orders-"+name, ks.ids[tc.key])
			if got := errorCode(err); got != tc.want || err != nil && !strings.Contains(err.Error(), tc.wantMessage) {
				t.Fatalf("%s\nCreateTable with the %s key gave %q (%v), want %q with %q", tc.reason, tc.key, got, err, tc.want, tc.wantMessage)
			}
			if err == nil {
				if got := aws.ToString(out.TableDescription.SSEDescription.KMSMasterKeyArn); got != ks.usableARN {
					t.Errorf("the table's key is %q, want the key ARN %q", got, ks.usableARN)
				}
				return
			}
			if _, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders-" + name)}); errorCode(err) != "ResourceNotFoundException" {
				t.Errorf("after a refused CreateTable, DescribeTable gave %v; want ResourceNotFoundException", err)
			}
		})
	}

	e.Clock.Advance(3 * time.Second)
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders-usable"), DeletionProtectionEnabled: aws.Bool(true),
		SSESpecification: &ddbtypes.SSESpecification{Enabled: aws.Bool(true), SSEType: ddbtypes.SSETypeKms, KMSMasterKeyId: aws.String(ks.ids["disabled"])}})
	if errorCode(err) != "ValidationException" {
		t.Errorf("UpdateTable to a disabled key gave %v, want ValidationException", err)
	}
	got, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders-usable")})
	if err != nil {
		t.Fatal(err)
	}
	if tbl := got.Table; tbl.TableStatus != ddbtypes.TableStatusActive || aws.ToBool(tbl.DeletionProtectionEnabled) ||
		aws.ToString(tbl.SSEDescription.KMSMasterKeyArn) != ks.usableARN {
		t.Errorf("after a refused UpdateTable the table is %s, protected %v, key %q; want it unchanged", tbl.TableStatus,
			aws.ToBool(tbl.DeletionProtectionEnabled), aws.ToString(tbl.SSEDescription.KMSMasterKeyArn))
	}
}
