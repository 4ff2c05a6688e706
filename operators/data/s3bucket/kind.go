// Package s3bucket manages S3 buckets for the S3Bucket kind.
package s3bucket

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/lambdagrant"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the S3Bucket kind to the engine.
func Kind() managed.Kind[*v1alpha1.S3Bucket, State] {
	return managed.Kind[*v1alpha1.S3Bucket, State]{
		Validate: validate,
		Guard:    guard,
		References: []managed.Ref[*v1alpha1.S3Bucket]{
			managed.One(targets.KMSKey, "spec.encryption.kmsKeyRef", func(b *v1alpha1.S3Bucket) (*shared.Reference, *string) {
				if e := b.Spec.Encryption; e != nil {
					return e.KMSKeyRef, &e.KMSKeyID
				}
				return nil, nil
			}),
			managed.Each(targets.SQSQueue, "spec.notifications[%d].queueRef", func(b *v1alpha1.S3Bucket) []managed.Slot {
				return notificationSlots(b, func(n *v1alpha1.S3Notification) (*shared.Reference, *string) { return n.QueueRef, &n.QueueARN })
			}).Writing(),
			managed.Each(targets.SNSTopic, "spec.notifications[%d].topicRef", func(b *v1alpha1.S3Bucket) []managed.Slot {
				return notificationSlots(b, func(n *v1alpha1.S3Notification) (*shared.Reference, *string) { return n.TopicRef, &n.TopicARN })
			}).Writing(),
			managed.Each(targets.LambdaFunction, "spec.notifications[%d].functionRef", func(b *v1alpha1.S3Bucket) []managed.Slot {
				return notificationSlots(b, func(n *v1alpha1.S3Notification) (*shared.Reference, *string) { return n.FunctionRef, &n.FunctionARN })
			}).Writing(),
			managed.One(targets.IAMRole, "spec.replication.roleRef", func(b *v1alpha1.S3Bucket) (*shared.Reference, *string) {
				if r := b.Spec.Replication; r != nil {
					return r.RoleRef, &r.RoleARN
				}
				return nil, nil
			}),
			managed.Each(targets.S3Bucket, "spec.replication.rules[%d].destination.bucketRef", replicationSlots).Writing(),
			managed.One(targets.S3Bucket, "spec.logging.targetBucketRef", func(b *v1alpha1.S3Bucket) (*shared.Reference, *string) {
				if l := b.Spec.Logging; l != nil {
					return l.TargetBucketRef, &l.TargetBucketName
				}
				return nil, nil
			}).Writing(),
		},
		Connect: func(s *provider.Session, kube client.Reader, _ *v1alpha1.S3Bucket) managed.Driver[*v1alpha1.S3Bucket, State] {
			// A custom endpoint (the emulator, LocalStack) has no per-bucket host names.
			pathStyle := s.Provider.ProviderSpec().Endpoint != ""
			api := provider.Client(s, "s3", func(c aws.Config) *s3.Client {
				return s3.NewFromConfig(c, func(o *s3.Options) { o.UsePathStyle = pathStyle })
			})
			return &driver{api: api, region: s.Config.Region, kube: kube, account: s.AccountID,
				sqs:    provider.Client(s, "sqs", func(c aws.Config) *sqs.Client { return sqs.NewFromConfig(c) }),
				sns:    provider.Client(s, "sns", func(c aws.Config) *sns.Client { return sns.NewFromConfig(c) }),
				lambda: provider.Client(s, "lambda", func(c aws.Config) *lambda.Client { return lambda.NewFromConfig(c) })}
		},
	}
}

// validate checks what admission cannot: the policy is a JSON policy document without
// statements of the Sid prefix reserved for the statements other objects grant in it.
func validate(b *v1alpha1.S3Bucket) error {
	doc, err := policy.Parse(b.Spec.Policy)
	if err != nil {
		return managed.Wrap(err, "spec.policy")
	}
	if len(doc.Reserved(policy.ReservedSidPrefix)) > 0 {
		return fmt.Errorf("spec.policy: statement ids starting with %s are reserved for the statements other objects (a CloudFrontDistribution) add; rename the statement", policy.ReservedSidPrefix)
	}
	return nil
}

// driver manages one provider's S3 buckets.
type driver struct {
	api *s3.Client
	// region is the provider's region, where buckets are created.
	region string
	// sqs, sns and lambda reach the destinations of event notifications, to let S3 deliver
	// to them.
	sqs    queueAPI
	sns    topicAPI
	lambda lambdagrant.API
	// kube reads the S3Buckets that replication rules name as destinations.
	kube client.Reader
	// account returns the provider's AWS account, which the statement that lets the logging
	// service write into a target bucket names.
	account func(ctx context.Context) (string, error)
}

// notificationSlots returns one slot per notification of b: the reference at picks and the
// ARN field it resolves into.
func notificationSlots(b *v1alpha1.S3Bucket, at func(n *v1alpha1.S3Notification) (*shared.Reference, *string)) []managed.Slot {
	slots := make([]managed.Slot, len(b.Spec.Notifications))
	for i := range b.Spec.Notifications {
		slots[i].Ref, slots[i].ID = at(&b.Spec.Notifications[i])
	}
	return slots
}
