package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// ECSTaskDefinitionSpec is the desired state of an ECS task definition family. AWS keeps task
// definitions as immutable revisions: a change of the spec registers a new revision, which
// status.taskDefinitionARN names (and ECSServices that refer to the object then deploy), and
// the revisions the object registered before are deregistered once no ECSService of the
// namespace deploys them any more.
// +kubebuilder:validation:XValidation:rule="has(self.family) == has(oldSelf.family) && (!has(self.family) || self.family == oldSelf.family)",message="family cannot change; create a new ECSTaskDefinition for another family"
// +kubebuilder:validation:XValidation:rule="!has(self.taskRoleRef) || !has(self.taskRoleARN)",message="set at most one of taskRoleRef and taskRoleARN"
// +kubebuilder:validation:XValidation:rule="!has(self.executionRoleRef) || !has(self.executionRoleARN)",message="set at most one of executionRoleRef and executionRoleARN"
// +kubebuilder:validation:XValidation:rule="!has(self.requiresCompatibilities) || !('FARGATE' in self.requiresCompatibilities) || (has(self.networkMode) && self.networkMode == 'awsvpc')",message="Fargate tasks use networkMode awsvpc"
// +kubebuilder:validation:XValidation:rule="!has(self.requiresCompatibilities) || !('FARGATE' in self.requiresCompatibilities) || (has(self.cpu) && has(self.memory))",message="Fargate tasks need cpu and memory at the task level"
// +kubebuilder:validation:XValidation:rule="self.containers.exists(c, !has(c.essential) || c.essential)",message="at least one container must be essential"
// +kubebuilder:validation:XValidation:rule="!self.containers.exists(c, has(c.secrets) && c.secrets.size() > 0) || has(self.executionRoleRef) || has(self.executionRoleARN)",message="containers with secrets need an execution role (executionRoleRef or executionRoleARN) that may read them"
type ECSTaskDefinitionSpec struct {
	shared.ManagedSpec `json:",inline"`

	// Family is the task definition family: letters, digits, hyphens and underscores, up to
	// 255 characters. Unset, the object's name. It cannot change.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_-]+$`
	Family string `json:"family,omitempty"`

	// RequiresCompatibilities are where tasks may run: FARGATE, EC2 or both.
	// +optional
	// +listType=set
	// +kubebuilder:default={FARGATE}
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:items:Enum=FARGATE;EC2
	RequiresCompatibilities []string `json:"requiresCompatibilities,omitempty"`

	// NetworkMode is the tasks' network mode; awsvpc (each task its own network interface)
	// is the only one Fargate takes.
	// +optional
	// +kubebuilder:default=awsvpc
	// +kubebuilder:validation:Enum=awsvpc;bridge;host;none
	NetworkMode string `json:"networkMode,omitempty"`

	// CPU is the task's CPU in units (1024 is one vCPU), for example "256" or "1024"; Fargate
	// takes 256, 512, 1024, 2048, 4096, 8192 and 16384.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9]+$`
	CPU string `json:"cpu,omitempty"`

	// Memory is the task's memory in MiB, for example "512"; Fargate takes the amounts its
	// CPU allows.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9]+$`
	Memory string `json:"memory,omitempty"`

	// RuntimePlatform is the operating system and CPU architecture of Fargate tasks.
	// +optional
	RuntimePlatform *ECSRuntimePlatform `json:"runtimePlatform,omitempty"`

	// TaskRoleRef names the IAMRole whose credentials the task's containers get. It passes
	// the role to ECS, so the namespace must own it or the administrator's pass-role rules
	// must allow it.
	// +optional
	TaskRoleRef *shared.Reference `json:"taskRoleRef,omitempty"`

	// TaskRoleARN is the task role's ARN, for a role not managed in this namespace (the
	// administrator's pass-role rules decide).
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:iam::[0-9]{12}:role/.+$`
	TaskRoleARN string `json:"taskRoleARN,omitempty"`

	// ExecutionRoleRef names the IAMRole ECS uses to pull the images, read the secrets and
	// write the logs. It passes the role to ECS, as taskRoleRef does.
	// +optional
	ExecutionRoleRef *shared.Reference `json:"executionRoleRef,omitempty"`

	// ExecutionRoleARN is the execution role's ARN, for a role not managed in this namespace.
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:iam::[0-9]{12}:role/.+$`
	ExecutionRoleARN string `json:"executionRoleARN,omitempty"`

	// Containers are the task's containers, 1 to 10, by unique name.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=10
	Containers []ECSContainer `json:"containers"`
}

