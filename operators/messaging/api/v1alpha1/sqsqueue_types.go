package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// SQSDeadLetterQueue sends messages that were received too often to another queue.
// +kubebuilder:validation:XValidation:rule="has(self.queueARN) != has(self.queueRef)",message="give the dead-letter queue as exactly one of queueARN or queueRef"
type SQSDeadLetterQueue struct {
	// QueueARN is the ARN of the dead-letter queue, in the same account and region. A FIFO
	// queue needs a FIFO dead-letter queue, a standard queue a standard one.
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:sqs:[a-z0-9-]+:[0-9]{12}:[A-Za-z0-9_-]{1,80}(\.fifo)?$`
	QueueARN string `json:"queueARN,omitempty"`

	// QueueRef names an SQSQueue in this namespace to use as the dead-letter queue; this
	// queue waits until that one is Ready.
	// +optional
	QueueRef *shared.Reference `json:"queueRef,omitempty"`

	// MaxReceiveCount is how many times a message is received before it moves to the
	// dead-letter queue.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000
	MaxReceiveCount int32 `json:"maxReceiveCount"`
}

// SQSRedriveAllowPolicy says which queues may use this queue as their dead-letter queue.
// +kubebuilder:validation:XValidation:rule="self.redrivePermission == 'byQueue' ? has(self.sourceQueueARNs) : !has(self.sourceQueueARNs)",message="sourceQueueARNs is required with redrivePermission byQueue, and only allowed with it"
type SQSRedriveAllowPolicy struct {
	// RedrivePermission is allowAll (any queue of the account and region), denyAll, or
	// byQueue (the queues in sourceQueueARNs).
	// +kubebuilder:validation:Enum=allowAll;denyAll;byQueue
	RedrivePermission string `json:"redrivePermission"`

	// SourceQueueARNs are the queues allowed with byQueue.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=10
	SourceQueueARNs []string `json:"sourceQueueARNs,omitempty"`
}

// SQSEncryption is the queue's server-side encryption.
// +kubebuilder:validation:XValidation:rule="!(has(self.kmsKeyID) && has(self.kmsKeyRef))",message="give the KMS key as at most one of kmsKeyID or kmsKeyRef"
// +kubebuilder:validation:XValidation:rule="self.enabled || !(has(self.kmsKeyID) || has(self.kmsKeyRef) || has(self.dataKeyReusePeriodSeconds))",message="kmsKeyID, kmsKeyRef and dataKeyReusePeriodSeconds need enabled: true"
// +kubebuilder:validation:XValidation:rule="!has(self.dataKeyReusePeriodSeconds) || has(self.kmsKeyID) || has(self.kmsKeyRef)",message="dataKeyReusePeriodSeconds is only used with a KMS key"
type SQSEncryption struct {
	// Enabled encrypts messages at rest: with the KMS key given, else with SQS-managed keys
	// (SSE-SQS). False turns server-side encryption off.
	Enabled bool `json:"enabled"`

	// KMSKeyID is the id, ARN or alias of the KMS key (SSE-KMS), for example alias/aws/sqs.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="self.matches('^((arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:key/)?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|mrk-[0-9a-fA-F]{32})|(arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:)?alias/[a-zA-Z0-9/_-]{1,250})$')",message="give the KMS key as a key id (1234abcd-12ab-34cd-56ef-1234567890ab, or mrk- and 32 hex digits for a multi-Region key), a key ARN (arn:aws:kms:<region>:<account>:key/<key id>), an alias (alias/my-key, or alias/aws/<service> for the AWS managed key) or an alias ARN"
	KMSKeyID string `json:"kmsKeyID,omitempty"`

	// KMSKeyRef names a KMSKey (security family) in this namespace to encrypt with, by its
	// key ARN: the queue waits (Ready False, ReferenceNotFound or ReferenceNotReady) until
	// the KMSKey exists and is Ready.
	// +optional
	KMSKeyRef *shared.Reference `json:"kmsKeyRef,omitempty"`

	// DataKeyReusePeriodSeconds is how long SQS reuses a data key before calling KMS again
	// (60 to 86400 seconds; AWS's default is 300).
	// +optional
	// +kubebuilder:validation:Minimum=60
	// +kubebuilder:validation:Maximum=86400
	DataKeyReusePeriodSeconds *int32 `json:"dataKeyReusePeriodSeconds,omitempty"`
}

// SQSQueueSpec is the desired state of an SQS queue. The dead-letter queue, the redrive allow
// policy and the policy are always managed: removing them from the spec removes them from the
// queue. The numeric settings and encryption are managed when set; unset, the queue keeps
// what it has (AWS's defaults for a new queue).
// +kubebuilder:validation:XValidation:rule="self.queueName == oldSelf.queueName",message="queueName cannot change; create a new SQSQueue to use another name"
// +kubebuilder:validation:XValidation:rule="(has(self.fifoQueue) && self.fifoQueue) == (has(oldSelf.fifoQueue) && oldSelf.fifoQueue)",message="fifoQueue cannot change; create a new SQSQueue for the other queue type"
// +kubebuilder:validation:XValidation:rule="self.queueName.endsWith('.fifo') == (has(self.fifoQueue) && self.fifoQueue)",message="a FIFO queue's name ends in .fifo, and only a FIFO queue's: set fifoQueue: true with a .fifo name, or neither"
// +kubebuilder:validation:XValidation:rule="(has(self.fifoQueue) && self.fifoQueue) || !(has(self.contentBasedDeduplication) || has(self.deduplicationScope) || has(self.fifoThroughputLimit))",message="contentBasedDeduplication, deduplicationScope and fifoThroughputLimit are only for FIFO queues (fifoQueue: true)"
// +kubebuilder:validation:XValidation:rule="!has(self.fifoThroughputLimit) || self.fifoThroughputLimit != 'perMessageGroupId' || (has(self.deduplicationScope) && self.deduplicationScope == 'messageGroup')",message="fifoThroughputLimit perMessageGroupId (high throughput) needs deduplicationScope messageGroup"
// +kubebuilder:validation:XValidation:rule="!has(self.deadLetterQueue) || !has(self.deadLetterQueue.queueARN) || self.deadLetterQueue.queueARN.endsWith('.fifo') == (has(self.fifoQueue) && self.fifoQueue)",message="a FIFO queue needs a FIFO dead-letter queue, and a standard queue a standard one"
type SQSQueueSpec struct {
	shared.ManagedSpec `json:",inline"`

	// QueueName is the queue's name, unique in the account and region: letters, digits,
	// hyphens and underscores, up to 80 characters including the .fifo suffix FIFO queues
	// need. It cannot change.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=80
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_-]+(\.fifo)?$`
	QueueName string `json:"queueName"`

	// FifoQueue makes a FIFO queue (exactly-once, ordered by message group). It cannot change.
	// +optional
	FifoQueue bool `json:"fifoQueue,omitempty"`

	// ContentBasedDeduplication deduplicates messages by a hash of their body (FIFO only).
	// +optional
	ContentBasedDeduplication *bool `json:"contentBasedDeduplication,omitempty"`

	// DeduplicationScope is messageGroup or queue (FIFO only).
	// +optional
	// +kubebuilder:validation:Enum=messageGroup;queue
	DeduplicationScope string `json:"deduplicationScope,omitempty"`

	// FifoThroughputLimit is perQueue or perMessageGroupId (FIFO only; perMessageGroupId with
	// deduplicationScope messageGroup is high-throughput FIFO).
	// +optional
	// +kubebuilder:validation:Enum=perQueue;perMessageGroupId
	FifoThroughputLimit string `json:"fifoThroughputLimit,omitempty"`

	// MessageRetentionPeriod is how long messages are kept, 60 to 1209600 seconds (14 days).
	// +optional
	// +kubebuilder:validation:Minimum=60
	// +kubebuilder:validation:Maximum=1209600
	MessageRetentionPeriod *int32 `json:"messageRetentionPeriod,omitempty"`

	// VisibilityTimeout is how long a received message stays hidden from other consumers,
	// 0 to 43200 seconds (12 hours).
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=43200
	VisibilityTimeout *int32 `json:"visibilityTimeout,omitempty"`

	// DelaySeconds delays the delivery of every new message, 0 to 900 seconds.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=900
	DelaySeconds *int32 `json:"delaySeconds,omitempty"`

	// MaximumMessageSize is the largest message accepted, 1024 to 1048576 bytes (1 MiB).
	// +optional
	// +kubebuilder:validation:Minimum=1024
	// +kubebuilder:validation:Maximum=1048576
	MaximumMessageSize *int32 `json:"maximumMessageSize,omitempty"`

	// ReceiveWaitTimeSeconds is how long a receive call waits for a message (long polling),
	// 0 to 20 seconds.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=20
	ReceiveWaitTimeSeconds *int32 `json:"receiveWaitTimeSeconds,omitempty"`

	// DeadLetterQueue moves messages received more than maxReceiveCount times to another
	// queue.
	// +optional
	DeadLetterQueue *SQSDeadLetterQueue `json:"deadLetterQueue,omitempty"`

	// RedriveAllowPolicy says which queues may use this one as their dead-letter queue; unset,
	// any queue of the account and region may.
	// +optional
	RedriveAllowPolicy *SQSRedriveAllowPolicy `json:"redriveAllowPolicy,omitempty"`

	// Encryption is the server-side encryption of messages at rest.
	// +optional
	Encryption *SQSEncryption `json:"encryption,omitempty"`

	// Policy is the queue's access policy, a JSON document. Statements whose Sid starts with
	// InfraOperatorSNS belong to the SNSTopics that subscribe this queue (they let the topic
	// send), and those whose Sid starts with InfraOperatorS3 to the S3Buckets whose event
	// notifications go to it (they let S3 send the bucket's events); the operator keeps them
	// beside this policy.
	// +optional
	// +kubebuilder:validation:MaxLength=20480
	Policy string `json:"policy,omitempty"`
}

