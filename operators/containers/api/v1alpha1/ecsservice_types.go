package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// ECSServiceSpec is the desired state of an ECS service: a number of tasks of a task
// definition kept running in a cluster, deployed by rolling updates.
// +kubebuilder:validation:XValidation:rule="has(self.serviceName) == has(oldSelf.serviceName) && (!has(self.serviceName) || self.serviceName == oldSelf.serviceName)",message="serviceName cannot change; create a new ECSService to use another name"
// +kubebuilder:validation:XValidation:rule="[has(self.clusterRef), has(self.cluster)].filter(x, x).size() == 1",message="set exactly one of clusterRef and cluster"
// +kubebuilder:validation:XValidation:rule="has(self.clusterRef) == has(oldSelf.clusterRef) && (!has(self.clusterRef) || self.clusterRef.name == oldSelf.clusterRef.name) && has(self.cluster) == has(oldSelf.cluster) && (!has(self.cluster) || self.cluster == oldSelf.cluster)",message="the cluster cannot change; create a new ECSService in the other cluster"
// +kubebuilder:validation:XValidation:rule="[has(self.taskDefinitionRef), has(self.taskDefinition)].filter(x, x).size() == 1",message="set exactly one of taskDefinitionRef and taskDefinition"
// +kubebuilder:validation:XValidation:rule="has(self.launchType) == has(oldSelf.launchType) && (!has(self.launchType) || self.launchType == oldSelf.launchType)",message="launchType cannot change; create a new ECSService, or move between capacity provider strategies instead"
// +kubebuilder:validation:XValidation:rule="!has(self.launchType) || !has(self.capacityProviderStrategy) || self.capacityProviderStrategy.size() == 0",message="set at most one of launchType and capacityProviderStrategy"
// +kubebuilder:validation:XValidation:rule="!has(self.healthCheckGracePeriodSeconds) || (has(self.loadBalancers) && self.loadBalancers.size() > 0)",message="healthCheckGracePeriodSeconds needs loadBalancers"
type ECSServiceSpec struct {
	shared.ManagedSpec `json:",inline"`

	// ServiceName is the service's name, unique in its cluster: letters, digits, hyphens and
	// underscores. Unset, the object's name. It cannot change.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_-]+$`
	ServiceName string `json:"serviceName,omitempty"`

	// ClusterRef names the ECSCluster the service runs in. It cannot change.
	// +optional
	ClusterRef *shared.Reference `json:"clusterRef,omitempty"`

	// Cluster is the name or ARN of a cluster not managed in this namespace: the operator
	// creates a service in it only when an object of the namespace made it or the
	// administrator lets the namespace write into resources it does not own. It cannot
	// change.
	// +optional
	// +kubebuilder:validation:MinLength=1
	Cluster string `json:"cluster,omitempty"`

	// TaskDefinitionRef names the ECSTaskDefinition whose latest revision the service runs:
	// a new revision of it is deployed as a rolling update.
	// +optional
	TaskDefinitionRef *shared.Reference `json:"taskDefinitionRef,omitempty"`

	// TaskDefinition is a task definition not managed in this namespace, as family:revision
	// or an ARN.
	// +optional
	// +kubebuilder:validation:MinLength=1
	TaskDefinition string `json:"taskDefinition,omitempty"`

	// DesiredCount is how many tasks run. Unset, the service is created with one task and
	// the count is left to whoever scales it (Application Auto Scaling): the operator never
	// changes it, and a difference is not drift.
	// +optional
	// +kubebuilder:validation:Minimum=0
	DesiredCount *int32 `json:"desiredCount,omitempty"`

	// LaunchType is FARGATE or EC2. Unset, with no capacityProviderStrategy, the cluster's
	// default capacity provider strategy places the tasks.
	// +optional
	// +kubebuilder:validation:Enum=FARGATE;EC2
	LaunchType string `json:"launchType,omitempty"`

	// CapacityProviderStrategy spreads the tasks over the cluster's capacity providers.
	// +optional
	// +listType=map
	// +listMapKey=capacityProvider
	// +kubebuilder:validation:MaxItems=2
	CapacityProviderStrategy []ECSCapacityProviderStrategyItem `json:"capacityProviderStrategy,omitempty"`

	// PlatformVersion is the Fargate platform version, LATEST unless set.
	// +optional
	// +kubebuilder:validation:Pattern=`^(LATEST|[0-9]+\.[0-9]+\.[0-9]+)$`
	PlatformVersion string `json:"platformVersion,omitempty"`

	// Network is the awsvpc networking of the tasks: their subnets and security groups.
	// Task definitions with networkMode awsvpc need it.
	// +optional
	Network *ECSServiceNetwork `json:"network,omitempty"`

	// LoadBalancers register the service's tasks with target groups of an ALB or an NLB,
	// by container name and port.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	LoadBalancers []ECSServiceLoadBalancer `json:"loadBalancers,omitempty"`

	// HealthCheckGracePeriodSeconds is how long new tasks' failed load balancer health
	// checks are ignored, 0 to 2147483647; it needs loadBalancers.
	// +optional
	// +kubebuilder:validation:Minimum=0
	HealthCheckGracePeriodSeconds *int32 `json:"healthCheckGracePeriodSeconds,omitempty"`

	// Deployment is how a new revision rolls out.
	// +optional
	// +kubebuilder:default={}
	Deployment ECSDeploymentConfiguration `json:"deployment,omitempty"`

	// ServiceConnect makes the service reachable by name from the other services of the
	// cluster's Service Connect namespace (the ECSCluster's serviceConnectDefaults).
	// +optional
	ServiceConnect *ECSServiceConnect `json:"serviceConnect,omitempty"`

	// EnableExecuteCommand allows ECS Exec into the service's tasks.
	// +optional
	EnableExecuteCommand bool `json:"enableExecuteCommand,omitempty"`

	// PropagateTags copies the tags of the service (SERVICE) or of the task definition
	// (TASK_DEFINITION) to its tasks; NONE copies none.
	// +optional
	// +kubebuilder:default=SERVICE
	// +kubebuilder:validation:Enum=SERVICE;TASK_DEFINITION;NONE
	PropagateTags string `json:"propagateTags,omitempty"`
}

