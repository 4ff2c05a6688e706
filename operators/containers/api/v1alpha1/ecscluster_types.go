package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// ECSCapacityProviderStrategyItem is one capacity provider of the cluster's default capacity
// provider strategy: how the tasks of a service that names no strategy are spread.
type ECSCapacityProviderStrategyItem struct {
	// CapacityProvider is the capacity provider, one of the cluster's capacityProviders.
	// +kubebuilder:validation:Enum=FARGATE;FARGATE_SPOT
	CapacityProvider string `json:"capacityProvider"`

	// Weight is the share of tasks this provider gets relative to the others, 0 to 1000.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	Weight int32 `json:"weight,omitempty"`

	// Base is how many tasks, at least, run on this provider before the weights apply, 0 to
	// 100000; at most one provider of a strategy has a base.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100000
	Base int32 `json:"base,omitempty"`
}

// ECSServiceConnectDefaults is the cluster's default Service Connect configuration.
type ECSServiceConnectDefaults struct {
	// Namespace is the name or ARN of the Cloud Map namespace services of the cluster use for
	// Service Connect by default. A name that is not an existing namespace makes ECS create an
	// HTTP namespace of that name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:XValidation:rule="self.matches('^(arn:aws[a-z-]*:servicediscovery:[a-z0-9-]+:[0-9]{12}:namespace/ns-[a-z0-9]+|[A-Za-z0-9][A-Za-z0-9._-]*)$')",message="give the namespace as a Cloud Map namespace name (letters, digits, '.', '_' and '-', starting with a letter or digit) or a namespace ARN (arn:aws:servicediscovery:<region>:<account>:namespace/ns-...)"
	Namespace string `json:"namespace"`
}

// ECSClusterSpec is the desired state of an ECS cluster. Container Insights, the capacity
// providers, the default strategy and the Service Connect defaults are always managed.
// +kubebuilder:validation:XValidation:rule="has(self.clusterName) == has(oldSelf.clusterName) && (!has(self.clusterName) || self.clusterName == oldSelf.clusterName)",message="clusterName cannot change; create a new ECSCluster to use another name"
// +kubebuilder:validation:XValidation:rule="!has(self.defaultCapacityProviderStrategy) || self.defaultCapacityProviderStrategy.all(i, has(self.capacityProviders) && i.capacityProvider in self.capacityProviders)",message="every provider of defaultCapacityProviderStrategy must be one of capacityProviders"
// +kubebuilder:validation:XValidation:rule="!has(self.defaultCapacityProviderStrategy) || self.defaultCapacityProviderStrategy.filter(i, has(i.base) && i.base > 0).size() <= 1",message="at most one provider of defaultCapacityProviderStrategy may have a base"
// +kubebuilder:validation:XValidation:rule="!has(self.defaultCapacityProviderStrategy) || self.defaultCapacityProviderStrategy.size() == 0 || self.defaultCapacityProviderStrategy.exists(i, has(i.weight) && i.weight > 0)",message="at least one provider of defaultCapacityProviderStrategy needs a weight greater than 0"
type ECSClusterSpec struct {
	shared.ManagedSpec `json:",inline"`

	// ClusterName is the cluster's name, unique in the account and region: letters, digits,
	// hyphens and underscores, up to 255 characters. Unset, the object's name. It cannot
	// change.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_-]+$`
	ClusterName string `json:"clusterName,omitempty"`

	// ContainerInsights is the cluster's CloudWatch Container Insights setting: enabled,
	// enhanced (with task and container metrics) or disabled.
	// +optional
	// +kubebuilder:validation:Enum=enabled;disabled;enhanced
	// +kubebuilder:default=disabled
	ContainerInsights string `json:"containerInsights,omitempty"`

	// CapacityProviders are the capacity providers the cluster's tasks may run on: FARGATE
	// and FARGATE_SPOT (a set). Empty, tasks run with the launch type they name.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=2
	// +kubebuilder:validation:items:Enum=FARGATE;FARGATE_SPOT
	CapacityProviders []string `json:"capacityProviders,omitempty"`

	// DefaultCapacityProviderStrategy spreads the tasks of services that name no strategy of
	// their own over the cluster's capacity providers.
	// +optional
	// +listType=map
	// +listMapKey=capacityProvider
	// +kubebuilder:validation:MaxItems=2
	DefaultCapacityProviderStrategy []ECSCapacityProviderStrategyItem `json:"defaultCapacityProviderStrategy,omitempty"`

	// ServiceConnectDefaults is the default Service Connect namespace of the cluster's
	// services; unset, the cluster has none.
	// +optional
	ServiceConnectDefaults *ECSServiceConnectDefaults `json:"serviceConnectDefaults,omitempty"`
}

// ECSClusterStatus is the observed state of an ECS cluster.
type ECSClusterStatus struct {
	shared.ManagedStatus `json:",inline"`

	// ClusterName is the cluster's name.
	// +optional
	ClusterName string `json:"clusterName,omitempty" output:""`

	// ARN is the cluster's ARN.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// Status is the cluster's status as ECS reports it: ACTIVE, PROVISIONING,
	// DEPROVISIONING, FAILED or INACTIVE.
	// +optional
	Status string `json:"status,omitempty"`

	// ServiceConnectNamespace is the Service Connect namespace, as the spec named it, that the
	// operator last set as the cluster's default; ECS reports only its ARN.
	// +optional
	ServiceConnectNamespace string `json:"serviceConnectNamespace,omitempty"`

	// ServiceConnectNamespaceARN is the ARN ECS resolved serviceConnectNamespace to when the
	// operator set it: ECS reports a cluster's namespace only by ARN, so the cluster's is
	// compared with this one, and another namespace set outside the operator is reverted.
	// +optional
	ServiceConnectNamespaceARN string `json:"serviceConnectNamespaceARN,omitempty"`

	// ActiveServicesCount is how many services were ACTIVE in the cluster when it was last
	// looked at.
	// +optional
	ActiveServicesCount int32 `json:"activeServicesCount,omitempty"`

	// RunningTasksCount is how many tasks were RUNNING in the cluster.
	// +optional
	RunningTasksCount int32 `json:"runningTasksCount,omitempty"`

	// PendingTasksCount is how many tasks were PENDING in the cluster.
	// +optional
	PendingTasksCount int32 `json:"pendingTasksCount,omitempty"`

	// RegisteredContainerInstancesCount is how many container instances were registered
	// with the cluster.
	// +optional
	RegisteredContainerInstancesCount int32 `json:"registeredContainerInstancesCount,omitempty"`
}

// ECSCluster is an Amazon ECS cluster.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=ecs,categories={aws,aws-containers}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="CLUSTER",type=string,JSONPath=`.status.clusterName`
// +kubebuilder:printcolumn:name="SERVICES",type=integer,JSONPath=`.status.activeServicesCount`,priority=1
// +kubebuilder:printcolumn:name="RUNNING",type=integer,JSONPath=`.status.runningTasksCount`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type ECSCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ECSClusterSpec   `json:"spec"`
	Status ECSClusterStatus `json:"status,omitempty"`
}

// ECSClusterList is a list of ECSClusters.
// +kubebuilder:object:root=true
type ECSClusterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ECSCluster `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (c *ECSCluster) GetManagedSpec() *shared.ManagedSpec { return &c.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (c *ECSCluster) GetManagedStatus() *shared.ManagedStatus { return &c.Status.ManagedStatus }