// SQSQueueStatus is the observed state of an SQS queue.
type SQSQueueStatus struct {
	shared.ManagedStatus `json:",inline"`

	// QueueName is the queue's name.
	// +optional
	QueueName string `json:"queueName,omitempty" output:""`

	// QueueURL is the URL the SQS API takes.
	// +optional
	QueueURL string `json:"queueURL,omitempty" output:""`

	// QueueARN is the queue's ARN.
	// +optional
	QueueARN string `json:"queueARN,omitempty" output:""`

	// ApproximateNumberOfMessages is how many messages were available when the queue was last
	// looked at.
	// +optional
	ApproximateNumberOfMessages int64 `json:"approximateNumberOfMessages,omitempty"`

	// DeadLetterQueueARN is the ARN of the dead-letter queue in use, from queueARN or
	// queueRef.
	// +optional
	DeadLetterQueueARN string `json:"deadLetterQueueARN,omitempty" output:""`
}

// SQSQueue is an SQS queue.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=sqs,categories={aws,aws-messaging}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="QUEUE",type=string,JSONPath=`.spec.queueName`
// +kubebuilder:printcolumn:name="MESSAGES",type=integer,JSONPath=`.status.approximateNumberOfMessages`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type SQSQueue struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   SQSQueueSpec   `json:"spec"`
	Status SQSQueueStatus `json:"status,omitempty"`
}

// SQSQueueList is a list of SQSQueues.
// +kubebuilder:object:root=true
type SQSQueueList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []SQSQueue `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (q *SQSQueue) GetManagedSpec() *shared.ManagedSpec { return &q.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (q *SQSQueue) GetManagedStatus() *shared.ManagedStatus { return &q.Status.ManagedStatus }