// ECSServiceNetwork is the awsvpc configuration of a service's tasks.
// +kubebuilder:validation:XValidation:rule="(has(self.subnetRefs) ? self.subnetRefs.size() : 0) + (has(self.subnetIDs) ? self.subnetIDs.size() : 0) > 0",message="name at least one subnet (subnetRefs or subnetIDs)"
type ECSServiceNetwork struct {
	// SubnetRefs name the Subnets the tasks run in.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	SubnetRefs []shared.Reference `json:"subnetRefs,omitempty"`

	// SubnetIDs are subnets not managed in this namespace.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:Pattern=`^subnet-[0-9a-f]{8,17}$`
	SubnetIDs []string `json:"subnetIDs,omitempty"`

	// SecurityGroupRefs name the SecurityGroups of the tasks' network interfaces.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	SecurityGroupRefs []shared.Reference `json:"securityGroupRefs,omitempty"`

	// SecurityGroupIDs are security groups not managed in this namespace.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:Pattern=`^sg-[0-9a-f]{8,17}$`
	SecurityGroupIDs []string `json:"securityGroupIDs,omitempty"`

	// AssignPublicIP gives each task a public IP address (tasks in public subnets without a
	// NAT gateway need one to pull images).
	// +optional
	AssignPublicIP bool `json:"assignPublicIP,omitempty"`
}

