package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// LambdaFunctionSpec is the desired state of a Lambda function.
// +kubebuilder:validation:XValidation:rule="[has(self.codeS3Bucket), has(self.imageURI), has(self.codeConfigMapRef)].filter(x, x).size() == 1",message="give the code in exactly one way: codeS3Bucket and codeS3Key, imageURI, or codeConfigMapRef"
// +kubebuilder:validation:XValidation:rule="has(self.codeS3Bucket) == has(self.codeS3Key)",message="codeS3Bucket and codeS3Key go together"
// +kubebuilder:validation:XValidation:rule="!has(self.codeS3ObjectVersion) || has(self.codeS3Bucket)",message="codeS3ObjectVersion needs codeS3Bucket and codeS3Key"
// +kubebuilder:validation:XValidation:rule="has(self.imageURI) || (has(self.runtime) && has(self.handler))",message="a function from a zip package (codeS3Bucket or codeConfigMapRef) needs runtime and handler"
// +kubebuilder:validation:XValidation:rule="!has(self.imageURI) || (!has(self.runtime) && !has(self.handler) && !has(self.layers))",message="a function from a container image takes its runtime and handler from the image, and has no layers: remove runtime, handler and layers"
// +kubebuilder:validation:XValidation:rule="[has(self.roleARN), has(self.roleRef)].filter(x, x).size() == 1",message="set exactly one of roleARN and roleRef"
type LambdaFunctionSpec struct {
	shared.ManagedSpec `json:",inline"`

	// FunctionName is the function's name in AWS. It cannot change.
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9_-]{1,64}$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="functionName cannot change; create a new LambdaFunction"
	FunctionName string `json:"functionName"`

	// Runtime is the language runtime, for example python3.12 or nodejs20.x (zip packages).
	// +optional
	// +kubebuilder:validation:Pattern=`^[a-z0-9.]+$`
	// +kubebuilder:validation:MaxLength=32
	Runtime string `json:"runtime,omitempty"`

	// Handler is the function's entry point, for example index.handler (zip packages).
	// +optional
	// +kubebuilder:validation:MaxLength=128
	Handler string `json:"handler,omitempty"`

	// CodeS3Bucket is the S3 bucket of the deployment package (a zip file).
	// +optional
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=63
	CodeS3Bucket string `json:"codeS3Bucket,omitempty"`

	// CodeS3Key is the key of the deployment package in codeS3Bucket. Lambda copies the
	// package when the function is created or its code updated: to deploy new code, change the
	// key or codeS3ObjectVersion (an object overwritten under the same key is not picked up).
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	CodeS3Key string `json:"codeS3Key,omitempty"`

	// CodeS3ObjectVersion is the version of the package object, in a versioned bucket.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	CodeS3ObjectVersion string `json:"codeS3ObjectVersion,omitempty"`

	// ImageURI is the container image of the function, in Amazon ECR.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	ImageURI string `json:"imageURI,omitempty"`

	// CodeConfigMapRef names a key of a ConfigMap in this namespace whose binary data is a
	// small deployment package (a zip file, under the ConfigMap's 1 MiB limit).
	// +optional
	CodeConfigMapRef *ConfigMapKeySelector `json:"codeConfigMapRef,omitempty"`

	// RoleARN is the ARN of the execution role the function runs with.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	RoleARN string `json:"roleARN,omitempty"`

	// RoleRef names the IAMRole object (security family) in this namespace that is the
	// function's execution role; the function waits until it is Ready, which IAMRole is once
	// IAM has had time to propagate a new role.
	// +optional
	RoleRef *shared.Reference `json:"roleRef,omitempty"`

	// MemorySize is the memory in MB, 128 to 10240; unset is 128.
	// +optional
	// +kubebuilder:validation:Minimum=128
	// +kubebuilder:validation:Maximum=10240
	MemorySize int32 `json:"memorySize,omitempty"`

	// Timeout is how many seconds an invocation may run, 1 to 900; unset is 3.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=900
	Timeout int32 `json:"timeout,omitempty"`

	// EphemeralStorage is the size of /tmp in MB, 512 to 10240; unset is 512.
	// +optional
	// +kubebuilder:validation:Minimum=512
	// +kubebuilder:validation:Maximum=10240
	EphemeralStorage int32 `json:"ephemeralStorage,omitempty"`

	// Description describes the function.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	Description string `json:"description,omitempty"`

	// Architectures is the instruction set: [x86_64] (the default) or [arm64].
	// +optional
	// +kubebuilder:validation:MaxItems=1
	// +kubebuilder:validation:items:Enum=x86_64;arm64
	Architectures []string `json:"architectures,omitempty"`

	// Layers are the ARNs of layer versions the function uses, at most 5.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:MaxLength=140
	Layers []string `json:"layers,omitempty"`

	// Environment are the function's environment variables.
	// +optional
	Environment *Environment `json:"environment,omitempty"`

	// VPCConfig connects the function to subnets of a VPC.
	// +optional
	VPCConfig *LambdaVPCConfig `json:"vpcConfig,omitempty"`

	// ReservedConcurrency reserves that many concurrent executions for the function (0 stops
	// it from running); unset takes from the account's unreserved pool.
	// +optional
	// +kubebuilder:validation:Minimum=0
	ReservedConcurrency *int32 `json:"reservedConcurrency,omitempty"`

	// DeadLetterConfig sends the events of failed asynchronous invocations to an SQS queue or
	// an SNS topic.
	// +optional
	DeadLetterConfig *DeadLetterConfig `json:"deadLetterConfig,omitempty"`

	// FunctionURL gives the function an HTTPS endpoint.
	// +optional
	FunctionURL *FunctionURL `json:"functionURL,omitempty"`

	// Publish publishes a new version each time the code or the configuration changes;
	// status.version is then the latest version.
	// +optional
	Publish bool `json:"publish,omitempty"`
}

