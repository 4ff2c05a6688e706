package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// S3Versioning turns object versioning on. S3 cannot turn versioning off once it was on:
// enabled false suspends it.
type S3Versioning struct {
	// Enabled keeps every version of every object; false suspends versioning.
	Enabled bool `json:"enabled"`
}

// S3Encryption is the bucket's default encryption.
// +kubebuilder:validation:XValidation:rule="!(self.algorithm in ['aws:kms', 'aws_kms', 'aws:kms:dsse']) || has(self.kmsKeyID) || has(self.kmsKeyRef)",message="algorithm aws:kms needs kmsKeyID or kmsKeyRef"
// +kubebuilder:validation:XValidation:rule="self.algorithm != 'AES256' || !(has(self.kmsKeyID) || has(self.kmsKeyRef))",message="kmsKeyID and kmsKeyRef are only used with algorithm aws:kms"
// +kubebuilder:validation:XValidation:rule="!(has(self.kmsKeyID) && has(self.kmsKeyRef))",message="give the KMS key as at most one of kmsKeyID or kmsKeyRef"
type S3Encryption struct {
	// Algorithm is AES256 (S3 managed keys), aws:kms (a KMS key; aws_kms is accepted too) or
	// aws:kms:dsse (dual-layer KMS).
	// +kubebuilder:validation:Enum=AES256;aws:kms;aws_kms;aws:kms:dsse
	Algorithm string `json:"algorithm"`

	// KMSKeyID is the id, ARN, alias or alias ARN of the KMS key, for aws:kms.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="self.matches('^((arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:key/)?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|mrk-[0-9a-fA-F]{32})|(arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:)?alias/[a-zA-Z0-9/_-]{1,250})$')",message="give the KMS key as a key id (1234abcd-12ab-34cd-56ef-1234567890ab, or mrk- and 32 hex digits for a multi-Region key), a key ARN (arn:aws:kms:<region>:<account>:key/<key id>), an alias (alias/my-key, or alias/aws/<service> for the AWS managed key) or an alias ARN"
	KMSKeyID string `json:"kmsKeyID,omitempty"`

	// KMSKeyRef names a KMSKey (security family) in this namespace to encrypt with, by its
	// key ARN, for aws:kms: the bucket waits (Ready False, ReferenceNotFound or
	// ReferenceNotReady) until the KMSKey exists and is Ready.
	// +optional
	KMSKeyRef *shared.Reference `json:"kmsKeyRef,omitempty"`

	// BucketKeyEnabled uses an S3 bucket key to cut KMS calls (aws:kms only).
	// +optional
	BucketKeyEnabled bool `json:"bucketKeyEnabled,omitempty"`
}

// S3PublicAccessBlock blocks public access to the bucket.
type S3PublicAccessBlock struct {
	// BlockPublicAcls rejects requests that add public ACLs.
	// +optional
	BlockPublicAcls bool `json:"blockPublicAcls,omitempty"`
	// IgnorePublicAcls ignores public ACLs on the bucket and its objects.
	// +optional
	IgnorePublicAcls bool `json:"ignorePublicAcls,omitempty"`
	// BlockPublicPolicy rejects bucket policies that grant public access.
	// +optional
	BlockPublicPolicy bool `json:"blockPublicPolicy,omitempty"`
	// RestrictPublicBuckets limits access to a bucket with a public policy to AWS services and
	// the bucket owner's account.
	// +optional
	RestrictPublicBuckets bool `json:"restrictPublicBuckets,omitempty"`
}

// S3Transition moves objects to another storage class after a number of days.
// +kubebuilder:validation:XValidation:rule="!(self.storageClass in ['STANDARD_IA', 'ONEZONE_IA']) || self.days >= 30",message="a transition to STANDARD_IA or ONEZONE_IA needs days of 30 or more: S3 does not move objects there in their first 30 days"
type S3Transition struct {
	// Days after creation when objects move: 30 or more for STANDARD_IA and ONEZONE_IA, and
	// fewer than the rule's expiration days.
	// +kubebuilder:validation:Minimum=0
	Days int32 `json:"days"`

	// StorageClass objects move to.
	// +kubebuilder:validation:Enum=STANDARD_IA;ONEZONE_IA;INTELLIGENT_TIERING;GLACIER;GLACIER_IR;DEEP_ARCHIVE
	StorageClass string `json:"storageClass"`
}

