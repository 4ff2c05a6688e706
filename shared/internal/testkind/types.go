// Package testkind defines Widget, a managed kind that exists only to test the generic
// reconciler against a real API server.
//
// +kubebuilder:object:generate=true
// +groupName=aws-infra-operator.runner.codes
// +versionName=v1alpha1
package testkind

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

var (
	// SchemeBuilder registers Widget.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(v1alpha1.GroupVersion, &Widget{}, &WidgetList{})
		return nil
	})
	// AddToScheme adds Widget to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	v1alpha1.ManagedSpec `json:",inline"`

	// Size is a mutable setting of the widget.
	// +kubebuilder:validation:Minimum=1
	Size int32 `json:"size"`

	// ParentID is the AWS id of a parent widget; ParentRef fills it from a Widget in the
	// cluster.
	// +optional
	ParentID string `json:"parentID,omitempty"`

	// ParentRef names the parent Widget.
	// +optional
	ParentRef *v1alpha1.Reference `json:"parentRef,omitempty"`

	// ParentSelector selects the parent Widget by its labels.
	// +optional
	ParentSelector *v1alpha1.Selector `json:"parentSelector,omitempty"`

	// TokenSecretRef names a Secret key whose value the widget's outputs carry (as a
	// database password is).
	// +optional
	TokenSecretRef *v1alpha1.SecretKeySelector `json:"tokenSecretRef,omitempty" output:"token"`
}

// WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	v1alpha1.ManagedStatus `json:",inline"`

	// WidgetID is the AWS-side identifier.
	// +optional
	WidgetID string `json:"widgetID,omitempty" output:""`

	// ParentID is the parent's AWS-side identifier, as applied.
	// +optional
	ParentID string `json:"parentID,omitempty" output:"parent"`
}

// Widget is a test kind.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec,omitempty"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetList is a list of Widgets.
// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

// GetManagedSpec returns the shared spec fields.
func (w *Widget) GetManagedSpec() *v1alpha1.ManagedSpec { return &w.Spec.ManagedSpec }

// GetManagedStatus returns the shared status fields.
func (w *Widget) GetManagedStatus() *v1alpha1.ManagedStatus { return &w.Status.ManagedStatus }
