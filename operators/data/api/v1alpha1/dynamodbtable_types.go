package v1alpha1

import (
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// DynamoDBAttribute is a key attribute: its name and scalar type.
type DynamoDBAttribute struct {
	// Name of the attribute.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	Name string `json:"name"`

	// Type of the attribute: S (string), N (number) or B (binary). YAML 1.1 reads an unquoted
	// N as the boolean false, and kubectl sends it so; false is taken as N.
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	Type DynamoDBAttributeType `json:"type"`
}

// DynamoDBAttributeType is S, N or B. It reads the boolean false as N, because YAML 1.1 (and
// so kubectl) turns an unquoted N into false; any other value is kept as text for validation
// to refuse with a clear message.
type DynamoDBAttributeType string

// UnmarshalJSON reads a string, or the boolean false as N.
func (a *DynamoDBAttributeType) UnmarshalJSON(b []byte) error {
	switch v := string(b); v {
	case "false":
		*a = "N"
	case "true", "null":
		*a = DynamoDBAttributeType(v)
	default:
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			*a = DynamoDBAttributeType(v)
			return nil
		}
		*a = DynamoDBAttributeType(s)
	}
	return nil
}

// Valid reports whether the type is S, N or B.
func (a DynamoDBAttributeType) Valid() bool { return a == "S" || a == "N" || a == "B" }

// DynamoDBProjection says which attributes an index holds.
// +kubebuilder:validation:XValidation:rule="self.type == 'INCLUDE' || !has(self.nonKeyAttributes)",message="nonKeyAttributes is only allowed with projection type INCLUDE"
type DynamoDBProjection struct {
	// Type is ALL, KEYS_ONLY or INCLUDE (the keys plus nonKeyAttributes).
	// +kubebuilder:validation:Enum=ALL;KEYS_ONLY;INCLUDE
	// +kubebuilder:default=ALL
	Type string `json:"type,omitempty"`

	// NonKeyAttributes are the attributes an INCLUDE projection adds.
	// +optional
	// +kubebuilder:validation:MaxItems=100
	NonKeyAttributes []string `json:"nonKeyAttributes,omitempty"`
}

// DynamoDBGlobalSecondaryIndex is a global secondary index. Indexes can be added and removed
// after creation (one at a time, as DynamoDB allows); an index's keys and projection cannot
// change, so changing them replaces the index.
type DynamoDBGlobalSecondaryIndex struct {
	// IndexName is the index's name.
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9_.-]+$`
	IndexName string `json:"indexName"`

	// HashKey is the index's partition key.
	HashKey DynamoDBAttribute `json:"hashKey"`

	// RangeKey is the index's optional sort key.
	// +optional
	RangeKey *DynamoDBAttribute `json:"rangeKey,omitempty"`

	// Projection says which attributes the index holds (default ALL).
	// +optional
	Projection *DynamoDBProjection `json:"projection,omitempty"`

	// ReadCapacityUnits is the index's provisioned read capacity; required with billing mode
	// PROVISIONED.
	// +optional
	// +kubebuilder:validation:Minimum=1
	ReadCapacityUnits *int64 `json:"readCapacityUnits,omitempty"`

	// WriteCapacityUnits is the index's provisioned write capacity; required with billing mode
	// PROVISIONED.
	// +optional
	// +kubebuilder:validation:Minimum=1
	WriteCapacityUnits *int64 `json:"writeCapacityUnits,omitempty"`
}

// DynamoDBLocalSecondaryIndex is a local secondary index: the table's partition key with
// another sort key. Local indexes exist only from the table's creation and cannot change.
type DynamoDBLocalSecondaryIndex struct {
	// IndexName is the index's name.
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9_.-]+$`
	IndexName string `json:"indexName"`

	// RangeKey is the index's sort key.
	RangeKey DynamoDBAttribute `json:"rangeKey"`

	// Projection says which attributes the index holds (default ALL).
	// +optional
	Projection *DynamoDBProjection `json:"projection,omitempty"`
}

// DynamoDBTimeToLive expires items by a timestamp attribute.
type DynamoDBTimeToLive struct {
	// Enabled turns expiry on or off.
	Enabled bool `json:"enabled"`

	// AttributeName is the attribute holding each item's expiry time (epoch seconds).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	AttributeName string `json:"attributeName"`
}

// DynamoDBToggle is a feature that is on or off.
type DynamoDBToggle struct {
	// Enabled turns the feature on or off.
	Enabled bool `json:"enabled"`
}

// DynamoDBStream configures the table's change stream.
// +kubebuilder:validation:XValidation:rule="!self.enabled || has(self.viewType)",message="an enabled stream needs a viewType"
type DynamoDBStream struct {
	// Enabled turns the stream on or off.
	Enabled bool `json:"enabled"`

	// ViewType is what each stream record holds.
	// +optional
	// +kubebuilder:validation:Enum=KEYS_ONLY;NEW_IMAGE;OLD_IMAGE;NEW_AND_OLD_IMAGES
	ViewType string `json:"viewType,omitempty"`
}