// S3Expiration deletes objects a number of days after their creation.
type S3Expiration struct {
	// Days after creation when objects expire.
	// +kubebuilder:validation:Minimum=1
	Days int32 `json:"days"`
}

// S3NoncurrentVersionExpiration deletes object versions a number of days after they stopped
// being current.
type S3NoncurrentVersionExpiration struct {
	// NoncurrentDays after a version became noncurrent when it is deleted.
	// +kubebuilder:validation:Minimum=1
	NoncurrentDays int32 `json:"noncurrentDays"`
}

// S3AbortIncompleteMultipartUpload aborts multipart uploads left unfinished.
type S3AbortIncompleteMultipartUpload struct {
	// DaysAfterInitiation after which an unfinished upload is aborted.
	// +kubebuilder:validation:Minimum=1
	DaysAfterInitiation int32 `json:"daysAfterInitiation"`
}

// S3LifecycleRule is one lifecycle rule for the objects under a prefix.
// +kubebuilder:validation:XValidation:rule="has(self.transitions) || has(self.expiration) || has(self.noncurrentVersionExpiration) || has(self.abortIncompleteMultipartUpload)",message="a lifecycle rule needs at least one action: transitions, expiration, noncurrentVersionExpiration or abortIncompleteMultipartUpload"
// +kubebuilder:validation:XValidation:rule="!has(self.expiration) || !has(self.transitions) || self.transitions.all(t, self.expiration.days > t.days)",message="expiration.days must be greater than the days of every transition: S3 expires objects only after their last transition"
type S3LifecycleRule struct {
	// ID names the rule; unique within the bucket.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	ID string `json:"id"`

	// Enabled applies the rule; false keeps it but does nothing.
	Enabled bool `json:"enabled"`

	// Prefix limits the rule to keys that start with it; empty means every object.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Prefix string `json:"prefix,omitempty"`

	// Transitions move objects to cheaper storage classes.
	// +optional
	// +kubebuilder:validation:MaxItems=10
	Transitions []S3Transition `json:"transitions,omitempty"`

	// Expiration deletes objects.
	// +optional
	Expiration *S3Expiration `json:"expiration,omitempty"`

	// NoncurrentVersionExpiration deletes old versions (versioned buckets).
	// +optional
	NoncurrentVersionExpiration *S3NoncurrentVersionExpiration `json:"noncurrentVersionExpiration,omitempty"`

	// AbortIncompleteMultipartUpload aborts unfinished multipart uploads.
	// +optional
	AbortIncompleteMultipartUpload *S3AbortIncompleteMultipartUpload `json:"abortIncompleteMultipartUpload,omitempty"`
}

// S3CORSRule allows cross-origin requests from browsers.
type S3CORSRule struct {
	// ID names the rule.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	ID string `json:"id,omitempty"`

	// AllowedOrigins are the origins allowed, for example https://app.example.com or *.
	// +kubebuilder:validation:MinItems=1
	AllowedOrigins []string `json:"allowedOrigins"`

	// AllowedMethods are the HTTP methods allowed.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:items:Enum=GET;PUT;POST;DELETE;HEAD
	AllowedMethods []string `json:"allowedMethods"`

	// AllowedHeaders are the request headers allowed in a preflight request.
	// +optional
	AllowedHeaders []string `json:"allowedHeaders,omitempty"`

	// ExposeHeaders are the response headers browsers may read.
	// +optional
	ExposeHeaders []string `json:"exposeHeaders,omitempty"`

	// MaxAgeSeconds is how long browsers may cache a preflight response.
	// +optional
	// +kubebuilder:validation:Minimum=0
	MaxAgeSeconds *int32 `json:"maxAgeSeconds,omitempty"`
}

