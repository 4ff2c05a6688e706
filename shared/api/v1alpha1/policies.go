package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ManagementPolicy says whether the operator manages an AWS resource or only observes it.
// +kubebuilder:validation:Enum=Manage;ObserveOnly
type ManagementPolicy string

const (
	// ManagementPolicyManage creates the AWS resource, keeps it in line with the spec and
	// deletes it according to deletionPolicy.
	ManagementPolicyManage ManagementPolicy = "Manage"
	// ManagementPolicyObserveOnly adopts an existing AWS resource by its identifier (the
	// external-name annotation) or by the name the spec gives, fills the status and reports
	// how it differs from the spec, and never writes to AWS nor deletes the resource.
	ManagementPolicyObserveOnly ManagementPolicy = "ObserveOnly"
)

// DriftPolicy says what the operator does when the AWS resource changes outside it.
// +kubebuilder:validation:Enum=Enforce;Report
type DriftPolicy string

const (
	// DriftPolicyEnforce restores the spec as soon as a difference is found.
	DriftPolicyEnforce DriftPolicy = "Enforce"
	// DriftPolicyReport only reports the difference (status.drift and the Drifted
	// condition); the spec is applied again when it changes.
	DriftPolicyReport DriftPolicy = "Report"
)

// ChangePolicy says whether the operator changes an existing AWS resource by itself or waits
// for each plan of changes to be approved.
// +kubebuilder:validation:Enum=Automatic;Manual
type ChangePolicy string

const (
	// ChangePolicyAutomatic applies every change as soon as it is found.
	ChangePolicyAutomatic ChangePolicy = "Automatic"
	// ChangePolicyManual shows the changes in status.plan and applies them once the annotation
	// AnnotationApprovePlan holds the plan's hash.
	ChangePolicyManual ChangePolicy = "Manual"
)

// ObserveOnly reports whether o only observes its AWS resource.
func ObserveOnly(o Managed) bool {
	return o.GetManagedSpec().ManagementPolicy == ManagementPolicyObserveOnly
}

// OutputsTarget names the Secret or ConfigMap, in the object's namespace, into which the
// operator writes the values an application needs from the AWS resource (its endpoint, ARN,
// URL...). The operator creates it, owns it (it goes with the object) and updates it when the
// values change; it never writes into one it did not create. Secret values (a database
// password) are copied only into a Secret: a ConfigMap gets their Secret's name and key.
type OutputsTarget struct {
	// Kind is Secret (the default) or ConfigMap.
	// +optional
	// +kubebuilder:default=Secret
	// +kubebuilder:validation:Enum=Secret;ConfigMap
	Kind string `json:"kind,omitempty"`

	// Name of the Secret or ConfigMap: a DNS subdomain name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	Name string `json:"name"`
}

// DriftedField is one field of the spec that the AWS resource no longer matches.
type DriftedField struct {
	// Field names the spec field, as events name it (for example "versioning" or
	// "tags.team").
	Field string `json:"field"`

	// Since is when the operator first found the difference.
	Since metav1.Time `json:"since"`
}

// PendingPlan is a plan of changes to an AWS resource that waits for approval.
type PendingPlan struct {
	// Hash identifies the plan: the annotation aws-infra-operator.runner.codes/approve-plan set
	// to it approves exactly these changes.
	Hash string `json:"hash"`

	// Changes are the fields the plan changes, with AWS's current value and the spec's where
	// the kind shows them (never a secret value).
	// +listType=map
	// +listMapKey=field
	Changes []PlannedChange `json:"changes"`

	// Since is when the operator first found this plan.
	Since metav1.Time `json:"since"`
}

// PlannedChange is one field of the spec that a plan changes in AWS.
type PlannedChange struct {
	// Field names the spec field, as events name it (for example "versioning" or "tags").
	Field string `json:"field"`

	// Current is AWS's value, when the kind shows it.
	// +optional
	Current string `json:"current,omitempty"`

	// Desired is the spec's value, when the kind shows it.
	// +optional
	Desired string `json:"desired,omitempty"`
}