// ECSRuntimePlatform is the platform Fargate tasks run on.
type ECSRuntimePlatform struct {
	// CPUArchitecture is X86_64 or ARM64.
	// +optional
	// +kubebuilder:default=X86_64
	// +kubebuilder:validation:Enum=X86_64;ARM64
	CPUArchitecture string `json:"cpuArchitecture,omitempty"`

	// OperatingSystemFamily is LINUX.
	// +optional
	// +kubebuilder:default=LINUX
	// +kubebuilder:validation:Enum=LINUX
	OperatingSystemFamily string `json:"operatingSystemFamily,omitempty"`
}

// ECSContainer is one container of a task.
// +kubebuilder:validation:XValidation:rule="[has(self.image), has(self.repositoryRef)].filter(x, x).size() == 1",message="set exactly one of image and repositoryRef"
// +kubebuilder:validation:XValidation:rule="!has(self.imageTag) || has(self.repositoryRef)",message="imageTag goes with repositoryRef"
type ECSContainer struct {
	// Name is the container's name, unique in the task: letters, digits, hyphens and
	// underscores.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_-]+$`
	Name string `json:"name"`

	// Image is the image's full reference, for example public.ecr.aws/nginx/nginx:1.27.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	Image string `json:"image,omitempty"`

	// RepositoryRef names the ECRRepository the image comes from; imageTag (or a digest,
	// sha256:...) picks the image.
	// +optional
	RepositoryRef *shared.Reference `json:"repositoryRef,omitempty"`

	// ImageTag is the tag, or the digest (sha256:...), of the image in repositoryRef; latest
	// unless set.
	// +optional
	// +kubebuilder:validation:Pattern=`^([A-Za-z0-9_][A-Za-z0-9_.-]{0,127}|sha256:[a-f0-9]{64})$`
	ImageTag string `json:"imageTag,omitempty"`

	// Essential containers stop the task when they stop.
	// +optional
	Essential *bool `json:"essential,omitempty"`

	// CPU is the container's share of the task's CPU units.
	// +optional
	// +kubebuilder:validation:Minimum=0
	CPU int32 `json:"cpu,omitempty"`

	// Memory is the container's hard memory limit in MiB.
	// +optional
	// +kubebuilder:validation:Minimum=6
	Memory *int32 `json:"memory,omitempty"`

	// MemoryReservation is the container's soft memory limit in MiB.
	// +optional
	// +kubebuilder:validation:Minimum=6
	MemoryReservation *int32 `json:"memoryReservation,omitempty"`

	// Command overrides the image's command.
	// +optional
	Command []string `json:"command,omitempty"`

	// EntryPoint overrides the image's entry point.
	// +optional
	EntryPoint []string `json:"entryPoint,omitempty"`

	// PortMappings are the ports the container listens on, by unique container port and
	// protocol; a load balancer or Service Connect reaches the container through them.
	// +optional
	// +listType=map
	// +listMapKey=containerPort
	// +listMapKey=protocol
	// +kubebuilder:validation:MaxItems=100
	PortMappings []ECSPortMapping `json:"portMappings,omitempty"`

	// Environment are the container's environment variables, by unique name. Put secret
	// values in secrets instead: the environment is readable by anyone who may describe the
	// task definition.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=100
	Environment []ECSEnvironmentVariable `json:"environment,omitempty"`

	// Secrets are environment variables ECS fills, when a task starts, from a Secrets
	// Manager secret (the value never passes through the operator), by unique name.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=50
	Secrets []ECSContainerSecret `json:"secrets,omitempty"`

	// LogConfiguration sends the container's output to a log driver, awslogs (CloudWatch
	// Logs) most often.
	// +optional
	LogConfiguration *ECSLogConfiguration `json:"logConfiguration,omitempty"`

	// HealthCheck is the container's Docker health check.
	// +optional
	HealthCheck *ECSHealthCheck `json:"healthCheck,omitempty"`
}

// ECSPortMapping is one port of a container.
type ECSPortMapping struct {
	// ContainerPort is the port the container listens on.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	ContainerPort int32 `json:"containerPort"`

	// Protocol is tcp or udp.
	// +optional
	// +kubebuilder:default=tcp
	// +kubebuilder:validation:Enum=tcp;udp
	Protocol string `json:"protocol"`

	// Name names the port for Service Connect (lowercase letters, digits and hyphens).
	// +optional
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`
	Name string `json:"name,omitempty"`

	// AppProtocol is the port's application protocol for Service Connect: http, http2 or
	// grpc.
	// +optional
	// +kubebuilder:validation:Enum=http;http2;grpc
	AppProtocol string `json:"appProtocol,omitempty"`
}

// ECSEnvironmentVariable is one plain environment variable.
type ECSEnvironmentVariable struct {
	// Name is the variable's name.
	// +kubebuilder:validation:MinLength=1
	Name string `json:"name"`
	// Value is the variable's value.
	// +optional
	Value string `json:"value,omitempty"`
}

// ECSContainerSecret is an environment variable filled from a Secrets Manager secret.
// +kubebuilder:validation:XValidation:rule="[has(self.secretRef), has(self.valueFrom)].filter(x, x).size() == 1",message="set exactly one of secretRef and valueFrom"
// +kubebuilder:validation:XValidation:rule="!has(self.jsonKey) || has(self.secretRef)",message="jsonKey goes with secretRef"
type ECSContainerSecret struct {
	// Name is the environment variable's name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	Name string `json:"name"`

	// SecretRef names the SecretsManagerSecret whose value fills the variable.
	// +optional
	SecretRef *shared.Reference `json:"secretRef,omitempty"`

	// JSONKey picks one key of a secret that holds JSON, for example "password".
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_.-]+$`
	JSONKey string `json:"jsonKey,omitempty"`

	// ValueFrom is the ARN of a Secrets Manager secret (with ECS's :key:: suffixes) or of a
	// Systems Manager parameter, for a secret not managed in this namespace. The execution
	// role must be allowed to read it.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:(secretsmanager|ssm):.+$`
	ValueFrom string `json:"valueFrom,omitempty"`
}