// ECSServiceLoadBalancer registers the service's tasks, at one container's port, with one
// target group.
// +kubebuilder:validation:XValidation:rule="[has(self.albRef), has(self.nlbRef), has(self.targetGroupARN)].filter(x, x).size() == 1",message="set exactly one of albRef, nlbRef and targetGroupARN"
// +kubebuilder:validation:XValidation:rule="has(self.targetGroup) == (has(self.albRef) || has(self.nlbRef))",message="targetGroup names a target group of albRef or nlbRef, and goes with them only"
type ECSServiceLoadBalancer struct {
	// ALBRef names the ALB one of whose target groups (targetGroup) receives the tasks.
	// +optional
	ALBRef *shared.Reference `json:"albRef,omitempty"`

	// NLBRef names the NLB one of whose target groups (targetGroup) receives the tasks.
	// +optional
	NLBRef *shared.Reference `json:"nlbRef,omitempty"`

	// TargetGroup is the name of the target group, one of the load balancer's
	// spec.targetGroups.
	// +optional
	// +kubebuilder:validation:MinLength=1
	TargetGroup string `json:"targetGroup,omitempty"`

	// TargetGroupARN is a target group not managed in this namespace.
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:elasticloadbalancing:[a-z0-9-]+:[0-9]{12}:targetgroup/.+$`
	TargetGroupARN string `json:"targetGroupARN,omitempty"`

	// ContainerName is the container, of the task definition, that receives the traffic.
	// +kubebuilder:validation:MinLength=1
	ContainerName string `json:"containerName"`

	// ContainerPort is the container's port (one of its portMappings).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	ContainerPort int32 `json:"containerPort"`
}

// ECSDeploymentConfiguration is how a service rolls out a new revision.
type ECSDeploymentConfiguration struct {
	// MaximumPercent is how many tasks, in percent of the desired count, may run during a
	// deployment, 100 to 200 or more.
	// +optional
	// +kubebuilder:default=200
	// +kubebuilder:validation:Minimum=100
	MaximumPercent int32 `json:"maximumPercent,omitempty"`

	// MinimumHealthyPercent is how many tasks, in percent of the desired count, keep running
	// during a deployment.
	// +optional
	// +kubebuilder:default=100
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	MinimumHealthyPercent *int32 `json:"minimumHealthyPercent,omitempty"`

	// CircuitBreaker stops a deployment whose tasks keep failing to start. On by default,
	// with rollback: a failed revision is rolled back to the last one that reached steady
	// state, and the object reports DeploymentFailed with the stopped tasks' reasons.
	// +optional
	// +kubebuilder:default={enable:true,rollback:true}
	CircuitBreaker ECSCircuitBreaker `json:"circuitBreaker,omitempty"`
}

// ECSCircuitBreaker is the deployment circuit breaker.
type ECSCircuitBreaker struct {
	// Enable turns the circuit breaker on.
	Enable bool `json:"enable"`
	// Rollback rolls a failed deployment back to the last completed one.
	Rollback bool `json:"rollback"`
}

// ECSServiceConnect is a service's Service Connect configuration.
type ECSServiceConnect struct {
	// Namespace is the Cloud Map namespace's name or ARN; unset, the cluster's default.
	// +optional
	Namespace string `json:"namespace,omitempty"`

	// Services are the ports the service offers to the namespace; none makes the service a
	// client only.
	// +optional
	// +listType=map
	// +listMapKey=portName
	Services []ECSServiceConnectService `json:"services,omitempty"`
}

// ECSServiceConnectService is one port a service offers through Service Connect.
type ECSServiceConnectService struct {
	// PortName is the name of a port mapping of the task definition.
	// +kubebuilder:validation:MinLength=1
	PortName string `json:"portName"`

	// DiscoveryName is the name other services find it by; unset, portName.
	// +optional
	DiscoveryName string `json:"discoveryName,omitempty"`

	// Port is the port clients use; unset, the container's.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port int32 `json:"port,omitempty"`

	// DNSName is the name clients use; unset, discoveryName.
	// +optional
	DNSName string `json:"dnsName,omitempty"`
}

// ECSServiceStatus is the observed state of an ECS service.
type ECSServiceStatus struct {
	shared.ManagedStatus `json:",inline"`

	// ServiceName is the service's name.
	// +optional
	ServiceName string `json:"serviceName,omitempty" output:""`

	// ARN is the service's ARN.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// ClusterARN is the ARN of the service's cluster.
	// +optional
	ClusterARN string `json:"clusterARN,omitempty" output:""`

	// TaskDefinition is the revision the service's primary deployment runs.
	// +optional
	TaskDefinition string `json:"taskDefinition,omitempty"`

	// DesiredCount, RunningCount and PendingCount are the service's task counts.
	// +optional
	DesiredCount int32 `json:"desiredCount,omitempty"`
	// +optional
	RunningCount int32 `json:"runningCount,omitempty"`
	// +optional
	PendingCount int32 `json:"pendingCount,omitempty"`

	// Deployments are the service's deployments, the primary first.
	// +optional
	Deployments []ECSDeploymentStatus `json:"deployments,omitempty"`

	// FailedDeployment is the last deployment the circuit breaker stopped: the object does
	// not deploy that revision again until its spec changes.
	// +optional
	FailedDeployment *ECSFailedDeployment `json:"failedDeployment,omitempty"`
}

// ECSDeploymentStatus is one deployment of a service.
type ECSDeploymentStatus struct {
	// ID is the deployment's id.
	ID string `json:"id"`
	// Status is PRIMARY, ACTIVE or INACTIVE.
	Status string `json:"status"`
	// TaskDefinition is the revision the deployment runs.
	TaskDefinition string `json:"taskDefinition"`
	// RolloutState is IN_PROGRESS, COMPLETED or FAILED.
	// +optional
	RolloutState string `json:"rolloutState,omitempty"`
	// RunningCount, DesiredCount and FailedTasks count the deployment's tasks.
	// +optional
	RunningCount int32 `json:"runningCount,omitempty"`
	// +optional
	DesiredCount int32 `json:"desiredCount,omitempty"`
	// +optional
	FailedTasks int32 `json:"failedTasks,omitempty"`
}

// ECSFailedDeployment is a deployment that failed, and why.
type ECSFailedDeployment struct {
	// DeploymentID is the failed deployment's id.
	DeploymentID string `json:"deploymentID"`
	// TaskDefinition is the revision that failed.
	TaskDefinition string `json:"taskDefinition"`
	// Retrying says that the spec changed since the failure: the operator deploys the
	// revision again.
	// +optional
	Retrying bool `json:"retrying,omitempty"`
	// Reason is ECS's reason and the stopped tasks' reasons.
	Reason string `json:"reason"`
}

// ECSService is an ECS service managed by the containers family.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-containers}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="RUNNING",type=integer,JSONPath=`.status.runningCount`
// +kubebuilder:printcolumn:name="DESIRED",type=integer,JSONPath=`.status.desiredCount`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type ECSService struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ECSServiceSpec   `json:"spec"`
	Status ECSServiceStatus `json:"status,omitempty"`
}

// ECSServiceList is a list of ECSServices.
// +kubebuilder:object:root=true
type ECSServiceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ECSService `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (e *ECSService) GetManagedSpec() *shared.ManagedSpec { return &e.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (e *ECSService) GetManagedStatus() *shared.ManagedStatus { return &e.Status.ManagedStatus }
