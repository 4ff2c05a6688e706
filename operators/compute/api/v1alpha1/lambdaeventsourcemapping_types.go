package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// LambdaEventSourceMappingSpec is the desired state of an event source mapping: Lambda polls
// an SQS queue, a DynamoDB table's stream or a Kinesis stream and invokes the function with
// batches of its records. The function's execution role needs the permissions to read the
// source: sqs:ReceiveMessage, sqs:DeleteMessage and sqs:GetQueueAttributes for a queue;
// dynamodb:DescribeStream, dynamodb:GetRecords, dynamodb:GetShardIterator and
// dynamodb:ListStreams for a table's stream (kinesis:* reads likewise for Kinesis). Lambda
// refuses to create the mapping without them.
// +kubebuilder:validation:XValidation:rule="[has(self.functionRef), has(self.functionName)].filter(x, x).size() == 1",message="set exactly one of functionRef and functionName"
// +kubebuilder:validation:XValidation:rule="[has(self.queueRef), has(self.tableRef), has(self.eventSourceARN)].filter(x, x).size() == 1",message="name the event source in exactly one way: queueRef, tableRef or eventSourceARN"
// +kubebuilder:validation:XValidation:rule="!has(self.startingPosition) || !(has(self.queueRef) || (has(self.eventSourceARN) && self.eventSourceARN.contains(':sqs:')))",message="startingPosition is for streams (tableRef, or a Kinesis or DynamoDB stream ARN); an SQS queue has none"
// +kubebuilder:validation:XValidation:rule="has(self.startingPosition) || !(has(self.tableRef) || (has(self.eventSourceARN) && (self.eventSourceARN.contains(':kinesis:') || self.eventSourceARN.contains(':dynamodb:'))))",message="a stream source (tableRef, or a Kinesis or DynamoDB stream ARN) needs startingPosition: LATEST or TRIM_HORIZON"
// +kubebuilder:validation:XValidation:rule="!(has(self.eventSourceARN) && self.eventSourceARN.endsWith('.fifo') && has(self.batchSize) && self.batchSize > 10)",message="the batch size of a FIFO queue is at most 10"
// +kubebuilder:validation:XValidation:rule="has(self.startingPosition) == has(oldSelf.startingPosition)",message="startingPosition cannot change; create a new LambdaEventSourceMapping"
// +kubebuilder:validation:XValidation:rule="has(self.queueRef) == has(oldSelf.queueRef) && has(self.tableRef) == has(oldSelf.tableRef) && has(self.eventSourceARN) == has(oldSelf.eventSourceARN)",message="the event source cannot change; create a new LambdaEventSourceMapping"
type LambdaEventSourceMappingSpec struct {
	shared.ManagedSpec `json:",inline"`

	// FunctionRef names the LambdaFunction object in this namespace whose function the source
	// invokes; the mapping waits until it is Ready.
	// +optional
	FunctionRef *shared.Reference `json:"functionRef,omitempty"`

	// FunctionName is the function's name or ARN (a version or alias ARN included), for a
	// function made outside this namespace.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=140
	FunctionName string `json:"functionName,omitempty"`

	// QueueRef names the SQSQueue object (messaging family) in this namespace the function
	// reads from. It cannot change.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="queueRef cannot change; create a new LambdaEventSourceMapping"
	QueueRef *shared.Reference `json:"queueRef,omitempty"`

	// TableRef names the DynamoDBTable object (data family) in this namespace whose stream the
	// function reads; the table's spec.stream must be enabled. It cannot change.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="tableRef cannot change; create a new LambdaEventSourceMapping"
	TableRef *shared.Reference `json:"tableRef,omitempty"`

	// EventSourceARN is the ARN of the source, for one made outside this namespace: an SQS
	// queue, a Kinesis stream or a DynamoDB stream. It cannot change. The mapping consumes the
	// source, so the operator refuses it (ForeignWriteNotAllowed) unless the administrator lets
	// the namespace write into resources it does not own (--foreign-write-namespaces).
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:(sqs|kinesis|dynamodb|kafka|mq):`
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="eventSourceARN cannot change; create a new LambdaEventSourceMapping"
	EventSourceARN string `json:"eventSourceARN,omitempty"`

	// BatchSize is the most records a batch holds: 1 to 10000 (at most 10 for a FIFO queue;
	// above 10 for a standard queue needs maximumBatchingWindowInSeconds of at least 1).
	// Unset is Lambda's default: 10 for a queue, 100 for a stream.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10000
	BatchSize *int32 `json:"batchSize,omitempty"`

	// MaximumBatchingWindowInSeconds is how long Lambda gathers records before invoking the
	// function, 0 to 300; unset is 0.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=300
	MaximumBatchingWindowInSeconds *int32 `json:"maximumBatchingWindowInSeconds,omitempty"`

	// StartingPosition is where a stream is read from: LATEST or TRIM_HORIZON (streams only).
	// It cannot change.
	// +optional
	// +kubebuilder:validation:Enum=LATEST;TRIM_HORIZON
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="startingPosition cannot change; create a new LambdaEventSourceMapping"
	StartingPosition string `json:"startingPosition,omitempty"`

	// FilterCriteria are the patterns a record must match to be sent to the function.
	// +optional
	FilterCriteria *LambdaFilterCriteria `json:"filterCriteria,omitempty"`

	// FunctionResponseTypes are what the function may report: [ReportBatchItemFailures] lets
	// it return the records that failed, which are retried alone.
	// +optional
	// +kubebuilder:validation:MaxItems=1
	// +kubebuilder:validation:items:Enum=ReportBatchItemFailures
	FunctionResponseTypes []string `json:"functionResponseTypes,omitempty"`

	// Enabled turns polling on; false pauses the mapping. Unset is true.
	// +optional
	// +kubebuilder:default=true
	Enabled *bool `json:"enabled,omitempty"`
}

// LambdaFilterCriteria are the filters of an event source mapping.
type LambdaFilterCriteria struct {
	// Filters are the patterns, at most 5; a record that matches any of them is sent.
	// +kubebuilder:validation:MaxItems=5
	Filters []LambdaFilter `json:"filters"`
}

// LambdaFilter is one filter pattern.
type LambdaFilter struct {
	// Pattern is the filter pattern, a JSON document, for example {"body":{"type":["order"]}}.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=4096
	Pattern string `json:"pattern"`
}

// LambdaEventSourceMappingStatus is the observed state of an event source mapping.
type LambdaEventSourceMappingStatus struct {
	shared.ManagedStatus `json:",inline"`

	// UUID is the mapping's identifier in AWS.
	// +optional
	UUID string `json:"uuid,omitempty" output:""`

	// EventSourceMappingARN is the mapping's ARN.
	// +optional
	EventSourceMappingARN string `json:"eventSourceMappingARN,omitempty" output:""`

	// FunctionARN is the ARN of the function the mapping invokes.
	// +optional
	FunctionARN string `json:"functionARN,omitempty"`

	// EventSourceARN is the ARN of the source the mapping reads.
	// +optional
	EventSourceARN string `json:"eventSourceARN,omitempty"`

	// State is Creating, Enabling, Enabled, Disabling, Disabled, Updating or Deleting.
	// +optional
	State string `json:"state,omitempty"`

	// StateTransitionReason is why the state last changed.
	// +optional
	StateTransitionReason string `json:"stateTransitionReason,omitempty"`

	// LastProcessingResult is the result of the last invocation, for example "OK" or
	// "PROBLEM: Function call failed".
	// +optional
	LastProcessingResult string `json:"lastProcessingResult,omitempty"`
}

// LambdaEventSourceMapping connects an event source (an SQS queue, a DynamoDB table's stream,
// a Kinesis stream) to a Lambda function: Lambda reads the source and invokes the function with
// batches of records. AWS identifies a mapping by its UUID; one function has at most one
// mapping per source.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=esm,categories={aws,aws-compute}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="UUID",type=string,JSONPath=`.status.uuid`
// +kubebuilder:printcolumn:name="STATE",type=string,JSONPath=`.status.state`
// +kubebuilder:printcolumn:name="SOURCE",type=string,JSONPath=`.status.eventSourceARN`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type LambdaEventSourceMapping struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   LambdaEventSourceMappingSpec   `json:"spec"`
	Status LambdaEventSourceMappingStatus `json:"status,omitempty"`
}

// LambdaEventSourceMappingList is a list of LambdaEventSourceMappings.
// +kubebuilder:object:root=true
type LambdaEventSourceMappingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []LambdaEventSourceMapping `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (l *LambdaEventSourceMapping) GetManagedSpec() *shared.ManagedSpec { return &l.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (l *LambdaEventSourceMapping) GetManagedStatus() *shared.ManagedStatus {
	return &l.Status.ManagedStatus
}