// DynamoDBServerSideEncryption chooses the table's encryption key. Tables are always
// encrypted; without this block (or with enabled false) DynamoDB uses a key it owns.
// +kubebuilder:validation:XValidation:rule="!(has(self.kmsKeyID) && has(self.kmsKeyRef))",message="give the KMS key as at most one of kmsKeyID or kmsKeyRef"
// +kubebuilder:validation:XValidation:rule="self.enabled || !has(self.kmsKeyRef)",message="kmsKeyRef needs enabled: true"
type DynamoDBServerSideEncryption struct {
	// Enabled encrypts with a KMS key: kmsKeyID or kmsKeyRef, or the AWS managed key
	// aws/dynamodb.
	Enabled bool `json:"enabled"`

	// KMSKeyID is the id, ARN or alias of a customer managed KMS key. DynamoDB reports the
	// key by its ARN, so an alias is looked up with KMS's DescribeKey at each sync (the
	// operator's identity needs kms:DescribeKey on the key).
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="self.matches('^((arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:key/)?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|mrk-[0-9a-fA-F]{32})|(arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:)?alias/[a-zA-Z0-9/_-]{1,250})$')",message="give the KMS key as a key id (1234abcd-12ab-34cd-56ef-1234567890ab, or mrk- and 32 hex digits for a multi-Region key), a key ARN (arn:aws:kms:<region>:<account>:key/<key id>), an alias (alias/my-key, or alias/aws/<service> for the AWS managed key) or an alias ARN"
	KMSKeyID string `json:"kmsKeyID,omitempty"`

	// KMSKeyRef names a KMSKey (security family) in this namespace to encrypt with, by its
	// key ARN: the table waits (Ready False, ReferenceNotFound or ReferenceNotReady) until the
	// KMSKey exists and is Ready.
	// +optional
	KMSKeyRef *shared.Reference `json:"kmsKeyRef,omitempty"`
}