// ConfigMapKeySelector names one key of a ConfigMap in the same namespace.
type ConfigMapKeySelector struct {
	// Name of the ConfigMap.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// Key within the ConfigMap's binaryData (or data).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Key string `json:"key"`
}

// Environment are a function's environment variables.
type Environment struct {
	// Variables are values written in the spec.
	// +optional
	// +kubebuilder:validation:MaxProperties=100
	Variables map[string]string `json:"variables,omitempty"`

	// FromSecrets are variables whose values come from Secrets in this namespace: the values
	// are sent to Lambda and never written to the object's status or events.
	// +optional
	// +kubebuilder:validation:MaxItems=100
	// +listType=map
	// +listMapKey=name
	FromSecrets []SecretVariable `json:"fromSecrets,omitempty"`
}

// SecretVariable is an environment variable whose value is a Secret's key.
type SecretVariable struct {
	// Name is the variable's name.
	// +kubebuilder:validation:Pattern=`^[a-zA-Z][a-zA-Z0-9_]*$`
	// +kubebuilder:validation:MaxLength=128
	Name string `json:"name"`

	// SecretKeyRef names the Secret and key that hold the value.
	SecretKeyRef shared.SecretKeySelector `json:"secretKeyRef"`
}

// LambdaVPCConfig places a function's network interfaces in subnets of a VPC.
// +kubebuilder:validation:XValidation:rule="!(has(self.subnetIDs) && has(self.subnetRefs))",message="set at most one of subnetIDs and subnetRefs"
// +kubebuilder:validation:XValidation:rule="!(has(self.securityGroupIDs) && has(self.securityGroupRefs))",message="set at most one of securityGroupIDs and securityGroupRefs"
type LambdaVPCConfig struct {
	// SubnetIDs are the subnets, for subnets made outside this cluster.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:Pattern=`^subnet-[0-9a-z-]+$`
	// +kubebuilder:validation:items:MaxLength=64
	SubnetIDs []string `json:"subnetIDs,omitempty"`

	// SubnetRefs name Subnet objects in this namespace; the function waits until they are
	// Ready.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	SubnetRefs []shared.Reference `json:"subnetRefs,omitempty"`

	// SecurityGroupIDs are the security groups, for groups made outside this cluster.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:Pattern=`^sg-[0-9a-z-]+$`
	// +kubebuilder:validation:items:MaxLength=64
	SecurityGroupIDs []string `json:"securityGroupIDs,omitempty"`

	// SecurityGroupRefs name SecurityGroup objects in this namespace; the function waits
	// until they are Ready.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	SecurityGroupRefs []shared.Reference `json:"securityGroupRefs,omitempty"`
}

