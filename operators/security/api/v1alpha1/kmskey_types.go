package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// KMSKeySpec is the desired state of a KMS key.
// +kubebuilder:validation:XValidation:rule="!has(self.keySpec) || !has(self.keyUsage) || self.keyUsage in (self.keySpec == 'SYMMETRIC_DEFAULT' ? ['ENCRYPT_DECRYPT'] : self.keySpec.startsWith('HMAC_') ? ['GENERATE_VERIFY_MAC'] : self.keySpec.startsWith('RSA_') ? ['ENCRYPT_DECRYPT', 'SIGN_VERIFY'] : self.keySpec.startsWith('ECC_NIST_P') ? ['SIGN_VERIFY', 'KEY_AGREEMENT'] : self.keySpec.startsWith('ML_KEM_') ? ['ENCAPSULATE_DECAPSULATE'] : self.keySpec == 'SM2' ? ['ENCRYPT_DECRYPT', 'SIGN_VERIFY', 'KEY_AGREEMENT'] : ['SIGN_VERIFY'])",messageExpression="'keyUsage ' + self.keyUsage + ' (ENCRYPT_DECRYPT unless set) does not go with keySpec ' + self.keySpec + '; set keyUsage to one the key spec allows: SYMMETRIC_DEFAULT takes ENCRYPT_DECRYPT; HMAC_* GENERATE_VERIFY_MAC; RSA_* ENCRYPT_DECRYPT or SIGN_VERIFY; ECC_NIST_P256, ECC_NIST_P384 and ECC_NIST_P521 SIGN_VERIFY or KEY_AGREEMENT; ECC_SECG_P256K1, ECC_NIST_EDWARDS25519 and ML_DSA_* SIGN_VERIFY; ML_KEM_* ENCAPSULATE_DECAPSULATE; SM2 ENCRYPT_DECRYPT, SIGN_VERIFY or KEY_AGREEMENT'"
// +kubebuilder:validation:XValidation:rule="!has(self.enableKeyRotation) || !self.enableKeyRotation || !has(self.keySpec) || self.keySpec == 'SYMMETRIC_DEFAULT'",message="enableKeyRotation is for symmetric encryption keys only (keySpec SYMMETRIC_DEFAULT): KMS does not rotate asymmetric, HMAC or post-quantum keys; remove enableKeyRotation"
// +kubebuilder:validation:XValidation:rule="!has(self.rotationPeriodInDays) || (has(self.enableKeyRotation) && self.enableKeyRotation)",message="rotationPeriodInDays needs enableKeyRotation: true"
type KMSKeySpec struct {
	shared.ManagedSpec `json:",inline"`

	// Description describes the key, for example what it protects.
	// +optional
	// +kubebuilder:validation:MaxLength=8192
	Description string `json:"description,omitempty"`

	// KeySpec is the type of key material, fixed at creation: SYMMETRIC_DEFAULT (the default,
	// a 256-bit AES-GCM key), HMAC_224 to HMAC_512, RSA_2048 to RSA_4096, ECC_NIST_P256,
	// ECC_NIST_P384, ECC_NIST_P521, ECC_SECG_P256K1, ECC_NIST_EDWARDS25519, ML_DSA_44 to
	// ML_DSA_87, ML_KEM_512 to ML_KEM_1024, or SM2 (China Regions only).
	// +optional
	// +kubebuilder:default=SYMMETRIC_DEFAULT
	// +kubebuilder:validation:Enum=SYMMETRIC_DEFAULT;HMAC_224;HMAC_256;HMAC_384;HMAC_512;RSA_2048;RSA_3072;RSA_4096;ECC_NIST_P256;ECC_NIST_P384;ECC_NIST_P521;ECC_SECG_P256K1;ECC_NIST_EDWARDS25519;ML_DSA_44;ML_DSA_65;ML_DSA_87;ML_KEM_512;ML_KEM_768;ML_KEM_1024;SM2
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="keySpec cannot change; create a new KMSKey"
	KeySpec string `json:"keySpec,omitempty"`

	// KeyUsage is what the key is for, fixed at creation: ENCRYPT_DECRYPT (the default),
	// SIGN_VERIFY, GENERATE_VERIFY_MAC (HMAC keys), KEY_AGREEMENT (elliptic curve and SM2
	// keys) or ENCAPSULATE_DECAPSULATE (ML-KEM keys). Each key spec allows some usages only.
	// +optional
	// +kubebuilder:default=ENCRYPT_DECRYPT
	// +kubebuilder:validation:Enum=ENCRYPT_DECRYPT;SIGN_VERIFY;GENERATE_VERIFY_MAC;KEY_AGREEMENT;ENCAPSULATE_DECAPSULATE
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="keyUsage cannot change; create a new KMSKey"
	KeyUsage string `json:"keyUsage,omitempty"`

	// KeyPolicy is the key policy, a JSON document: who may use and manage the key. It is
	// compared as a policy, not as text, and a policy changed outside the operator is put
	// back. Unset, the operator leaves the key's policy as it is: the default policy AWS gives
	// a new key (the account may use the key through IAM policies), or whatever was set last.
	// +optional
	// +kubebuilder:validation:MaxLength=32768
	KeyPolicy string `json:"keyPolicy,omitempty"`

	// EnableKeyRotation turns on automatic yearly (or rotationPeriodInDays) rotation of the
	// key material. Symmetric encryption keys only. KMS changes rotation only while the key is
	// enabled.
	// +optional
	EnableKeyRotation bool `json:"enableKeyRotation,omitempty"`

	// RotationPeriodInDays is the number of days between automatic rotations, 90 to 2560;
	// unset, 365. It needs enableKeyRotation.
	// +optional
	// +kubebuilder:validation:Minimum=90
	// +kubebuilder:validation:Maximum=2560
	RotationPeriodInDays int32 `json:"rotationPeriodInDays,omitempty"`

	// MultiRegion makes a multi-Region primary key, whose replicas in other Regions share its
	// key material. It cannot change. Replicas are not managed by this kind.
	// +optional
	// +kubebuilder:default=false
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="multiRegion cannot change; create a new KMSKey"
	MultiRegion bool `json:"multiRegion,omitempty"`

	// Enabled says whether the key may be used in cryptographic operations: true (the
	// default) or false to disable it (DisableKey) without deleting it.
	// +optional
	// +kubebuilder:default=true
	Enabled *bool `json:"enabled,omitempty"`

	// Aliases are the key's aliases (alias/ and a name), as a set: each is created to point
	// at this key, and an alias pointing at this key that is not listed is deleted. An alias
	// that points at another key is moved to this one only when that key belongs to this
	// object; otherwise the object reports AliasTaken. Names beginning with alias/aws/ are
	// AWS's own.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=50
	// +kubebuilder:validation:items:MaxLength=256
	// +kubebuilder:validation:items:Pattern=`^alias/[a-zA-Z0-9/_-]+$`
	// +kubebuilder:validation:XValidation:rule="self.all(a, !a.startsWith('alias/aws/'))",message="aliases beginning with alias/aws/ are reserved for AWS managed keys; choose another name"
	Aliases []string `json:"aliases,omitempty"`

	// PendingWindowInDays is the waiting period, 7 to 30 days (30 unless set), between the
	// deletion of this object (with deletionPolicy Delete) and the deletion of the key by
	// KMS. Until then the key is PendingDeletion and unusable; an object of the same namespace
	// and name created meanwhile cancels the deletion and takes the key back.
	// +optional
	// +kubebuilder:default=30
	// +kubebuilder:validation:Minimum=7
	// +kubebuilder:validation:Maximum=30
	PendingWindowInDays int32 `json:"pendingWindowInDays,omitempty"`
}

