package differential

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// encrypting is one side's clients of KMS and of the services that encrypt with a KMS key, and
// what the steps made: an enabled key, a disabled key, and the queues and topics that use them.
type encrypting struct {
	kms           *kms.Client
	sqs           *sqs.Client
	sns           *sns.Client
	s3            *s3.Client
	dynamodb      *dynamodb.Client
	keyID, keyARN string
	disabledID    string
	queues        map[string]*string
	topics        map[string]*string
	missingKeyARN string
}

// sealedBucket is the bucket the steps encrypt with a KMS key.
const sealedBucket = "diff-sealed-objects"

// encryptionSteps is the sequence both sides run: each service given an enabled key, a disabled
// key and a key that does not exist, where it takes the key and where it uses it.
func encryptionSteps() []step[*encrypting] {
	ctx := context.Background()
	keyOf := func(c *encrypting, which string) string {
		switch which {
		case "enabled":
			return c.keyID
		case "disabled":
			return c.disabledID
		}
		return c.missingKeyARN
	}
	// sameKey tells whether a key a service reports is the enabled key, by its ARN or its ID.
	sameKey := func(c *encrypting, reported string) string {
		switch reported {
		case c.keyARN:
			return "arn"
		case c.keyID:
			return "id"
		}
		return "other"
	}
	createQueue := func(which string) func(c *encrypting) outcome {
		return func(c *encrypting) outcome {
			out, err := c.sqs.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("diff-sealed-" + which),
				Attributes: map[string]string{"KmsMasterKeyId": keyOf(c, which)}})
			if err != nil {
				return observe(err, nil)
			}
			c.queues[which] = out.QueueUrl
			return observe(nil, nil)
		}
	}
	send := func(which string) func(c *encrypting) outcome {
		return func(c *encrypting) outcome {
			_, err := c.sqs.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: c.queues[which], MessageBody: aws.String("hello")})
			return observe(err, nil)
		}
	}
	createTopic := func(which string) func(c *encrypting) outcome {
		return func(c *encrypting) outcome {
			out, err := c.sns.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("diff-sealed-" + which),
				Attributes: map[string]string{"KmsMasterKeyId": keyOf(c, which)}})
			if err != nil {
				return observe(err, nil)
			}
			c.topics[which] = out.TopicArn
			return observe(nil, nil)
		}
	}
	publish := func(which string) func(c *encrypting) outcome {
		return func(c *encrypting) outcome {
			_, err := c.sns.Publish(ctx, &sns.PublishInput{TopicArn: c.topics[which], Message: aws.String("hello")})
			return observe(err, nil)
		}
	}
	bucketKey := func(which string) func(c *encrypting) outcome {
		return func(c *encrypting) outcome {
			_, err := c.s3.PutBucketEncryption(ctx, &s3.PutBucketEncryptionInput{Bucket: aws.String(sealedBucket),
				ServerSideEncryptionConfiguration: &s3types.ServerSideEncryptionConfiguration{Rules: []s3types.ServerSideEncryptionRule{{
					ApplyServerSideEncryptionByDefault: &s3types.ServerSideEncryptionByDefault{SSEAlgorithm: s3types.ServerSideEncryptionAwsKms,
						KMSMasterKeyID: aws.String(keyOf(c, which))}}}}})
			return observe(err, nil)
		}
	}
	putObject := func(c *encrypting) outcome {
		out, err := c.s3.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(sealedBucket), Key: aws.String("a"), Body: strings.NewReader("hello")})
		if err != nil {
			return observe(err, nil)
		}
		return observe(nil, map[string]string{"sse": string(out.ServerSideEncryption), "key": sameKey(c, aws.ToString(out.SSEKMSKeyId))})
	}
	createTable := func(which string) func(c *encrypting) outcome {
		return func(c *encrypting) outcome {
			out, err := c.dynamodb.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("diff-sealed-" + which),
				KeySchema:            []ddbtypes.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: ddbtypes.KeyTypeHash}},
				AttributeDefinitions: []ddbtypes.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: ddbtypes.ScalarAttributeTypeS}},
				BillingMode:          ddbtypes.BillingModePayPerRequest,
				SSESpecification:     &ddbtypes.SSESpecification{Enabled: aws.Bool(true), SSEType: ddbtypes.SSETypeKms, KMSMasterKeyId: aws.String(keyOf(c, which))}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"key": sameKey(c, aws.ToString(out.TableDescription.SSEDescription.KMSMasterKeyArn))})
		}
	}
	return []step[*encrypting]{
		{"CreateKeys", func(c *encrypting) outcome {
			enabled, err := c.kms.CreateKey(ctx, &kms.CreateKeyInput{})
			if err != nil {
				return observe(err, nil)
			}
			c.keyID, c.keyARN = aws.ToString(enabled.KeyMetadata.KeyId), aws.ToString(enabled.KeyMetadata.Arn)
			c.missingKeyARN = strings.TrimSuffix(c.keyARN, c.keyID) + "1234abcd-12ab-34cd-56ef-1234567890ab"
			disabled, err := c.kms.CreateKey(ctx, &kms.CreateKeyInput{})
			if err != nil {
				return observe(err, nil)
			}
			c.disabledID = aws.ToString(disabled.KeyMetadata.KeyId)
			_, err = c.kms.DisableKey(ctx, &kms.DisableKeyInput{KeyId: disabled.KeyMetadata.KeyId})
			return observe(err, nil)
		}},
		{"CreateQueueWithKey", createQueue("enabled")},
		{"CreateQueueWithDisabledKey", createQueue("disabled")},
		{"CreateQueueWithMissingKey", createQueue("missing")},
		{"GetQueueKey", func(c *encrypting) outcome {
			out, err := c.sqs.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: c.queues["enabled"], AttributeNames: []sqstypes.QueueAttributeName{"KmsMasterKeyId"}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"key": sameKey(c, out.Attributes["KmsMasterKeyId"])})
		}},
		{"SendWithKey", send("enabled")},
		{"SendWithDisabledKey", send("disabled")},
		{"SendWithMissingKey", send("missing")},
		{"CreateTopicWithKey", createTopic("enabled")},
		{"CreateTopicWithDisabledKey", createTopic("disabled")},
		{"PublishWithKey", publish("enabled")},
		{"PublishWithDisabledKey", publish("disabled")},
		{"CreateBucket", func(c *encrypting) outcome {
			_, err := c.s3.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(sealedBucket)})
			return observe(err, nil)
		}},
		{"BucketWithDisabledKey", bucketKey("disabled")},
		{"PutObjectWithDisabledKey", putObject},
		{"BucketWithKey", bucketKey("enabled")},
		{"PutObjectWithKey", putObject},
		{"CreateTableWithKey", createTable("enabled")},
		{"CreateTableWithDisabledKey", createTable("disabled")},
		{"CreateTableWithMissingKey", createTable("missing")},
	}
}