// DeadLetterConfig names where the events of failed asynchronous invocations go.
type DeadLetterConfig struct {
	// TargetARN is the ARN of an SQS queue or an SNS topic.
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:(sqs|sns):`
	// +kubebuilder:validation:MaxLength=2048
	TargetARN string `json:"targetARN"`
}

// FunctionURL is a function's HTTPS endpoint.
type FunctionURL struct {
	// AuthType is AWS_IAM (callers sign their requests, the default) or NONE (public: the
	// operator adds the resource policy statement that lets anyone invoke the URL).
	// +optional
	// +kubebuilder:default=AWS_IAM
	// +kubebuilder:validation:Enum=AWS_IAM;NONE
	AuthType string `json:"authType,omitempty"`

	// InvokeMode is BUFFERED (the default) or RESPONSE_STREAM.
	// +optional
	// +kubebuilder:default=BUFFERED
	// +kubebuilder:validation:Enum=BUFFERED;RESPONSE_STREAM
	InvokeMode string `json:"invokeMode,omitempty"`

	// CORS is the URL's cross-origin resource sharing configuration.
	// +optional
	CORS *shared.CORS `json:"cors,omitempty"`
}

// LambdaFunctionStatus is the observed state of a Lambda function.
type LambdaFunctionStatus struct {
	shared.ManagedStatus `json:",inline"`

	// FunctionName is the function's name.
	// +optional
	FunctionName string `json:"functionName,omitempty" output:""`

	// FunctionARN is the function's ARN.
	// +optional
	FunctionARN string `json:"functionARN,omitempty" output:""`

	// State is Pending, Active, Inactive or Failed.
	// +optional
	State string `json:"state,omitempty"`

	// StateReason is AWS's explanation of the state, when it gives one.
	// +optional
	StateReason string `json:"stateReason,omitempty"`

	// LastUpdateStatus is InProgress, Successful or Failed, for the last code or
	// configuration update.
	// +optional
	LastUpdateStatus string `json:"lastUpdateStatus,omitempty"`

	// Runtime is the function's runtime.
	// +optional
	Runtime string `json:"runtime,omitempty"`

	// Version is the latest published version with spec.publish, $LATEST otherwise.
	// +optional
	Version string `json:"version,omitempty"`

	// CodeSHA256 is the base64 SHA-256 of the function's deployment package.
	// +optional
	CodeSHA256 string `json:"codeSHA256,omitempty"`

	// CodeSource is the package the code was last deployed from: s3://bucket/key (with
	// ?versionId=), the image URI, or configmap://name/key.
	// +optional
	CodeSource string `json:"codeSource,omitempty"`

	// PublishedFrom is the LastModified time of $LATEST when status.version was published
	// from it: a later change of $LATEST is published as a new version (spec.publish).
	// +optional
	PublishedFrom string `json:"publishedFrom,omitempty"`

	// FunctionURL is the function's HTTPS endpoint, with spec.functionURL.
	// +optional
	FunctionURL string `json:"functionURL,omitempty" output:""`
}

// LambdaFunction is a Lambda function. Its name and its package type (a zip package, or a
// container image) cannot change once it exists.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.functionARN) || has(self.spec.imageURI) == has(oldSelf.spec.imageURI)",message="a function's package type (zip or container image) cannot change once it exists; create a new LambdaFunction"
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=lambda,categories={aws,aws-compute}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="FUNCTION",type=string,JSONPath=`.status.functionName`
// +kubebuilder:printcolumn:name="STATE",type=string,JSONPath=`.status.state`
// +kubebuilder:printcolumn:name="RUNTIME",type=string,JSONPath=`.status.runtime`
// +kubebuilder:printcolumn:name="VERSION",type=string,JSONPath=`.status.version`,priority=1
// +kubebuilder:printcolumn:name="URL",type=string,JSONPath=`.status.functionURL`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type LambdaFunction struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   LambdaFunctionSpec   `json:"spec"`
	Status LambdaFunctionStatus `json:"status,omitempty"`
}

// LambdaFunctionList is a list of LambdaFunctions.
// +kubebuilder:object:root=true
type LambdaFunctionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []LambdaFunction `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (f *LambdaFunction) GetManagedSpec() *shared.ManagedSpec { return &f.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (f *LambdaFunction) GetManagedStatus() *shared.ManagedStatus { return &f.Status.ManagedStatus }