// KMSKeyStatus is the observed state of a KMS key.
type KMSKeyStatus struct {
	shared.ManagedStatus `json:",inline"`

	// KeyID is the key's id (a UUID, or mrk- and 32 hex digits for a multi-Region key).
	// +optional
	KeyID string `json:"keyID,omitempty" output:""`

	// ARN is the key's ARN, which other kinds' KMS key fields take.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// KeyState is the key's state in KMS: Enabled, Disabled, PendingDeletion, Creating,
	// PendingImport, PendingReplicaDeletion, Unavailable or Updating.
	// +optional
	KeyState string `json:"keyState,omitempty"`

	// KeyManager is CUSTOMER for a customer managed key, AWS for an AWS managed key.
	// +optional
	KeyManager string `json:"keyManager,omitempty"`

	// Aliases are the aliases that point at the key, sorted.
	// +optional
	Aliases []string `json:"aliases,omitempty"`

	// Enabled is true while the key may be used in cryptographic operations.
	// +optional
	Enabled bool `json:"enabled,omitempty"`

	// RotationEnabled is true while automatic rotation of the key material is on.
	// +optional
	RotationEnabled bool `json:"rotationEnabled,omitempty"`

	// MultiRegion is true for a multi-Region key.
	// +optional
	MultiRegion bool `json:"multiRegion,omitempty"`

	// DeletionDate is when KMS deletes a key that is PendingDeletion.
	// +optional
	DeletionDate *metav1.Time `json:"deletionDate,omitempty"`
}

// KMSKey is a customer managed KMS key with its key policy, rotation, aliases and tags.
// Deleting the object schedules the key's deletion after pendingWindowInDays.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=kms,categories={aws,aws-security}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="KEY-ID",type=string,JSONPath=`.status.keyID`
// +kubebuilder:printcolumn:name="STATE",type=string,JSONPath=`.status.keyState`
// +kubebuilder:printcolumn:name="SPEC",type=string,JSONPath=`.spec.keySpec`,priority=1
// +kubebuilder:printcolumn:name="ARN",type=string,JSONPath=`.status.arn`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type KMSKey struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   KMSKeySpec   `json:"spec"`
	Status KMSKeyStatus `json:"status,omitempty"`
}

// KMSKeyList is a list of KMSKeys.
// +kubebuilder:object:root=true
type KMSKeyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []KMSKey `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (k *KMSKey) GetManagedSpec() *shared.ManagedSpec { return &k.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (k *KMSKey) GetManagedStatus() *shared.ManagedStatus { return &k.Status.ManagedStatus }
