package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// SecretsManagerSecretSpec is the desired state of a Secrets Manager secret.
// +kubebuilder:validation:XValidation:rule="!(has(self.kmsKeyID) && has(self.kmsKeyRef))",message="give the KMS key as kmsKeyID or kmsKeyRef, not both"
// +kubebuilder:validation:XValidation:rule="!(has(self.rotationEnabled) && self.rotationEnabled) || (has(self.rotationLambdaARN) && has(self.rotationRules))",message="rotationEnabled needs rotationLambdaARN (the function that rotates the value) and rotationRules (when)"
// +kubebuilder:validation:XValidation:rule="!has(self.recoveryWindowInDays) || self.recoveryWindowInDays == 0 || (self.recoveryWindowInDays >= 7 && self.recoveryWindowInDays <= 30)",message="recoveryWindowInDays is 7 to 30 days, or 0 to delete at once without recovery"
type SecretsManagerSecretSpec struct {
	shared.ManagedSpec `json:",inline"`

	// SecretName is the secret's name in the region, for example production/database/password.
	// It cannot change.
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9/_+=.@-]{1,512}$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="secretName cannot change; create a new SecretsManagerSecret"
	SecretName string `json:"secretName"`

	// Description describes the secret.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	Description string `json:"description,omitempty"`

	// SecretString is the secret's value written in the spec. Anyone who can read this object
	// can read it: prefer secretStringSecretRef. When both are set, secretStringSecretRef wins
	// and a SecretStringIgnored event says so. With neither, the secret is created without a
	// value and the operator never writes one (something else does, a rotation function for
	// example).
	// +optional
	// +kubebuilder:validation:MaxLength=65536
	SecretString string `json:"secretString,omitempty"`

	// SecretStringSecretRef names the key of a Kubernetes Secret in this namespace whose value
	// becomes the secret's value. A change of the Kubernetes Secret is written as a new version
	// (one PutSecretValue); the value itself never appears in the object, its events or the
	// operator's logs.
	// +optional
	SecretStringSecretRef *shared.SecretKeySelector `json:"secretStringSecretRef,omitempty"`

	// KMSKeyID is the KMS key that encrypts the secret: a key id, key ARN, alias
	// (alias/my-key) or alias ARN; unset, or alias/aws/secretsmanager, is the AWS managed key.
	// A change re-encrypts the current version with the new key.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="self.matches('^((arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:key/)?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|mrk-[0-9a-fA-F]{32})|(arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:)?alias/[a-zA-Z0-9/_-]{1,250})$')",message="give the KMS key as a key id (1234abcd-12ab-34cd-56ef-1234567890ab, or mrk- and 32 hex digits for a multi-Region key), a key ARN (arn:aws:kms:<region>:<account>:key/<key id>), an alias (alias/my-key, or alias/aws/secretsmanager for the AWS managed key) or an alias ARN"
	KMSKeyID string `json:"kmsKeyID,omitempty"`

	// KMSKeyRef names a KMSKey in this namespace that encrypts the secret, instead of
	// kmsKeyID; the secret waits until the key has an ARN.
	// +optional
	KMSKeyRef *shared.Reference `json:"kmsKeyRef,omitempty"`

	// RotationEnabled turns automatic rotation on: rotationLambdaARN rotates the value on the
	// rotationRules schedule. Once rotation is on, the rotation function owns the value: the
	// operator writes the spec's value only when the spec's value itself changes, and never
	// reverts a rotated value. Enabling rotation rotates once at once, as AWS does by default;
	// later schedule changes do not. Turning it off cancels the rotation schedule.
	// +optional
	RotationEnabled bool `json:"rotationEnabled,omitempty"`

	// RotationLambdaARN is the ARN of the Lambda function that rotates the value.
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:[A-Za-z0-9_-]{1,64}(:[A-Za-z0-9$_-]+)?$`
	RotationLambdaARN string `json:"rotationLambdaARN,omitempty"`

	// RotationRules say when the value is rotated.
	// +optional
	RotationRules *RotationRules `json:"rotationRules,omitempty"`

	// RecoveryWindowInDays is how long a deleted secret can still be restored, 7 to 30 days
	// (30 by default), with deletionPolicy Delete; 0 deletes it at once, without recovery. A
	// secret awaiting deletion whose object is created again is restored and reused.
	// +optional
	RecoveryWindowInDays *int32 `json:"recoveryWindowInDays,omitempty"`

	// ReplicaRegions are the other regions the secret is replicated to, as a set by region:
	// a replica the spec no longer names is removed.
	// +optional
	// +kubebuilder:validation:MaxItems=10
	// +listType=map
	// +listMapKey=region
	ReplicaRegions []ReplicaRegion `json:"replicaRegions,omitempty"`
}

// RotationRules say when a secret is rotated: every automaticallyAfterDays days, or on a
// schedule expression.
// +kubebuilder:validation:XValidation:rule="has(self.automaticallyAfterDays) != has(self.scheduleExpression)",message="give automaticallyAfterDays or scheduleExpression, not both"
type RotationRules struct {
	// AutomaticallyAfterDays rotates the value this many days after the last rotation.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000
	AutomaticallyAfterDays int64 `json:"automaticallyAfterDays,omitempty"`

	// ScheduleExpression rotates on a schedule: rate(10 days) or cron(0 16 1,15 * ? *).
	// +optional
	// +kubebuilder:validation:Pattern=`^(rate\(\d+ (hours?|days?)\)|cron\(.+\))$`
	// +kubebuilder:validation:MaxLength=256
	ScheduleExpression string `json:"scheduleExpression,omitempty"`

	// Duration is the length of the rotation window, in hours, for example 3h; unset, the
	// window lasts until the end of the day (rate) or the cron expression's window.
	// +optional
	// +kubebuilder:validation:Pattern=`^([1-9]|1\d|2[0-4])h$`
	Duration string `json:"duration,omitempty"`
}

// ReplicaRegion is one region the secret is replicated to.
type ReplicaRegion struct {
	// Region is the region, for example eu-west-1.
	// +kubebuilder:validation:Pattern=`^[a-z]{2}(-[a-z]+)+-\d+$`
	Region string `json:"region"`

	// KMSKeyID is the KMS key of the replica in that region; unset, the AWS managed key.
	// A change removes the replica and replicates it again.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	KMSKeyID string `json:"kmsKeyID,omitempty"`
}

// SecretsManagerSecretStatus is the observed state of a Secrets Manager secret. It never holds
// the secret's value.
type SecretsManagerSecretStatus struct {
	shared.ManagedStatus `json:",inline"`

	// SecretName is the secret's name.
	// +optional
	SecretName string `json:"secretName,omitempty" output:""`

	// ARN is the secret's ARN (its name and a random suffix).
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// VersionID is the id of the version staged AWSCURRENT, the value readers get.
	// +optional
	VersionID string `json:"versionID,omitempty"`

	// ValueHash identifies the value the operator last wrote from the spec: a salted, stretched
	// hash of it (PBKDF2-SHA256 with the object's UID as salt), which is also the version id
	// the operator writes it as. It lets the operator tell a changed value without reading the
	// secret; the value itself is never kept. A weak value can still be guessed from any
	// hash: use generated values.
	// +optional
	ValueHash string `json:"valueHash,omitempty"`

	// ValueSource is where the value comes from: secretStringSecretRef, secretString, or
	// empty when the spec gives none.
	// +optional
	ValueSource string `json:"valueSource,omitempty"`

	// RotationEnabled is whether automatic rotation is on.
	// +optional
	RotationEnabled bool `json:"rotationEnabled,omitempty"`

	// LastRotationDate is when the value was last rotated.
	// +optional
	LastRotationDate *metav1.Time `json:"lastRotationDate,omitempty"`

	// NextRotationDate is when the value is next rotated.
	// +optional
	NextRotationDate *metav1.Time `json:"nextRotationDate,omitempty"`

	// Replicas are the secret's replicas with their replication status.
	// +optional
	Replicas []ReplicaStatus `json:"replicas,omitempty"`
}

// ReplicaStatus is one replica of the secret.
type ReplicaStatus struct {
	// Region is the replica's region.
	Region string `json:"region"`

	// Status is InSync, InProgress or Failed.
	// +optional
	Status string `json:"status,omitempty"`

	// Message says why a replication failed.
	// +optional
	Message string `json:"message,omitempty"`
}

// SecretsManagerSecret is a Secrets Manager secret: its value from the spec or a Kubernetes
// Secret, its KMS key, rotation and replicas.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=smsecret,categories={aws,aws-security}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="SECRET",type=string,JSONPath=`.status.secretName`
// +kubebuilder:printcolumn:name="ROTATION",type=boolean,JSONPath=`.status.rotationEnabled`
// +kubebuilder:printcolumn:name="ARN",type=string,JSONPath=`.status.arn`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type SecretsManagerSecret struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   SecretsManagerSecretSpec   `json:"spec"`
	Status SecretsManagerSecretStatus `json:"status,omitempty"`
}

// SecretsManagerSecretList is a list of SecretsManagerSecrets.
// +kubebuilder:object:root=true
type SecretsManagerSecretList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []SecretsManagerSecret `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (s *SecretsManagerSecret) GetManagedSpec() *shared.ManagedSpec { return &s.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (s *SecretsManagerSecret) GetManagedStatus() *shared.ManagedStatus {
	return &s.Status.ManagedStatus
}
