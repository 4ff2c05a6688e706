package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// SNSEncryption is the topic's server-side encryption, always with a KMS key.
// +kubebuilder:validation:XValidation:rule="!(has(self.kmsKeyID) && has(self.kmsKeyRef))",message="give the KMS key as at most one of kmsKeyID or kmsKeyRef"
// +kubebuilder:validation:XValidation:rule="self.enabled == (has(self.kmsKeyID) || has(self.kmsKeyRef))",message="SNS encrypts with a KMS key: enabled: true needs kmsKeyID (for example alias/aws/sns) or kmsKeyRef, and enabled: false takes neither"
type SNSEncryption struct {
	// Enabled encrypts messages at rest with the KMS key given; false turns it off.
	Enabled bool `json:"enabled"`

	// KMSKeyID is the id, ARN or alias of the KMS key, for example alias/aws/sns.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="self.matches('^((arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:key/)?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|mrk-[0-9a-fA-F]{32})|(arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:)?alias/[a-zA-Z0-9/_-]{1,250})$')",message="give the KMS key as a key id (1234abcd-12ab-34cd-56ef-1234567890ab, or mrk- and 32 hex digits for a multi-Region key), a key ARN (arn:aws:kms:<region>:<account>:key/<key id>), an alias (alias/my-key, or alias/aws/<service> for the AWS managed key) or an alias ARN"
	KMSKeyID string `json:"kmsKeyID,omitempty"`

	// KMSKeyRef names a KMSKey (security family) in this namespace to encrypt with, by its
	// key ARN: the topic waits (Ready False, ReferenceNotFound or ReferenceNotReady) until
	// the KMSKey exists and is Ready.
	// +optional
	KMSKeyRef *shared.Reference `json:"kmsKeyRef,omitempty"`
}

