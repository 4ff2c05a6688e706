package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// ECRImageScanningConfiguration says whether ECR scans images for vulnerabilities.
type ECRImageScanningConfiguration struct {
	// ScanOnPush scans every image when it is pushed. False leaves images unscanned until a
	// scan is started by hand.
	// +optional
	ScanOnPush bool `json:"scanOnPush,omitempty"`
}

// ECREncryptionConfiguration is how ECR encrypts the repository's images at rest. ECR cannot
// change it once the repository exists.
// +kubebuilder:validation:XValidation:rule="!(has(self.kmsKey) && has(self.kmsKeyRef))",message="give the KMS key as at most one of kmsKey or kmsKeyRef"
// +kubebuilder:validation:XValidation:rule="self.encryptionType != 'AES256' || !(has(self.kmsKey) || has(self.kmsKeyRef))",message="kmsKey and kmsKeyRef need encryptionType KMS or KMS_DSSE; AES256 uses keys ECR manages"
type ECREncryptionConfiguration struct {
	// EncryptionType is AES256 (keys ECR manages), KMS (a KMS key: the one named, else the AWS
	// managed key aws/ecr) or KMS_DSSE (two layers of KMS encryption).
	// +kubebuilder:validation:Enum=AES256;KMS;KMS_DSSE
	// +kubebuilder:default=AES256
	EncryptionType string `json:"encryptionType"`

	// KMSKey is the id, ARN or alias of the KMS key to encrypt with (KMS and KMS_DSSE only).
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	KMSKey string `json:"kmsKey,omitempty"`

	// KMSKeyRef names a KMSKey (security family) in this namespace to encrypt with, by its key
	// ARN: the repository waits (Ready False, ReferenceNotFound or ReferenceNotReady) until the
	// KMSKey exists and is Ready.
	// +optional
	KMSKeyRef *shared.Reference `json:"kmsKeyRef,omitempty"`
}

// ECRRepositorySpec is the desired state of a private ECR repository. The tag mutability,
// scan on push, lifecycle policy and repository policy are always managed: removing a policy
// from the spec removes it from the repository.
// +kubebuilder:validation:XValidation:rule="self.repositoryName == oldSelf.repositoryName",message="repositoryName cannot change; create a new ECRRepository to use another name"
// +kubebuilder:validation:XValidation:rule="has(self.encryptionConfiguration) == has(oldSelf.encryptionConfiguration) && (!has(self.encryptionConfiguration) || self.encryptionConfiguration == oldSelf.encryptionConfiguration)",message="encryptionConfiguration cannot change: ECR encrypts a repository the way it was created; create a new ECRRepository (with another repositoryName) for other encryption"
type ECRRepositorySpec struct {
	shared.ManagedSpec `json:",inline"`

	// RepositoryName is the repository's name, unique in the registry: lowercase letters,
	// digits and the separators . _ - between them, in path segments separated by /
	// (production/application), 2 to 256 characters. It cannot change.
	// +kubebuilder:validation:MinLength=2
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:Pattern=`^(?:[a-z0-9]+(?:[._-][a-z0-9]+)*/)*[a-z0-9]+(?:[._-][a-z0-9]+)*$`
	RepositoryName string `json:"repositoryName"`

	// ImageScanningConfiguration says whether images are scanned on push; unset, they are not.
	// +optional
	ImageScanningConfiguration *ECRImageScanningConfiguration `json:"imageScanningConfiguration,omitempty"`

	// ImageTagMutability is MUTABLE (a tag may move to another image) or IMMUTABLE (a pushed
	// tag never moves).
	// +optional
	// +kubebuilder:validation:Enum=MUTABLE;IMMUTABLE
	// +kubebuilder:default=MUTABLE
	ImageTagMutability string `json:"imageTagMutability,omitempty"`

	// EncryptionConfiguration is how images are encrypted at rest; unset, AES256. It cannot
	// change.
	// +optional
	EncryptionConfiguration *ECREncryptionConfiguration `json:"encryptionConfiguration,omitempty"`

	// LifecyclePolicy is the repository's lifecycle policy, a JSON document of rules that
	// expire images (see the ECR lifecycle policy reference). It is compared by meaning, not
	// by text.
	// +optional
	// +kubebuilder:validation:MinLength=100
	// +kubebuilder:validation:MaxLength=30720
	LifecyclePolicy string `json:"lifecyclePolicy,omitempty"`

	// RepositoryPolicy is the repository's access policy, a JSON IAM policy document that
	// says which principals may push and pull.
	// +optional
	// +kubebuilder:validation:MaxLength=10240
	RepositoryPolicy string `json:"repositoryPolicy,omitempty"`

	// ForceDelete deletes the repository with the images it holds when the object is deleted
	// with deletionPolicy Delete. False (the default) keeps a repository that holds images:
	// the object then waits with the condition RepositoryNotEmpty.
	// +optional
	ForceDelete bool `json:"forceDelete,omitempty"`
}

// ECRRepositoryStatus is the observed state of an ECR repository.
type ECRRepositoryStatus struct {
	shared.ManagedStatus `json:",inline"`

	// RepositoryName is the repository's name.
	// +optional
	RepositoryName string `json:"repositoryName,omitempty" output:""`

	// RepositoryURI is the URI docker push and pull take
	// (<registry id>.dkr.ecr.<region>.amazonaws.com/<name>).
	// +optional
	RepositoryURI string `json:"repositoryURI,omitempty" output:""`

	// ARN is the repository's ARN.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// RegistryID is the id of the registry (the AWS account) that holds the repository.
	// +optional
	RegistryID string `json:"registryID,omitempty" output:""`

	// ImageCount is how many images (distinct manifests) the repository held when it was last
	// looked at.
	// +optional
	ImageCount int32 `json:"imageCount,omitempty"`

	// ImageTagMutability is the tag mutability ECR reports.
	// +optional
	ImageTagMutability string `json:"imageTagMutability,omitempty"`

	// ScanOnPush is whether ECR scans images on push.
	// +optional
	ScanOnPush bool `json:"scanOnPush,omitempty"`

	// EncryptionType is how ECR encrypts the images: AES256, KMS or KMS_DSSE.
	// +optional
	EncryptionType string `json:"encryptionType,omitempty"`

	// KMSKey is the ARN of the KMS key the images are encrypted with, for KMS and KMS_DSSE
	// with a customer managed key.
	// +optional
	KMSKey string `json:"kmsKey,omitempty"`
}

// ECRRepository is a private Amazon ECR repository.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=ecr,categories={aws,aws-containers}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="REPOSITORY",type=string,JSONPath=`.spec.repositoryName`
// +kubebuilder:printcolumn:name="IMAGES",type=integer,JSONPath=`.status.imageCount`,priority=1
// +kubebuilder:printcolumn:name="URI",type=string,JSONPath=`.status.repositoryURI`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type ECRRepository struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ECRRepositorySpec   `json:"spec"`
	Status ECRRepositoryStatus `json:"status,omitempty"`
}

// ECRRepositoryList is a list of ECRRepositories.
// +kubebuilder:object:root=true
type ECRRepositoryList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ECRRepository `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (r *ECRRepository) GetManagedSpec() *shared.ManagedSpec { return &r.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (r *ECRRepository) GetManagedStatus() *shared.ManagedStatus { return &r.Status.ManagedStatus }