// DynamoDBTableSpec is the desired state of a DynamoDB table.
// +kubebuilder:validation:XValidation:rule="self.billingMode != 'PROVISIONED' || (has(self.readCapacityUnits) && has(self.writeCapacityUnits))",message="billingMode PROVISIONED needs readCapacityUnits and writeCapacityUnits"
// +kubebuilder:validation:XValidation:rule="self.billingMode != 'PAY_PER_REQUEST' || (!has(self.readCapacityUnits) && !has(self.writeCapacityUnits))",message="billingMode PAY_PER_REQUEST takes no readCapacityUnits or writeCapacityUnits"
// +kubebuilder:validation:XValidation:rule="!has(self.globalSecondaryIndexes) || self.billingMode != 'PROVISIONED' || self.globalSecondaryIndexes.all(i, has(i.readCapacityUnits) && has(i.writeCapacityUnits))",message="with billingMode PROVISIONED every global secondary index needs readCapacityUnits and writeCapacityUnits"
// +kubebuilder:validation:XValidation:rule="!has(self.globalSecondaryIndexes) || self.billingMode != 'PAY_PER_REQUEST' || self.globalSecondaryIndexes.all(i, !has(i.readCapacityUnits) && !has(i.writeCapacityUnits))",message="with billingMode PAY_PER_REQUEST global secondary indexes take no capacity units"
// +kubebuilder:validation:XValidation:rule="!has(self.localSecondaryIndexes) || has(self.rangeKey)",message="local secondary indexes need the table to have a rangeKey"
// +kubebuilder:validation:XValidation:rule="self.tableName == oldSelf.tableName",message="tableName cannot change; create a new DynamoDBTable to use another name"
// +kubebuilder:validation:XValidation:rule="self.hashKey.name == oldSelf.hashKey.name && has(self.rangeKey) == has(oldSelf.rangeKey) && (!has(self.rangeKey) || self.rangeKey.name == oldSelf.rangeKey.name)",message="the key schema (hashKey, rangeKey) cannot change; create a new table and copy the data"
// +kubebuilder:validation:XValidation:rule="has(self.localSecondaryIndexes) == has(oldSelf.localSecondaryIndexes) && (!has(self.localSecondaryIndexes) || self.localSecondaryIndexes.map(i, i.indexName + '/' + i.rangeKey.name) == oldSelf.localSecondaryIndexes.map(i, i.indexName + '/' + i.rangeKey.name))",message="localSecondaryIndexes can only be set when the table is created; create a new table to change them"
type DynamoDBTableSpec struct {
	shared.ManagedSpec `json:",inline"`

	// TableName is the table's name in AWS. It cannot change.
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9_.-]+$`
	TableName string `json:"tableName"`

	// HashKey is the partition key. It cannot change.
	HashKey DynamoDBAttribute `json:"hashKey"`

	// RangeKey is the optional sort key. It cannot change.
	// +optional
	RangeKey *DynamoDBAttribute `json:"rangeKey,omitempty"`

	// BillingMode is PAY_PER_REQUEST (on demand, the default) or PROVISIONED.
	// +optional
	// +kubebuilder:default=PAY_PER_REQUEST
	// +kubebuilder:validation:Enum=PAY_PER_REQUEST;PROVISIONED
	BillingMode string `json:"billingMode,omitempty"`

	// ReadCapacityUnits is the provisioned read capacity (PROVISIONED only).
	// +optional
	// +kubebuilder:validation:Minimum=1
	ReadCapacityUnits *int64 `json:"readCapacityUnits,omitempty"`

	// WriteCapacityUnits is the provisioned write capacity (PROVISIONED only).
	// +optional
	// +kubebuilder:validation:Minimum=1
	WriteCapacityUnits *int64 `json:"writeCapacityUnits,omitempty"`

	// GlobalSecondaryIndexes are the table's global secondary indexes.
	// +optional
	// +kubebuilder:validation:MaxItems=20
	// +listType=map
	// +listMapKey=indexName
	GlobalSecondaryIndexes []DynamoDBGlobalSecondaryIndex `json:"globalSecondaryIndexes,omitempty"`

	// LocalSecondaryIndexes are the table's local secondary indexes; they can only be given
	// when the table is created.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	// +listType=map
	// +listMapKey=indexName
	LocalSecondaryIndexes []DynamoDBLocalSecondaryIndex `json:"localSecondaryIndexes,omitempty"`

	// TimeToLive expires items by a timestamp attribute. Not managed when unset.
	// +optional
	TimeToLive *DynamoDBTimeToLive `json:"timeToLive,omitempty"`

	// PointInTimeRecovery turns continuous backups on or off. Not managed when unset.
	// +optional
	PointInTimeRecovery *DynamoDBToggle `json:"pointInTimeRecovery,omitempty"`

	// Stream configures the change stream. Not managed when unset.
	// +optional
	Stream *DynamoDBStream `json:"stream,omitempty"`

	// ServerSideEncryption chooses the encryption key. Not managed when unset.
	// +optional
	ServerSideEncryption *DynamoDBServerSideEncryption `json:"serverSideEncryption,omitempty"`

	// TableClass is STANDARD or STANDARD_INFREQUENT_ACCESS. Not managed when unset.
	// +optional
	// +kubebuilder:validation:Enum=STANDARD;STANDARD_INFREQUENT_ACCESS
	TableClass string `json:"tableClass,omitempty"`

	// DeletionProtection stops the table from being deleted, by the operator or anyone else,
	// until it is turned off. Not managed when unset: protection turned on outside the
	// operator (or on an adopted table) is kept, and holds the table's deletion too.
	// +optional
	DeletionProtection *bool `json:"deletionProtection,omitempty"`
}

// DynamoDBTableStatus is the observed state of a DynamoDB table.
type DynamoDBTableStatus struct {
	shared.ManagedStatus `json:",inline"`

	// TableName is the table's name in AWS.
	// +optional
	TableName string `json:"tableName,omitempty" output:""`

	// TableStatus is DynamoDB's state of the table: CREATING, ACTIVE, UPDATING, DELETING, ...
	// +optional
	TableStatus string `json:"tableStatus,omitempty"`

	// TableARN is the table's ARN.
	// +optional
	TableARN string `json:"tableARN,omitempty" output:""`

	// ItemCount is DynamoDB's approximate item count, refreshed by AWS about every six hours.
	// +optional
	ItemCount int64 `json:"itemCount,omitempty"`

	// StreamARN is the ARN of the table's latest stream, when streams are enabled.
	// +optional
	StreamARN string `json:"streamARN,omitempty" output:""`
}

// DynamoDBTable is a DynamoDB table.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=ddb;ddbtable,categories={aws,aws-data}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="TABLE",type=string,JSONPath=`.spec.tableName`
// +kubebuilder:printcolumn:name="STATUS",type=string,JSONPath=`.status.tableStatus`
// +kubebuilder:printcolumn:name="ARN",type=string,JSONPath=`.status.tableARN`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type DynamoDBTable struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   DynamoDBTableSpec   `json:"spec"`
	Status DynamoDBTableStatus `json:"status,omitempty"`
}

// DynamoDBTableList is a list of DynamoDBTables.
// +kubebuilder:object:root=true
type DynamoDBTableList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []DynamoDBTable `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (t *DynamoDBTable) GetManagedSpec() *shared.ManagedSpec { return &t.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (t *DynamoDBTable) GetManagedStatus() *shared.ManagedStatus { return &t.Status.ManagedStatus }
