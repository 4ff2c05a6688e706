package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// DeletionPolicy says what happens to the AWS resource when its Kubernetes object is deleted.
// +kubebuilder:validation:Enum=Delete;Retain;Orphan
type DeletionPolicy string

const (
	// DeletionPolicyDelete deletes the AWS resource with the object.
	DeletionPolicyDelete DeletionPolicy = "Delete"
	// DeletionPolicyRetain keeps the AWS resource, still tagged as created by the operator.
	DeletionPolicyRetain DeletionPolicy = "Retain"
	// DeletionPolicyOrphan keeps the AWS resource and removes the operator's ownership tags, so
	// nothing marks it as managed any more.
	DeletionPolicyOrphan DeletionPolicy = "Orphan"
)

// ProviderReference names the AWSProvider (or ClusterAWSProvider) whose credentials and
// region a resource uses.
// +kubebuilder:validation:XValidation:rule="!has(self.kind) || self.kind != 'ClusterAWSProvider' || !has(self.__namespace__) || self.__namespace__.size() == 0",message="a ClusterAWSProvider is cluster-scoped: leave namespace empty"
type ProviderReference struct {
	// Kind is AWSProvider (the default: a provider in a namespace) or ClusterAWSProvider (the
	// cluster administrator's provider, usable from the namespaces it allows).
	// +optional
	// +kubebuilder:validation:Enum=AWSProvider;ClusterAWSProvider
	Kind string `json:"kind,omitempty"`

	// Name of the AWSProvider or ClusterAWSProvider.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// Namespace of the AWSProvider. Empty means the resource's own namespace. Another namespace
	// is honoured only when that AWSProvider lists the resource's namespace in
	// spec.allowedNamespaces.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	Namespace string `json:"namespace,omitempty"`
}

// ManagedSpec holds the fields every managed kind has at the top of its spec.
// +kubebuilder:validation:XValidation:rule="!has(self.tags) || self.tags.all(k, !k.startsWith('aws:') && !k.startsWith('aws-infra-operator.runner.codes/'))",message="tag keys starting with 'aws:' or 'aws-infra-operator.runner.codes/' are reserved"
type ManagedSpec struct {
	// ProviderRef names the AWSProvider to use.
	ProviderRef ProviderReference `json:"providerRef"`

	// Tags are added to the AWS resource. They win over the provider's defaultTags. Keys are 1
	// to 128 characters, values at most 256; both hold only letters, digits, spaces and
	// _ . : / = + - @.
	// +optional
	// +kubebuilder:validation:MaxProperties=46
	// +kubebuilder:validation:XValidation:rule="self.all(k, k.size() >= 1 && k.size() <= 128)",message="tag keys are 1 to 128 characters long"
	// +kubebuilder:validation:XValidation:rule=`self.all(k, k.matches(r'^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$'))`,message="tag keys may hold only letters, digits, spaces and _ . : / = + - @"
	// +kubebuilder:validation:XValidation:rule="self.all(k, self[k].size() <= 256)",message="tag values are at most 256 characters long"
	Tags map[string]string `json:"tags,omitempty"`

	// DeletionPolicy says what happens to the AWS resource when this object is deleted:
	// Delete (the default) deletes it, Retain keeps it, Orphan keeps it and removes the
	// operator's ownership tags.
	// +optional
	// +kubebuilder:default=Delete
	DeletionPolicy DeletionPolicy `json:"deletionPolicy,omitempty"`

	// ManagementPolicy is Manage (the default: the operator creates, updates and deletes the
	// AWS resource) or ObserveOnly (the operator adopts an existing resource by the
	// external-name annotation or the name in the spec, fills the status and reports drift,
	// and never writes to AWS nor deletes the resource). Switching an observed object to
	// Manage takes the resource over through the same ownership check as adoption.
	// +optional
	// +kubebuilder:default=Manage
	ManagementPolicy ManagementPolicy `json:"managementPolicy,omitempty"`

	// DriftPolicy is Enforce (the default: a change made outside the operator is reverted at
	// once) or Report (it is only reported, in status.drift and the Drifted condition, until
	// the spec changes). An ObserveOnly object always reports.
	// +optional
	// +kubebuilder:default=Enforce
	DriftPolicy DriftPolicy `json:"driftPolicy,omitempty"`

	// ChangePolicy is Automatic (the default: the operator changes the AWS resource as soon as
	// it differs from the spec) or Manual: a change to an existing resource, drift included,
	// is not made but shown in status.plan, with a short hash and the PlanPending condition,
	// until the annotation aws-infra-operator.runner.codes/approve-plan holds that hash; a plan
	// that changed since is not applied. Creation and deletion follow the other policies.
	// +optional
	// +kubebuilder:default=Automatic
	ChangePolicy ChangePolicy `json:"changePolicy,omitempty"`

	// WriteOutputsTo names a Secret or ConfigMap in this namespace into which the operator
	// writes the values an application needs (endpoint, port, ARN, URL, name...; each kind's
	// documentation lists its keys) once the resource is Ready.
	// +optional
	WriteOutputsTo *OutputsTarget `json:"writeOutputsTo,omitempty"`
}

// ManagedStatus holds the fields every managed kind has in its status.
type ManagedStatus struct {
	// Ready is true when the AWS resource exists, matches the spec and is usable.
	// +optional
	Ready bool `json:"ready"`

	// Conditions are Ready (the AWS resource is usable) and Synced (the last reconcile
	// succeeded).
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// ObservedGeneration is the generation of the spec that was last fully applied.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// LastSyncTime is when the resource was last reconciled: compared with AWS, to within an
	// hour. A comparison that changes nothing else in the status refreshes it only once it is an
	// hour old, so that unchanged objects cost the API server no write on every sync.
	// +optional
	LastSyncTime *metav1.Time `json:"lastSyncTime,omitempty"`

	// Drift lists the fields in which the AWS resource differs from the spec because
	// something outside the operator changed it, and since when. With driftPolicy Enforce the
	// list lasts until the operator has restored the spec; with Report (or an ObserveOnly
	// object) until the resource matches the spec again or the spec changes.
	// +optional
	// +listType=map
	// +listMapKey=field
	Drift []DriftedField `json:"drift,omitempty"`

	// Plan holds, for an object with changePolicy Manual, the changes to the AWS resource that
	// wait for approval; it is absent when nothing waits.
	// +optional
	Plan *PendingPlan `json:"plan,omitempty"`
}

// Managed is implemented by every kind the generic reconciler manages.
// +kubebuilder:object:generate=false
type Managed interface {
	metav1.Object
	runtime.Object
	// GetManagedSpec returns the spec fields every managed kind shares.
	GetManagedSpec() *ManagedSpec
	// GetManagedStatus returns the status fields every managed kind shares.
	GetManagedStatus() *ManagedStatus
}