// S3NotificationFilter limits a notification to the objects whose keys start and end as given.
type S3NotificationFilter struct {
	// Prefix the keys start with, for example uploads/.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Prefix string `json:"prefix,omitempty"`

	// Suffix the keys end with, for example .jpg.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Suffix string `json:"suffix,omitempty"`
}

// S3Notification sends the bucket's events to one destination: an SQS queue, an SNS topic or a
// Lambda function, each given by reference or by ARN. The operator adds to the destination what
// S3 needs to deliver there (a statement in the queue's or topic's policy, a permission of the
// function), and removes it when the notification goes.
// +kubebuilder:validation:XValidation:rule="[has(self.queueRef), has(self.queueARN), has(self.topicRef), has(self.topicARN), has(self.functionRef), has(self.functionARN)].filter(x, x).size() == 1",message="give the notification's destination as exactly one of queueRef, queueARN, topicRef, topicARN, functionRef or functionARN"
type S3Notification struct {
	// ID names the notification (S3's configuration id); unique within the bucket, and the
	// id event records carry as configurationId.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	ID string `json:"id"`

	// Events are the event types sent, for example s3:ObjectCreated:* (every creation) or
	// s3:ObjectRemoved:Delete.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=32
	// +listType=set
	// +kubebuilder:validation:items:Enum=s3:ReducedRedundancyLostObject;s3:ObjectCreated:*;s3:ObjectCreated:Put;s3:ObjectCreated:Post;s3:ObjectCreated:Copy;s3:ObjectCreated:CompleteMultipartUpload;s3:ObjectRemoved:*;s3:ObjectRemoved:Delete;s3:ObjectRemoved:DeleteMarkerCreated;s3:ObjectRestore:*;s3:ObjectRestore:Post;s3:ObjectRestore:Completed;s3:ObjectRestore:Delete;s3:Replication:*;s3:Replication:OperationFailedReplication;s3:Replication:OperationNotTracked;s3:Replication:OperationMissedThreshold;s3:Replication:OperationReplicatedAfterThreshold;s3:LifecycleTransition;s3:IntelligentTiering;s3:ObjectAcl:Put;s3:LifecycleExpiration:*;s3:LifecycleExpiration:Delete;s3:LifecycleExpiration:DeleteMarkerCreated;s3:ObjectTagging:*;s3:ObjectTagging:Put;s3:ObjectTagging:Delete
	Events []string `json:"events"`

	// Filter limits the notification to keys with a prefix or a suffix.
	// +optional
	Filter *S3NotificationFilter `json:"filter,omitempty"`

	// QueueRef names an SQSQueue (messaging family) in this namespace to send the events to:
	// the bucket waits until it is Ready. A FIFO queue cannot receive S3 events.
	// +optional
	QueueRef *shared.Reference `json:"queueRef,omitempty"`

	// QueueARN is the ARN of a standard SQS queue, in the bucket's region, to send the events
	// to. The operator adds S3's statement to its policy only when an object of this namespace
	// made the queue (or the administrator allows writing into others).
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:sqs:[a-z0-9-]+:[0-9]{12}:[A-Za-z0-9_-]{1,80}$`
	QueueARN string `json:"queueARN,omitempty"`

	// TopicRef names an SNSTopic (messaging family) in this namespace to publish the events
	// to: the bucket waits until it is Ready. A FIFO topic cannot receive S3 events.
	// +optional
	TopicRef *shared.Reference `json:"topicRef,omitempty"`

	// TopicARN is the ARN of a standard SNS topic, in the bucket's region, to publish the
	// events to. The operator adds S3's statement to its policy only when an object of this
	// namespace made the topic (or the administrator allows writing into others).
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:sns:[a-z0-9-]+:[0-9]{12}:[A-Za-z0-9_-]{1,256}$`
	TopicARN string `json:"topicARN,omitempty"`

	// FunctionRef names a LambdaFunction (compute family) in this namespace to invoke with the
	// events: the bucket waits until it is Ready.
	// +optional
	FunctionRef *shared.Reference `json:"functionRef,omitempty"`

	// FunctionARN is the ARN of a Lambda function (or of one of its versions or aliases), in
	// the bucket's region, to invoke with the events. The operator lets S3 invoke it only when
	// an object of this namespace made the function (or the administrator allows writing into
	// others).
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:lambda:[a-z0-9-]+:[0-9]{12}:function:[A-Za-z0-9_-]{1,64}(:[A-Za-z0-9$_-]{1,128})?$`
	FunctionARN string `json:"functionARN,omitempty"`
}

// S3ReplicationFilter limits a replication rule to the objects whose keys start with a prefix
// and that carry every tag given; none replicates every object.
type S3ReplicationFilter struct {
	// Prefix the keys start with, for example documents/.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Prefix string `json:"prefix,omitempty"`

	// Tags the objects must all carry, by key and value.
	// +optional
	// +kubebuilder:validation:MaxProperties=10
	Tags map[string]string `json:"tags,omitempty"`
}

// S3ReplicationDestination is the bucket a replication rule copies objects into: an S3Bucket
// of this namespace by reference, or a bucket by name. Its versioning must be enabled: the
// bucket waits (Ready False, DestinationNotVersioned) until it is.
// +kubebuilder:validation:XValidation:rule="has(self.bucketRef) != has(self.bucketName)",message="give the replication destination as exactly one of bucketRef or bucketName"
type S3ReplicationDestination struct {
	// BucketRef names an S3Bucket in this namespace to replicate into: the bucket waits until it
	// is Ready, and its spec must enable versioning.
	// +optional
	BucketRef *shared.Reference `json:"bucketRef,omitempty"`

	// BucketName is the name of the bucket to replicate into. The operator replicates into it
	// only when an object of this namespace made it (or the administrator allows writing into
	// others).
	// +optional
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9][a-z0-9.-]*[a-z0-9]$`
	BucketName string `json:"bucketName,omitempty"`

	// StorageClass of the replicas; unset keeps the source object's.
	// +optional
	// +kubebuilder:validation:Enum=STANDARD;REDUCED_REDUNDANCY;STANDARD_IA;ONEZONE_IA;INTELLIGENT_TIERING;GLACIER;DEEP_ARCHIVE;GLACIER_IR
	StorageClass string `json:"storageClass,omitempty"`
}