// SNSSubscriptionRedrivePolicy sends messages SNS could not deliver to an SQS queue.
// +kubebuilder:validation:XValidation:rule="has(self.deadLetterQueueARN) != has(self.deadLetterQueueRef)",message="give the dead-letter queue as exactly one of deadLetterQueueARN or deadLetterQueueRef"
type SNSSubscriptionRedrivePolicy struct {
	// DeadLetterQueueARN is the ARN of the SQS queue.
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:sqs:[a-z0-9-]+:[0-9]{12}:[A-Za-z0-9_-]{1,80}(\.fifo)?$`
	DeadLetterQueueARN string `json:"deadLetterQueueARN,omitempty"`

	// DeadLetterQueueRef names an SQSQueue in this namespace.
	// +optional
	DeadLetterQueueRef *shared.Reference `json:"deadLetterQueueRef,omitempty"`
}

// SNSSubscription is one subscription of the topic, identified by its protocol and endpoint.
// +kubebuilder:validation:XValidation:rule="has(self.endpoint) != has(self.queueRef)",message="give the subscription's endpoint as exactly one of endpoint or queueRef"
// +kubebuilder:validation:XValidation:rule="!has(self.queueRef) || self.protocol == 'sqs'",message="queueRef is only for protocol sqs"
// +kubebuilder:validation:XValidation:rule="!has(self.rawMessageDelivery) || self.protocol in ['sqs', 'http', 'https', 'firehose']",message="rawMessageDelivery is only for protocols sqs, http, https and firehose"
// +kubebuilder:validation:XValidation:rule="!has(self.filterPolicyScope) || has(self.filterPolicy)",message="filterPolicyScope needs filterPolicy"
// +kubebuilder:validation:XValidation:rule="!has(self.deliveryPolicy) || self.protocol in ['http', 'https']",message="a subscription's deliveryPolicy is only for protocols http and https"
// +kubebuilder:validation:XValidation:rule="self.protocol != 'sqs' || !has(self.endpoint) || self.endpoint.matches('^arn:aws[a-z-]*:sqs:[a-z0-9-]+:[0-9]{12}:[A-Za-z0-9_.-]+$')",message="an sqs endpoint is a queue ARN, for example arn:aws:sqs:us-east-1:123456789012:my-queue"
// +kubebuilder:validation:XValidation:rule="!(self.protocol in ['email', 'email-json']) || !has(self.endpoint) || self.endpoint.matches('^[^@ ]+@[^@ ]+$')",message="an email endpoint is an email address"
// +kubebuilder:validation:XValidation:rule="!(self.protocol in ['http', 'https']) || !has(self.endpoint) || self.endpoint.startsWith(self.protocol + '://')",message="an http or https endpoint is a URL of that scheme"
type SNSSubscription struct {
	// Protocol is how messages are delivered: sqs, email, email-json, http, https, lambda,
	// firehose, sms or application.
	// +kubebuilder:validation:Enum=sqs;email;email-json;http;https;lambda;firehose;sms;application
	Protocol string `json:"protocol"`

	// Endpoint receives the messages: a queue, function or stream ARN, an email address, a
	// URL, or a phone number in E.164 format (quote it: +15551234567).
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	Endpoint string `json:"endpoint,omitempty"`

	// QueueRef names an SQSQueue in this namespace as the endpoint (protocol sqs); the topic
	// waits until that queue is Ready.
	// +optional
	QueueRef *shared.Reference `json:"queueRef,omitempty"`

	// RawMessageDelivery delivers the message as published, without SNS's JSON envelope
	// (sqs, http, https and firehose).
	// +optional
	RawMessageDelivery *bool `json:"rawMessageDelivery,omitempty"`

	// FilterPolicy is a JSON filter policy: only matching messages are delivered.
	// +optional
	// +kubebuilder:validation:MaxLength=16384
	FilterPolicy string `json:"filterPolicy,omitempty"`

	// FilterPolicyScope is what the filter policy applies to: MessageAttributes (AWS's
	// default) or MessageBody.
	// +optional
	// +kubebuilder:validation:Enum=MessageAttributes;MessageBody
	FilterPolicyScope string `json:"filterPolicyScope,omitempty"`

	// RedrivePolicy sends messages that cannot be delivered to an SQS dead-letter queue.
	// +optional
	RedrivePolicy *SNSSubscriptionRedrivePolicy `json:"redrivePolicy,omitempty"`

	// DeliveryPolicy is the JSON retry policy of an http or https subscription.
	// +optional
	// +kubebuilder:validation:MaxLength=16384
	DeliveryPolicy string `json:"deliveryPolicy,omitempty"`
}

// SNSTopicSpec is the desired state of an SNS topic. Subscriptions are managed as a set: the
// topic gets exactly the spec's confirmed subscriptions. The display name, policies,
// encryption and FIFO settings are managed when set.
// +kubebuilder:validation:XValidation:rule="self.topicName == oldSelf.topicName",message="topicName cannot change; create a new SNSTopic to use another name"
// +kubebuilder:validation:XValidation:rule="(has(self.fifoTopic) && self.fifoTopic) == (has(oldSelf.fifoTopic) && oldSelf.fifoTopic)",message="fifoTopic cannot change; create a new SNSTopic for the other topic type"
// +kubebuilder:validation:XValidation:rule="self.topicName.endsWith('.fifo') == (has(self.fifoTopic) && self.fifoTopic)",message="a FIFO topic's name ends in .fifo, and only a FIFO topic's: set fifoTopic: true with a .fifo name, or neither"
// +kubebuilder:validation:XValidation:rule="(has(self.fifoTopic) && self.fifoTopic) || !(has(self.contentBasedDeduplication) || has(self.fifoThroughputScope))",message="contentBasedDeduplication and fifoThroughputScope are only for FIFO topics (fifoTopic: true)"
// +kubebuilder:validation:XValidation:rule="!(has(self.fifoTopic) && self.fifoTopic) || !has(self.subscriptions) || self.subscriptions.all(s, s.protocol == 'sqs')",message="a FIFO topic delivers only to SQS queues (protocol sqs)"
type SNSTopicSpec struct {
	shared.ManagedSpec `json:",inline"`

	// TopicName is the topic's name, unique in the account and region: letters, digits,
	// hyphens and underscores, up to 256 characters including the .fifo suffix FIFO topics
	// need. It cannot change.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_-]+(\.fifo)?$`
	TopicName string `json:"topicName"`

	// DisplayName is the name shown in email and SMS deliveries (up to 100 characters).
	// +optional
	// +kubebuilder:validation:MaxLength=100
	DisplayName string `json:"displayName,omitempty"`

	// FifoTopic makes a FIFO topic (ordered, deduplicated). It cannot change.
	// +optional
	FifoTopic bool `json:"fifoTopic,omitempty"`

	// ContentBasedDeduplication deduplicates messages by a hash of their body (FIFO only).
	// +optional
	ContentBasedDeduplication *bool `json:"contentBasedDeduplication,omitempty"`

	// FifoThroughputScope is Topic or MessageGroup (FIFO only).
	// +optional
	// +kubebuilder:validation:Enum=Topic;MessageGroup
	FifoThroughputScope string `json:"fifoThroughputScope,omitempty"`

	// Subscriptions are the topic's subscriptions. Email, email-json, http and https
	// subscriptions stay pending until their owner confirms them; the status counts them.
	// +optional
	// +kubebuilder:validation:MaxItems=100
	Subscriptions []SNSSubscription `json:"subscriptions,omitempty"`

	// Encryption is the server-side encryption of messages at rest.
	// +optional
	Encryption *SNSEncryption `json:"encryption,omitempty"`

	// Policy is the topic's access policy, a JSON document; unset, the topic keeps AWS's
	// default policy (its owner may use it). Statements whose Sid starts with InfraOperatorS3
	// belong to the S3Buckets whose event notifications go to the topic (they let S3 publish
	// the bucket's events); the operator keeps them beside this policy.
	// +optional
	// +kubebuilder:validation:MaxLength=30720
	Policy string `json:"policy,omitempty"`

	// DeliveryPolicy is the topic's JSON delivery retry policy for http and https endpoints.
	// +optional
	// +kubebuilder:validation:MaxLength=16384
	DeliveryPolicy string `json:"deliveryPolicy,omitempty"`
}

