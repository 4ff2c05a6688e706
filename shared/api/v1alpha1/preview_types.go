package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// PreviewAction is what applying one object would do.
// +kubebuilder:validation:Enum=Create;Update;NoChange;Refused;Waiting;Delete;Failed
type PreviewAction string

const (
	// PreviewCreate: the object's AWS resource does not exist and would be created.
	PreviewCreate PreviewAction = "Create"
	// PreviewUpdate: the AWS resource exists and the listed fields would change in place.
	PreviewUpdate PreviewAction = "Update"
	// PreviewNoChange: the AWS resource matches the manifest, or the operator never writes to
	// it (managementPolicy ObserveOnly, the paused annotation, driftPolicy Report).
	PreviewNoChange PreviewAction = "NoChange"
	// PreviewRefused: the operator would refuse the object with a terminal condition (an
	// invalid spec, a guardrail, a resource another object owns, a field that cannot change
	// in place) and write nothing. The operator never replaces a resource on its own, so a
	// field that cannot change in place is Refused, with the reason the object would show.
	PreviewRefused PreviewAction = "Refused"
	// PreviewWaiting: the object would wait before any AWS call (a reference that does not
	// exist or is not ready, a provider that is missing, refused or not validated).
	PreviewWaiting PreviewAction = "Waiting"
	// PreviewDelete: the object is in the namespace but not in the manifests; pruning it would
	// delete it (and, by its deletionPolicy, its AWS resource).
	PreviewDelete PreviewAction = "Delete"
	// PreviewFailed: the operator could not read AWS to plan the object; the message says why.
	PreviewFailed PreviewAction = "Failed"
)

// PreviewSpec holds the manifests to plan.
type PreviewSpec struct {
	// Objects are the manifests as they would be applied (infractl plan sends them as a
	// server-side dry run returned them, with defaults filled in), all in the Preview's
	// namespace. Objects of kinds no running operator manages get no result.
	// +kubebuilder:validation:MaxItems=1000
	Objects []runtime.RawExtension `json:"objects"`

	// Prune asks, as GitOps pruning would, for a Delete result for every object of the
	// namespace, of a kind an answering operator manages, that Objects does not contain.
	// +optional
	Prune bool `json:"prune,omitempty"`
}

// PreviewResult is what applying one object would do.
type PreviewResult struct {
	// Kind and Name name the object.
	Kind string `json:"kind"`
	Name string `json:"name"`

	// Family names the operator family that planned the object.
	Family string `json:"family"`

	// Action is what applying the object would do.
	Action PreviewAction `json:"action"`

	// Reason is the reason of the condition the object would show, for Refused, Waiting and
	// Failed; for Update it is AwaitingApproval when the object's changePolicy is Manual.
	// +optional
	Reason string `json:"reason,omitempty"`

	// Message explains the action in a sentence (never a secret value).
	// +optional
	Message string `json:"message,omitempty"`

	// ExternalName is the AWS identifier of the resource, when it exists.
	// +optional
	ExternalName string `json:"externalName,omitempty"`

	// Changes are, for Update, the fields that would change, with AWS's current value and
	// the manifest's where the kind shows them (the same content as status.plan); for Create,
	// the spec's fields and values.
	// +optional
	Changes []PlannedChange `json:"changes,omitempty"`
}

// PreviewStatus holds the operators' answers.
type PreviewStatus struct {
	// ObservedGeneration is the generation of the spec the results answer.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Families lists the operator families that have answered, each once: an object of a kind
	// no listed family manages has no result yet.
	// +optional
	// +listType=set
	Families []string `json:"families,omitempty"`

	// Results hold one entry per object of the spec that an answering family manages, and,
	// with spec.prune, one Delete entry per object that would be pruned.
	// +optional
	Results []PreviewResult `json:"results,omitempty"`
}

// Preview asks the operators what applying a set of manifests would do in its namespace,
// with the namespace's own providers, tenancy and guardrails, and with nothing written to AWS
// or to existing objects: each family operator plans the objects of its kinds with the same
// read-only Observe it runs before every change, and writes its answers into the status.
// infractl plan creates one, reads the answers and deletes it; the operators delete a Preview
// an hour after its creation.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Families",type=string,JSONPath=`.status.families`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Preview struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PreviewSpec   `json:"spec,omitempty"`
	Status PreviewStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// PreviewList is a list of Previews.
type PreviewList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Preview `json:"items"`
}