// ECSLogConfiguration is a container's log driver and its options.
type ECSLogConfiguration struct {
	// LogDriver is awslogs, awsfirelens, splunk, fluentd, gelf, json-file, journald or
	// syslog (Fargate takes awslogs, awsfirelens and splunk).
	// +kubebuilder:validation:Enum=awslogs;awsfirelens;splunk;fluentd;gelf;json-file;journald;syslog
	LogDriver string `json:"logDriver"`

	// Options are the driver's options, for example awslogs-group, awslogs-region,
	// awslogs-stream-prefix and awslogs-create-group.
	// +optional
	Options map[string]string `json:"options,omitempty"`
}

// ECSHealthCheck is a container's health check command and its timing.
type ECSHealthCheck struct {
	// Command is the check, for example ["CMD-SHELL", "curl -f http://localhost/ || exit 1"].
	// +kubebuilder:validation:MinItems=1
	Command []string `json:"command"`

	// IntervalSeconds is the time between checks, 5 to 300.
	// +optional
	// +kubebuilder:default=30
	// +kubebuilder:validation:Minimum=5
	// +kubebuilder:validation:Maximum=300
	IntervalSeconds int32 `json:"intervalSeconds,omitempty"`

	// TimeoutSeconds is how long a check may take, 2 to 60.
	// +optional
	// +kubebuilder:default=5
	// +kubebuilder:validation:Minimum=2
	// +kubebuilder:validation:Maximum=60
	TimeoutSeconds int32 `json:"timeoutSeconds,omitempty"`

	// Retries is how many failed checks make the container unhealthy, 1 to 10.
	// +optional
	// +kubebuilder:default=3
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	Retries int32 `json:"retries,omitempty"`

	// StartPeriodSeconds is the grace time after start during which failures do not count,
	// 0 to 300.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=300
	StartPeriodSeconds int32 `json:"startPeriodSeconds,omitempty"`
}

// ECSTaskDefinitionStatus is the observed state of an ECS task definition family.
type ECSTaskDefinitionStatus struct {
	shared.ManagedStatus `json:",inline"`

	// Family is the task definition family.
	// +optional
	Family string `json:"family,omitempty" output:""`

	// TaskDefinitionARN is the ARN of the revision the object registered last, the one that
	// matches the spec; references to the ECSTaskDefinition resolve to it.
	// +optional
	TaskDefinitionARN string `json:"taskDefinitionARN,omitempty" output:""`

	// Revision is that revision's number.
	// +optional
	Revision int32 `json:"revision,omitempty" output:""`

	// PreviousRevisions are the ARNs of older revisions the object registered that are still
	// ACTIVE, because an ECSService of the namespace may still deploy them; each is
	// deregistered once none does.
	// +optional
	PreviousRevisions []string `json:"previousRevisions,omitempty"`
}

// ECSTaskDefinition is an ECS task definition family managed by the containers family: its
// containers, their images, ports, environment, secrets and logs, the task's size and its
// roles.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories={aws,aws-containers}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="FAMILY",type=string,JSONPath=`.status.family`
// +kubebuilder:printcolumn:name="REVISION",type=integer,JSONPath=`.status.revision`
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type ECSTaskDefinition struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ECSTaskDefinitionSpec   `json:"spec"`
	Status ECSTaskDefinitionStatus `json:"status,omitempty"`
}

// ECSTaskDefinitionList is a list of ECSTaskDefinitions.
// +kubebuilder:object:root=true
type ECSTaskDefinitionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ECSTaskDefinition `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (e *ECSTaskDefinition) GetManagedSpec() *shared.ManagedSpec { return &e.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (e *ECSTaskDefinition) GetManagedStatus() *shared.ManagedStatus { return &e.Status.ManagedStatus }