// SNSTopicStatus is the observed state of an SNS topic.
type SNSTopicStatus struct {
	shared.ManagedStatus `json:",inline"`

	// TopicName is the topic's name.
	// +optional
	TopicName string `json:"topicName,omitempty" output:""`

	// TopicARN is the topic's ARN.
	// +optional
	TopicARN string `json:"topicARN,omitempty" output:""`

	// SubscriptionsConfirmed is how many subscriptions are confirmed.
	// +optional
	SubscriptionsConfirmed int32 `json:"subscriptionsConfirmed"`

	// SubscriptionsPending is how many subscriptions wait for their owner's confirmation.
	// +optional
	SubscriptionsPending int32 `json:"subscriptionsPending"`
}

// SNSTopic is an SNS topic with its subscriptions.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=sns,categories={aws,aws-messaging}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="TOPIC",type=string,JSONPath=`.spec.topicName`
// +kubebuilder:printcolumn:name="CONFIRMED",type=integer,JSONPath=`.status.subscriptionsConfirmed`,priority=1
// +kubebuilder:printcolumn:name="PENDING",type=integer,JSONPath=`.status.subscriptionsPending`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type SNSTopic struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   SNSTopicSpec   `json:"spec"`
	Status SNSTopicStatus `json:"status,omitempty"`
}

// SNSTopicList is a list of SNSTopics.
// +kubebuilder:object:root=true
type SNSTopicList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []SNSTopic `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (t *SNSTopic) GetManagedSpec() *shared.ManagedSpec { return &t.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (t *SNSTopic) GetManagedStatus() *shared.ManagedStatus { return &t.Status.ManagedStatus }