// TestKMSUsersAgainstMoto compares how SQS, SNS, S3 and DynamoDB take and use KMS keys with
// moto's.
func TestKMSUsersAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	side := func(url string) *encrypting {
		cfg := sdkConfig(t, url)
		return &encrypting{kms: kms.NewFromConfig(cfg), sqs: sqs.NewFromConfig(cfg), sns: sns.NewFromConfig(cfg),
			s3:       s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true }),
			dynamodb: dynamodb.NewFromConfig(cfg), queues: map[string]*string{}, topics: map[string]*string{}}
	}
	// moto checks no KMS key where it takes or uses one; AWS's services ask KMS when they encrypt.
	const noKeyCheck = "moto does not check the KMS key; "
	compare(t, side(emu.URL), side(peerURL), "moto "+motoVersion, encryptionSteps(), map[string]string{
		"SendWithDisabledKey":        noKeyCheck + "SQS asks KMS for a data key when it encrypts a message and answers KmsDisabled (KMS.DisabledException), which SendMessage models",
		"SendWithMissingKey":         noKeyCheck + "SQS asks KMS for a data key when it encrypts a message and answers KmsNotFound (KMS.NotFoundException), which SendMessage models",
		"PublishWithDisabledKey":     noKeyCheck + "SNS asks KMS for a data key when it publishes and answers KMSDisabled, which Publish models",
		"PutObjectWithDisabledKey":   noKeyCheck + "S3 does not validate the key in PutBucketEncryption (PutBucketEncryption) but asks KMS for a data key when it stores the object and relays KMS.DisabledException",
		"PutObjectWithKey":           "moto reports the SSE-KMS key as it was given (a key ID); S3 reports x-amz-server-side-encryption-aws-kms-key-id as the key ARN",
		"CreateTableWithKey":         "moto reports SSEDescription.KMSMasterKeyArn as the key was given (a key ID); DynamoDB reports the key ARN, as the member's name says",
		"CreateTableWithDisabledKey": noKeyCheck + "DynamoDB creates a grant on the key before it accepts CreateTable and answers ValidationException (KMS key disabled error: ...DisabledException)",
		"CreateTableWithMissingKey":  noKeyCheck + "DynamoDB creates a grant on the key before it accepts CreateTable and answers ValidationException (KMS validation error: ...NotFoundException)",
	})
}