// S3ReplicationRule copies the objects a filter selects into a destination bucket.
// +kubebuilder:validation:XValidation:rule="!has(self.deleteMarkerReplication) || !self.deleteMarkerReplication || !has(self.filter) || !has(self.filter.tags) || size(self.filter.tags) == 0",message="deleteMarkerReplication cannot be used with a tag filter: S3 does not replicate delete markers for tag-based rules"
type S3ReplicationRule struct {
	// ID names the rule; unique within the bucket.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	ID string `json:"id"`

	// Priority decides which rule applies when the filters of several rules match one object
	// and their destinations are the same: the higher wins. Unique within the bucket when it
	// has more than one rule.
	// +optional
	// +kubebuilder:default=0
	// +kubebuilder:validation:Minimum=0
	Priority int32 `json:"priority"`

	// Status is Enabled (the rule replicates) or Disabled (kept, replicates nothing).
	// +optional
	// +kubebuilder:default=Enabled
	// +kubebuilder:validation:Enum=Enabled;Disabled
	Status string `json:"status,omitempty"`

	// Filter selects the objects replicated, by key prefix and tags; none replicates every
	// object.
	// +optional
	Filter *S3ReplicationFilter `json:"filter,omitempty"`

	// Destination is the bucket the objects are copied into.
	Destination S3ReplicationDestination `json:"destination"`

	// DeleteMarkerReplication copies delete markers too, so that an object deleted in this
	// bucket (without a version id) is deleted in the destination as well.
	// +optional
	DeleteMarkerReplication bool `json:"deleteMarkerReplication,omitempty"`
}

// S3Replication copies the bucket's new objects into other buckets, with an IAM role S3
// assumes (its trust policy names s3.amazonaws.com). It needs versioning enabled on this bucket
// and on every destination.
// +kubebuilder:validation:XValidation:rule="has(self.roleRef) != has(self.roleARN)",message="give the replication role as exactly one of roleRef or roleARN"
// +kubebuilder:validation:XValidation:rule="size(self.rules) <= 1 || self.rules.all(r, self.rules.exists_one(o, o.priority == r.priority))",message="replication rules need distinct priorities when there is more than one"
type S3Replication struct {
	// RoleRef names an IAMRole (security family) in this namespace that S3 assumes to
	// replicate, by its ARN: the bucket waits until it is Ready.
	// +optional
	RoleRef *shared.Reference `json:"roleRef,omitempty"`

	// RoleARN is the ARN of the IAM role S3 assumes to replicate. The operator passes only
	// roles the namespace's IAMRoles made and those the administrator allows.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:iam::[0-9]{12}:role/.+$`
	RoleARN string `json:"roleARN,omitempty"`

	// Rules are the replication rules, one destination each.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=100
	// +listType=map
	// +listMapKey=id
	Rules []S3ReplicationRule `json:"rules"`
}

// S3Logging writes the bucket's server access logs into a target bucket, in this bucket's
// account and region. The operator adds to the target bucket's policy the statement that lets
// the logging service write there (under the reserved Sid prefix, which the target's S3Bucket
// keeps beside its own policy), and removes it when logging goes.
// +kubebuilder:validation:XValidation:rule="has(self.targetBucketRef) != has(self.targetBucketName)",message="give the logging target as exactly one of targetBucketRef or targetBucketName"
type S3Logging struct {
	// TargetBucketRef names an S3Bucket in this namespace to write the logs into: the bucket
	// waits until it is Ready.
	// +optional
	TargetBucketRef *shared.Reference `json:"targetBucketRef,omitempty"`

	// TargetBucketName is the name of the bucket to write the logs into. The operator writes
	// into its policy only when an object of this namespace made it (or the administrator
	// allows writing into others).
	// +optional
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9][a-z0-9.-]*[a-z0-9]$`
	TargetBucketName string `json:"targetBucketName,omitempty"`

	// TargetPrefix starts the key of every log object, for example logs/orders/.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	TargetPrefix string `json:"targetPrefix,omitempty"`
}

// S3BucketSpec is the desired state of an S3 bucket. Lifecycle rules, CORS rules, event
// notifications, replication, access logging, the policy and the tags are always managed:
// removing them from the spec removes them from the bucket.
// Versioning, encryption, the public access block and object ownership are managed when set.
// +kubebuilder:validation:XValidation:rule="self.bucketName == oldSelf.bucketName",message="bucketName cannot change; create a new S3Bucket to use another name"
// +kubebuilder:validation:XValidation:rule="!has(self.replication) || (has(self.versioning) && self.versioning.enabled)",message="replication needs versioning.enabled: true on this bucket; S3 replicates only from versioned buckets"
type S3BucketSpec struct {
	shared.ManagedSpec `json:",inline"`

	// BucketName is the bucket's globally unique name. It cannot change.
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9][a-z0-9.-]*[a-z0-9]$`
	// +kubebuilder:validation:XValidation:rule="!self.contains('..') && !self.contains('.-') && !self.contains('-.')",message="bucket names cannot hold two adjacent periods, or a period next to a hyphen"
	// +kubebuilder:validation:XValidation:rule="!self.matches('^[0-9]+[.][0-9]+[.][0-9]+[.][0-9]+$')",message="bucket names cannot be formatted as an IP address"
	// +kubebuilder:validation:XValidation:rule="!self.startsWith('xn--') && !self.startsWith('sthree-') && !self.endsWith('-s3alias') && !self.endsWith('--ol-s3') && !self.endsWith('.mrap') && !self.endsWith('--x-s3')",message="bucket names cannot start with xn-- or sthree-, or end with -s3alias, --ol-s3, .mrap or --x-s3 (AWS reserves them)"
	BucketName string `json:"bucketName"`

	// Versioning turns object versioning on or suspends it.
	// +optional
	Versioning *S3Versioning `json:"versioning,omitempty"`

	// Encryption is the default encryption of new objects.
	// +optional
	Encryption *S3Encryption `json:"encryption,omitempty"`

	// PublicAccessBlock blocks public access.
	// +optional
	PublicAccessBlock *S3PublicAccessBlock `json:"publicAccessBlock,omitempty"`

	// LifecycleRules transition and expire objects.
	// +optional
	// +kubebuilder:validation:MaxItems=1000
	// +listType=map
	// +listMapKey=id
	LifecycleRules []S3LifecycleRule `json:"lifecycleRules,omitempty"`

	// CORSRules allow cross-origin browser requests.
	// +optional
	// +kubebuilder:validation:MaxItems=100
	CORSRules []S3CORSRule `json:"corsRules,omitempty"`

	// Notifications send the bucket's object events to SQS queues, SNS topics and Lambda
	// functions, one destination each. The bucket's whole notification configuration is the
	// spec's: a configuration made outside is removed, and none means none.
	// +optional
	// +kubebuilder:validation:MaxItems=100
	// +listType=map
	// +listMapKey=id
	Notifications []S3Notification `json:"notifications,omitempty"`

	// Replication copies new objects into other buckets. The bucket's whole replication
	// configuration is the spec's: a configuration made outside is removed, and none means none.
	// +optional
	Replication *S3Replication `json:"replication,omitempty"`

	// Logging writes server access logs into another bucket. Like replication, it is always
	// managed: none turns access logging off.
	// +optional
	Logging *S3Logging `json:"logging,omitempty"`

	// ObjectOwnership decides who owns uploaded objects and whether ACLs apply:
	// BucketOwnerEnforced (ACLs off, AWS's default), BucketOwnerPreferred or ObjectWriter.
	// +optional
	// +kubebuilder:validation:Enum=BucketOwnerEnforced;BucketOwnerPreferred;ObjectWriter
	ObjectOwnership string `json:"objectOwnership,omitempty"`

	// Policy is the bucket policy, a JSON document. Statements whose Sid starts with
	// InfraOperator are reserved for the statements other objects grant in the bucket's policy
	// (a CloudFrontDistribution lets its origin access control read the bucket, another
	// S3Bucket's logging lets the logging service write its logs); the operator
	// keeps them beside this policy, and does not delete the bucket policy while any remains.
	// +optional
	// +kubebuilder:validation:MaxLength=20480
	Policy string `json:"policy,omitempty"`

	// ForceDestroy lets deletionPolicy Delete empty the bucket (every object and version)
	// before deleting it. Without it, deleting a bucket that still holds objects waits, and
	// the Synced condition says why.
	// +optional
	ForceDestroy bool `json:"forceDestroy,omitempty"`
}

// S3BucketStatus is the observed state of an S3 bucket.
type S3BucketStatus struct {
	shared.ManagedStatus `json:",inline"`

	// BucketName is the bucket's name.
	// +optional
	BucketName string `json:"bucketName,omitempty" output:""`

	// Region is the region the bucket lives in.
	// +optional
	Region string `json:"region,omitempty" output:""`

	// ARN is the bucket's ARN.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// BucketDomainName is the bucket's virtual-hosted domain name.
	// +optional
	BucketDomainName string `json:"bucketDomainName,omitempty" output:""`

	// RegionalDomainName is the bucket's virtual-hosted domain name that names its region
	// (bucket.s3.region.amazonaws.com), which every region answers without a redirect.
	// +optional
	RegionalDomainName string `json:"regionalDomainName,omitempty" output:""`
}

// S3Bucket is an S3 bucket.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=s3;bucket,categories={aws,aws-data}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="BUCKET",type=string,JSONPath=`.spec.bucketName`
// +kubebuilder:printcolumn:name="REGION",type=string,JSONPath=`.status.region`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type S3Bucket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   S3BucketSpec   `json:"spec"`
	Status S3BucketStatus `json:"status,omitempty"`
}

// S3BucketList is a list of S3Buckets.
// +kubebuilder:object:root=true
type S3BucketList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []S3Bucket `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (b *S3Bucket) GetManagedSpec() *shared.ManagedSpec { return &b.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (b *S3Bucket) GetManagedStatus() *shared.ManagedStatus { return &b.Status.ManagedStatus }
